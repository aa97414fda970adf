import CGL
import LaunchAdCore

// The ad's objects in the application's context, each owned by one value that deletes it in
// deinit. They live in one `GLDrawer`, which the output drops only while that context is current
// (during launchad_render, detach or destroy), or once the context is known gone
// (`GLContext.deletes` false: their names are then forgotten, not deleted).

/// A GL object's name, made by `create` and deleted in deinit by `delete` (unless its context is gone).
class GLObject {
    let name: GLuint
    let context: GLContext
    private let epoch: Int
    private let delete: (launchad_gl, UnsafePointer<GLuint>) -> Void

    init(
        _ context: GLContext, create: (launchad_gl, UnsafeMutablePointer<GLuint>) -> Void,
        delete: @escaping (launchad_gl, UnsafePointer<GLuint>) -> Void
    ) {
        self.context = context
        self.delete = delete
        epoch = context.epoch
        var n: GLuint = 0
        create(context.gl, &n)
        name = n
    }

    deinit {
        guard context.deletes, context.epoch == epoch else { return }
        var n = name
        delete(context.gl, &n)
    }
}

/// A 2D texture.
final class GLTexture: GLObject {
    /// Its size once storage is given (`allocate`).
    private(set) var size = Size(width: 0, height: 0)

    init(_ context: GLContext) {
        super.init(context, create: { $0.glGenTextures(1, $1) }, delete: { $0.glDeleteTextures(1, $1) })
    }

    /// Binds it to the active unit and gives it storage for `size` pixels of `format` (its
    /// contents undefined), sampled `filter` and clamped at its edges.
    func allocate(_ size: Size, internalFormat: GLint, format: GLenum, filter: GLint) {
        let gl = context.gl
        gl.glBindTexture(GL_TEXTURE_2D, name)
        gl.glTexImage2D(GL_TEXTURE_2D, 0, internalFormat, GLsizei(size.width), GLsizei(size.height), 0, format, GL_UNSIGNED_BYTE, nil)
        gl.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, filter)
        gl.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, filter)
        gl.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE)
        gl.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE)
        self.size = size
    }

    /// Whether its name still names this texture: it exists, and where the context can say, it
    /// is still the size given it (binds it to the active unit to ask).
    var isIntact: Bool {
        let gl = context.gl
        guard gl.glIsTexture(name) != 0 else { return false }
        guard context.hasTextureLevelSize, let level = gl.glGetTexLevelParameteriv else { return true }
        gl.glBindTexture(GL_TEXTURE_2D, name)
        var w: GLint = -1, h: GLint = -1
        level(GL_TEXTURE_2D, 0, GL_TEXTURE_WIDTH, &w)
        level(GL_TEXTURE_2D, 0, GL_TEXTURE_HEIGHT, &h)
        return Int(w) == size.width && Int(h) == size.height
    }
}

/// A linked program, with the uniforms' locations it was asked for.
final class GLProgram {
    let name: GLuint
    private let context: GLContext
    private let epoch: Int
    private var locations: [String: GLint] = [:]
    /// Its active uniforms and attributes after linking: what tells it from a program the
    /// application made later under the same name.
    private var shape: [GLint] = [0, 0]

    /// Compiles and links `vertex` and `fragment` (sources after their header); the attributes
    /// are a_position at 0 and a_texcoord at 1. Throws the driver's log when either fails.
    init(_ context: GLContext, vertex: String, fragment: String) throws(GLProgramError) {
        self.context = context
        epoch = context.epoch
        let gl = context.gl
        let vs = try Self.compile(gl, GL_VERTEX_SHADER, vertex)
        defer { gl.glDeleteShader(vs) }
        let fs = try Self.compile(gl, GL_FRAGMENT_SHADER, fragment)
        defer { gl.glDeleteShader(fs) }
        name = gl.glCreateProgram()
        guard name != 0 else { throw GLProgramError(log: "glCreateProgram failed") }
        gl.glAttachShader(name, vs)
        gl.glAttachShader(name, fs)
        gl.glBindAttribLocation(name, 0, "a_position")
        gl.glBindAttribLocation(name, 1, "a_texcoord")
        gl.glLinkProgram(name)
        var linked: GLint = 0
        gl.glGetProgramiv(name, GL_LINK_STATUS, &linked)
        guard linked != 0 else {
            let log = Self.log(
                length: { gl.glGetProgramiv(name, GL_INFO_LOG_LENGTH, $0) }, read: { gl.glGetProgramInfoLog(name, $0, nil, $1) })
            gl.glDeleteProgram(name)
            throw GLProgramError(log: "linking: \(log)")
        }
        shape = Self.shape(gl, name)
    }

