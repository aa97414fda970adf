import CGL
import LaunchAdCore

/// Why an application's OpenGL context cannot be drawn in (`LaunchAd.attach(openGL:)`).
public enum GLAttachError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No context is current on the calling thread (its version cannot be read).
    case noContext
    /// The application's get_proc_address has no address for a function every context has.
    case missingFunction(String)
    /// Older than OpenGL 2.0 or OpenGL ES 2.0 (its version string).
    case unsupported(String)
    /// The overlay's offscreen renderer (SDL's software one) cannot be made (SDL's text).
    case overlay(String)

    /// One line for the application's log.
    public var description: String {
        switch self {
        case .noContext: return "no OpenGL context is current on this thread (make the application's context current first)"
        case .missingFunction(let name): return "the application's get_proc_address has no \(name)"
        case .unsupported(let version): return "OpenGL \(version) is older than OpenGL 2.0 and OpenGL ES 2.0"
        case .overlay(let message): return message
        }
    }
}

/// An application's OpenGL context as attached: its functions (from the application's
/// get_proc_address), what its version offers, and which context it is, so that nothing is drawn
/// or deleted while another context, or none, is current.
final class GLContext {
    let gl: launchad_gl
    let version: GLVersion
    /// The context current at attach, as the process's EGL or GLX names it, and how to ask
    /// again (nil when neither names one).
    private let identity: (query: GLCurrentContext, context: UnsafeMutableRawPointer)?
    /// False once the context is known to be gone: the objects made in it are forgotten, not
    /// deleted (their names may belong to another context by then).
    var deletes = true
    /// Objects made before the last `forgetObjects()` are not deleted by their owners.
    private(set) var epoch = 0
    /// The largest texture side the context takes (the overlay is the viewport's size).
    let maxTextureSize: Int

    /// The context current on this thread, its functions from `proc` (the application's
    /// get_proc_address, asked once for each name here).
    init(proc: (String) -> UnsafeMutableRawPointer?) throws(GLAttachError) {
        let table = UnsafeMutablePointer<launchad_gl>.allocate(capacity: 1)
        defer { table.deallocate() }
        let missing = withoutActuallyEscaping(proc) { f in
            var box = f
            return withUnsafeMutablePointer(to: &box) { p in
                launchad_gl_load(
                    table,
                    { user, name in
                        user?.assumingMemoryBound(to: ((String) -> UnsafeMutableRawPointer?).self).pointee(String(cString: name))
                    },
                    UnsafeMutableRawPointer(p))
            }
        }
        if let missing { throw .missingFunction(String(cString: missing)) }
        gl = table.pointee
        identity = GLCurrentContext.now()
        guard let text = gl.glGetString(GL_VERSION).map({ String(cString: $0) }) else { throw .noContext }
        guard var parsed = GLVersion(text), parsed.major >= 2 else { throw .unsupported(text) }
        if !parsed.isES && (parsed.major, parsed.minor) >= (3, 2) {
            var mask: GLint = 0
            gl.glGetIntegerv(GL_CONTEXT_PROFILE_MASK, &mask)
            parsed.compatibility = mask & GL_CONTEXT_COMPATIBILITY_PROFILE_BIT != 0
        }
        version = parsed
        // A core profile draws nothing without a vertex array object bound.
        if !parsed.isES && !parsed.compatibility && (parsed.major, parsed.minor) >= (3, 1) {
            for (name, f) in [("glBindVertexArray", gl.glBindVertexArray != nil), ("glGenVertexArrays", gl.glGenVertexArrays != nil)]
            where !f {
                throw .missingFunction(name)
            }
        }
        var side: GLint = 0
        gl.glGetIntegerv(GL_MAX_TEXTURE_SIZE, &side)
        maxTextureSize = Int(side)
    }

    /// The objects made so far are no longer in the context current under this context's name
    /// (it was destroyed and another made at the same address): they are forgotten, not deleted.
    func forgetObjects() { epoch += 1 }

    /// Whether the context attached is current on this thread now: some context is (its version
    /// can be read), and it is the same one when the platform can tell.
    var isCurrent: Bool {
        guard deletes else { return false }
        if let identity, identity.query.context() != identity.context { return false }
        return gl.glGetString(GL_VERSION) != nil
    }

    // What the version offers.
    var hasVertexArrays: Bool { version.atLeast(3, 0, es: 3, 0) && gl.glBindVertexArray != nil && gl.glGenVertexArrays != nil }
    var hasSamplers: Bool { version.atLeast(3, 3, es: 3, 0) && gl.glBindSampler != nil }
    /// GL_UNPACK_ROW_LENGTH and the skips (desktop, ES 3): a plane uploaded straight from its pitch.
    var hasUnpackRowLength: Bool { !version.isES || version.major >= 3 }
    var hasUnpackBuffer: Bool { version.atLeast(2, 1, es: 3, 0) }
    /// GL_RED textures (OpenGL 3.0, ES 3.0); older contexts have GL_LUMINANCE.
    var hasRedTextures: Bool { version.atLeast(3, 0, es: 3, 0) }
    var hasRasterizerDiscard: Bool { version.atLeast(3, 0, es: 3, 0) }
    var hasFramebufferSRGB: Bool { !version.isES && version.major >= 3 }
    var hasPolygonMode: Bool { !version.isES && gl.glPolygonMode != nil }
    /// glGetTexLevelParameteriv (desktop OpenGL, ES 3.1): a texture's size can be read back.
    var hasTextureLevelSize: Bool { version.atLeast(1, 0, es: 3, 1) && gl.glGetTexLevelParameteriv != nil }
    var hasLogicOp: Bool { !version.isES }
    /// The fixed-function alpha test still applies to shaders' output in a compatibility context.
    var hasAlphaTest: Bool { !version.isES && version.compatibility }
}

/// An OpenGL version as glGetString(GL_VERSION) says it: "4.5 (Core Profile) Mesa 22.3.6",
/// "3.3.0 NVIDIA 535.54", "2.1 Mesa 22.3.6", "OpenGL ES 3.2 Mesa 22.3.6".
struct GLVersion: Equatable, Sendable {
    var isES: Bool
    var major: Int
    var minor: Int
    /// Whether the deprecated parts are there: every desktop context before 3.1, and a
    /// compatibility profile after (read from GL_CONTEXT_PROFILE_MASK from 3.2).
    var compatibility: Bool

    init(isES: Bool, major: Int, minor: Int, compatibility: Bool) {
        self.isES = isES; self.major = major; self.minor = minor; self.compatibility = compatibility
    }

    init?(_ text: String) {
        var rest = Substring(text)
        isES = rest.hasPrefix("OpenGL ES")
        if isES {
            rest = rest.dropFirst("OpenGL ES".count)
            // "OpenGL ES-CM 1.1" (ES 1) and "OpenGL ES-CL": the profile's tag before the number.
            if rest.hasPrefix("-") { rest = rest.drop { $0 != " " } }
            rest = rest.drop { $0 == " " }
        }
        let number = rest.prefix { $0.isNumber || $0 == "." }.split(separator: ".")
        guard number.count >= 2, let major = Int(number[0]), let minor = Int(number[1]) else { return nil }
        self.major = major
        self.minor = minor
        compatibility = !isES && (major, minor) < (3, 1)
    }

    func atLeast(_ major: Int, _ minor: Int, es esMajor: Int, _ esMinor: Int) -> Bool {
        isES ? (self.major, self.minor) >= (esMajor, esMinor) : (self.major, self.minor) >= (major, minor)
    }
}
