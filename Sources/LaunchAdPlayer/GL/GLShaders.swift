import LaunchAdCore
import LaunchAdMedia

/// The two programs the ad draws with, written once and given the GLSL header the context's
/// version takes: "#version 150" on OpenGL 3.2 and later (core or compatibility, GtkGLArea's
/// usual context), 130 on 3.0 and 3.1, 120 on 2.x (an old compatibility context, as
/// QOpenGLWidget may get), "#version 300 es" on OpenGL ES 3, 100 on ES 2.
enum GLShaders {
    /// The header of one stage: the version line, the precision (ES), and the words that
    /// changed between GLSL versions as macros (ATTR, VARY, TEX, FRAG).
    static func header(_ v: GLVersion, fragment: Bool) -> String {
        let modern: Bool
        var lines: [String]
        if v.isES {
            modern = v.major >= 3
            lines = [modern ? "#version 300 es" : "#version 100"]
            // ES 3 promises high precision in fragment shaders; ES 2 only where it says so.
            lines.append(
                modern
                    ? "precision highp float;"
                    : "#ifdef GL_FRAGMENT_PRECISION_HIGH\nprecision highp float;\n#else\nprecision mediump float;\n#endif")
        } else {
            modern = (v.major, v.minor) >= (3, 0)
            lines = [(v.major, v.minor) >= (3, 2) ? "#version 150" : modern ? "#version 130" : "#version 120"]
        }
        if modern {
            lines += ["#define ATTR in", "#define TEX texture"]
            lines += fragment ? ["#define VARY in", "out vec4 launchad_color;", "#define FRAG launchad_color"] : ["#define VARY out"]
        } else {
            lines += ["#define ATTR attribute", "#define VARY varying", "#define TEX texture2D", "#define FRAG gl_FragColor"]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Both programs' vertex stage: a position in clip space and a texture coordinate.
    static let vertex = """
        ATTR vec2 a_position;
        ATTR vec2 a_texcoord;
        VARY vec2 v_texcoord;
        void main() {
            v_texcoord = a_texcoord;
            gl_Position = vec4(a_position, 0.0, 1.0);
        }
        """

    /// The picture: three 8-bit planes (one channel each: GL_RED, or GL_LUMINANCE before
    /// OpenGL 3.0 and ES 3.0, both read as .r) to RGB with the stream's matrix and range.
    static let yuv = """
        VARY vec2 v_texcoord;
        uniform sampler2D u_y;
        uniform sampler2D u_u;
        uniform sampler2D u_v;
        uniform mat3 u_matrix;
        uniform vec3 u_offset;
        void main() {
            vec3 yuv = vec3(TEX(u_y, v_texcoord).r, TEX(u_u, v_texcoord).r, TEX(u_v, v_texcoord).r);
            FRAG = vec4(clamp(u_matrix * (yuv - u_offset), 0.0, 1.0), 1.0);
        }
        """

    /// The overlay: RGBA with its colour premultiplied by its alpha, as SDL's software renderer
    /// leaves it when it blends onto a transparent picture.
    static let overlay = """
        VARY vec2 v_texcoord;
        uniform sampler2D u_overlay;
        void main() {
            FRAG = TEX(u_overlay, v_texcoord);
        }
        """
}

/// A YUV to RGB conversion as the shader applies it: rgb = matrix * (yuv - offset), each
/// channel from 0 to 1. The stream's matrix when it says (BT.601 or BT.709), else SDL's choice
/// for the picture's height (BT.601 up to 576 lines, BT.709 above), as the SDL renderers
/// convert; limited range (16-235, 16-240) unless the picture says full.
struct YUVConversion: Equatable, Sendable {
    /// Column-major, as glUniformMatrix3fv takes it untransposed: the Y, U and V columns.
    let matrix: [Float]
    let offset: [Float]

    init(_ matrix: ColorMatrix, fullRange: Bool, height: Int) {
        let bt709 = matrix == .bt709 || (matrix == .unspecified && height > 576)
        let (kr, kb): (Double, Double) = bt709 ? (0.2126, 0.0722) : (0.299, 0.114)
        let kg = 1 - kr - kb
        let (ys, cs): (Double, Double) = fullRange ? (1, 1) : (255.0 / 219, 255.0 / 224)
        let y = [ys, ys, ys]
        let u = [0, -2 * kb * (1 - kb) / kg * cs, 2 * (1 - kb) * cs]
        let v = [2 * (1 - kr) * cs, -2 * kr * (1 - kr) / kg * cs, 0]
        self.matrix = (y + u + v).map { Float($0) }
        offset = [fullRange ? 0 : Float(16.0 / 255), Float(128.0 / 255), Float(128.0 / 255)]
    }
}