    private static func shape(_ gl: launchad_gl, _ name: GLuint) -> [GLint] {
        var uniforms: GLint = -1, attributes: GLint = -1
        gl.glGetProgramiv(name, GL_ACTIVE_UNIFORMS, &uniforms)
        gl.glGetProgramiv(name, GL_ACTIVE_ATTRIBUTES, &attributes)
        return [uniforms, attributes]
    }

    /// Whether its name still names this program in the context current (not deleted, nor
    /// deleted and made again by the application).
    var isIntact: Bool {
        let gl = context.gl
        return gl.glIsProgram(name) != 0 && Self.shape(gl, name) == shape
    }

    deinit { if context.deletes && context.epoch == epoch { context.gl.glDeleteProgram(name) } }

    /// The uniform's location (asked once).
    func uniform(_ n: String) -> GLint {
        if let l = locations[n] { return l }
        let l = context.gl.glGetUniformLocation(name, n)
        locations[n] = l
        return l
    }

    private static func compile(_ gl: launchad_gl, _ stage: GLenum, _ source: String) throws(GLProgramError) -> GLuint {
        let shader = gl.glCreateShader(stage)
        source.withCString { text in
            var strings: [UnsafePointer<GLchar>] = [text]
            gl.glShaderSource(shader, 1, &strings, nil)
        }
        gl.glCompileShader(shader)
        var ok: GLint = 0
        gl.glGetShaderiv(shader, GL_COMPILE_STATUS, &ok)
        guard ok != 0 else {
            let log = log(
                length: { gl.glGetShaderiv(shader, GL_INFO_LOG_LENGTH, $0) }, read: { gl.glGetShaderInfoLog(shader, $0, nil, $1) })
            gl.glDeleteShader(shader)
            throw GLProgramError(log: "\(stage == GL_VERTEX_SHADER ? "vertex" : "fragment") shader: \(log)")
        }
        return shader
    }

    private static func log(length: (UnsafeMutablePointer<GLint>) -> Void, read: (GLsizei, UnsafeMutablePointer<GLchar>) -> Void) -> String
    {
        var n: GLint = 0
        length(&n)
        guard n > 1 else { return "no log" }
        var text = [GLchar](repeating: 0, count: Int(min(n, 4096)) + 1)
        text.withUnsafeMutableBufferPointer { read(GLsizei($0.count - 1), $0.baseAddress!) }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            .split(whereSeparator: \.isNewline).joined(separator: "; ")
    }
}

/// A program that did not build: the driver's words.
struct GLProgramError: Error, CustomStringConvertible {
    let log: String
    var description: String { log }
}

/// A buffer.
final class GLBuffer: GLObject {
    /// The bytes given it (`fill`).
    private(set) var byteCount = 0

    init(_ context: GLContext) {
        super.init(context, create: { $0.glGenBuffers(1, $1) }, delete: { $0.glDeleteBuffers(1, $1) })
    }

    /// Binds it to GL_ARRAY_BUFFER and gives it `bytes`.
    func fill(_ bytes: UnsafeRawBufferPointer) {
        let gl = context.gl
        gl.glBindBuffer(GL_ARRAY_BUFFER, name)
        gl.glBufferData(GL_ARRAY_BUFFER, bytes.count, bytes.baseAddress, GL_STREAM_DRAW)
        byteCount = bytes.count
    }

    /// Whether its name still names this buffer (binds it to GL_ARRAY_BUFFER to ask its size).
    var isIntact: Bool {
        let gl = context.gl
        guard gl.glIsBuffer(name) != 0 else { return false }
        gl.glBindBuffer(GL_ARRAY_BUFFER, name)
        var bytes: GLint = -1
        gl.glGetBufferParameteriv(GL_ARRAY_BUFFER, GL_BUFFER_SIZE, &bytes)
        return Int(bytes) == byteCount
    }
}

/// A vertex array object (OpenGL 3.0, ES 3.0): the ad's attribute layout, apart from the
/// application's.
final class GLVertexArray: GLObject {
    init?(_ context: GLContext) {
        guard context.hasVertexArrays, let gen = context.gl.glGenVertexArrays else { return nil }
        super.init(context, create: { _, n in gen(1, n) }, delete: { gl, n in gl.glDeleteVertexArrays?(1, n) })
    }

    /// Whether its name still names a vertex array object (true when the context cannot say).
    var isIntact: Bool { context.gl.glIsVertexArray.map { $0(name) != 0 } ?? true }
}
