import CGL

/// The application's GL state that drawing the ad changes, read before each frame and put back
/// after it, so that the application finds its context as it left it (docs/embedding.md, "The
/// GL state contract", lists the same): the program in use; the active texture unit, and the 2D
/// texture and sampler object bound on units 0, 1 and 2; the vertex array object (or, without
/// vertex array objects, attributes 0 and 1: enabled, layout, buffer and pointer); the
/// GL_ARRAY_BUFFER and GL_PIXEL_UNPACK_BUFFER bindings; the unpack alignment, row length and
/// skips; blending (enabled, the four factors, the two equations); the scissor test and box;
/// the clear colour; the colour write mask; the depth, stencil, cull-face, rasterizer-discard,
/// sample-coverage, alpha-to-coverage, logic-op, sRGB-framebuffer and alpha tests' enables; the
/// polygon mode. The viewport and the framebuffer bindings are read, never changed.
struct GLState {
    private struct Attribute {
        var enabled: GLint = 0, size: GLint = 4, type: GLint = GLint(GL_FLOAT), normalized: GLint = 0, stride: GLint = 0
        var buffer: GLint = 0
        var pointer: UnsafeMutableRawPointer?
    }

    private var program: GLint = 0
    private var activeTexture: GLint = GLint(GL_TEXTURE0)
    private var textures: [GLint] = [0, 0, 0]
    private var samplers: [GLint] = [0, 0, 0]
    private var vertexArray: GLint = 0
    private var attributes: [Attribute] = []
    private var arrayBuffer: GLint = 0
    private var unpackBuffer: GLint = 0
    private var unpack: [GLint] = [4, 0, 0, 0]
    private var blend: [GLint] = [0, 0, 0, 0, 0, 0]
    private var scissorBox: [GLint] = [0, 0, 0, 0]
    private var clearColor: [GLfloat] = [0, 0, 0, 0]
    private var colorMask: [GLboolean] = [1, 1, 1, 1]
    private var enables: [(GLenum, GLboolean)] = []
    private var polygonMode: [GLint] = [GLint(GL_FILL), GLint(GL_FILL), 0, 0]

    /// The texture units the ad draws with.
    static let units = 3

    /// The enables the ad's drawing needs off (scissor and blend aside, which it sets itself).
    private static func switchedOff(_ c: GLContext) -> [GLenum] {
        var caps = [GL_DEPTH_TEST, GL_STENCIL_TEST, GL_CULL_FACE, GL_SAMPLE_ALPHA_TO_COVERAGE, GL_SAMPLE_COVERAGE]
        if c.hasRasterizerDiscard { caps.append(GL_RASTERIZER_DISCARD) }
        if c.hasFramebufferSRGB { caps.append(GL_FRAMEBUFFER_SRGB) }
        if c.hasLogicOp { caps.append(GL_COLOR_LOGIC_OP) }
        if c.hasAlphaTest { caps.append(GL_ALPHA_TEST) }
        return caps
    }

    /// The program in use when the application deleted it and kept it in use (GL keeps it alive
    /// only while it is current, so the ad's glUseProgram would free it); nil otherwise.
    func deletedProgram(_ c: GLContext) -> GLint? {
        guard program != 0 else { return nil }
        var deleted: GLint = 0
        c.gl.glGetProgramiv(GLuint(program), GL_DELETE_STATUS, &deleted)
        return deleted != 0 ? program : nil
    }

    /// Reads the state the ad will change.
    init(_ c: GLContext) {
        let gl = c.gl
        gl.glGetIntegerv(GL_CURRENT_PROGRAM, &program)
        gl.glGetIntegerv(GL_ACTIVE_TEXTURE, &activeTexture)
        for unit in 0..<Self.units {
            gl.glActiveTexture(GL_TEXTURE0 + GLenum(unit))
            gl.glGetIntegerv(GL_TEXTURE_BINDING_2D, &textures[unit])
            if c.hasSamplers { gl.glGetIntegerv(GL_SAMPLER_BINDING, &samplers[unit]) }
        }
        gl.glActiveTexture(GLenum(activeTexture))
        gl.glGetIntegerv(GL_ARRAY_BUFFER_BINDING, &arrayBuffer)
        if c.hasVertexArrays {
            gl.glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &vertexArray)
        } else {
            attributes = (0..<2).map { Self.attribute(gl, GLuint($0)) }
        }
        if c.hasUnpackBuffer { gl.glGetIntegerv(GL_PIXEL_UNPACK_BUFFER_BINDING, &unpackBuffer) }
        gl.glGetIntegerv(GL_UNPACK_ALIGNMENT, &unpack[0])
        if c.hasUnpackRowLength {
            gl.glGetIntegerv(GL_UNPACK_ROW_LENGTH, &unpack[1])
            gl.glGetIntegerv(GL_UNPACK_SKIP_ROWS, &unpack[2])
            gl.glGetIntegerv(GL_UNPACK_SKIP_PIXELS, &unpack[3])
        }
        for (i, name) in [
            GL_BLEND_SRC_RGB, GL_BLEND_DST_RGB, GL_BLEND_SRC_ALPHA, GL_BLEND_DST_ALPHA, GL_BLEND_EQUATION_RGB, GL_BLEND_EQUATION_ALPHA
        ]
        .enumerated() {
            gl.glGetIntegerv(name, &blend[i])
        }
        gl.glGetIntegerv(GL_SCISSOR_BOX, &scissorBox)
        gl.glGetFloatv(GL_COLOR_CLEAR_VALUE, &clearColor)
        gl.glGetBooleanv(GL_COLOR_WRITEMASK, &colorMask)
        enables = ([GL_BLEND, GL_SCISSOR_TEST] + Self.switchedOff(c)).map { ($0, gl.glIsEnabled($0)) }
        if c.hasPolygonMode {
            gl.glGetIntegerv(GL_POLYGON_MODE, &polygonMode)
            // A core context has one mode for both faces (and may say it once).
            if !c.version.compatibility { polygonMode[1] = polygonMode[0] }
        }
    }

    private static func attribute(_ gl: launchad_gl, _ index: GLuint) -> Attribute {
        var a = Attribute()
        gl.glGetVertexAttribiv(index, GL_VERTEX_ATTRIB_ARRAY_ENABLED, &a.enabled)
        gl.glGetVertexAttribiv(index, GL_VERTEX_ATTRIB_ARRAY_SIZE, &a.size)
        gl.glGetVertexAttribiv(index, GL_VERTEX_ATTRIB_ARRAY_TYPE, &a.type)
        gl.glGetVertexAttribiv(index, GL_VERTEX_ATTRIB_ARRAY_NORMALIZED, &a.normalized)
        gl.glGetVertexAttribiv(index, GL_VERTEX_ATTRIB_ARRAY_STRIDE, &a.stride)
        gl.glGetVertexAttribiv(index, GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING, &a.buffer)
        gl.glGetVertexAttribPointerv(index, GL_VERTEX_ATTRIB_ARRAY_POINTER, &a.pointer)
        return a
    }

    /// The plain state the ad draws in: the tests above off, every colour channel written,
    /// polygons filled, no sampler objects, no unpack buffer, unpack alignment 1.
    static func prepare(_ c: GLContext) {
        let gl = c.gl
        for cap in switchedOff(c) { gl.glDisable(cap) }
        gl.glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE)
        if c.hasPolygonMode { gl.glPolygonMode?(GL_FRONT_AND_BACK, GL_FILL) }
        if c.hasSamplers { for unit in 0..<units { c.gl.glBindSampler?(GLuint(unit), 0) } }
        if c.hasUnpackBuffer { gl.glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0) }
        gl.glPixelStorei(GL_UNPACK_ALIGNMENT, 1)
        if c.hasUnpackRowLength {
            gl.glPixelStorei(GL_UNPACK_ROW_LENGTH, 0)
            gl.glPixelStorei(GL_UNPACK_SKIP_ROWS, 0)
            gl.glPixelStorei(GL_UNPACK_SKIP_PIXELS, 0)
        }
    }

    /// Puts back what `init` read.
    func restore(_ c: GLContext) {
        let gl = c.gl
        for unit in 0..<Self.units {
            gl.glActiveTexture(GL_TEXTURE0 + GLenum(unit))
            gl.glBindTexture(GL_TEXTURE_2D, GLuint(bitPattern: textures[unit]))
            if c.hasSamplers { gl.glBindSampler?(GLuint(unit), GLuint(bitPattern: samplers[unit])) }
        }
        gl.glActiveTexture(GLenum(activeTexture))
        gl.glUseProgram(GLuint(bitPattern: program))
        if c.hasVertexArrays {
            gl.glBindVertexArray?(GLuint(bitPattern: vertexArray))
        } else {
            for (i, a) in attributes.enumerated() {
                gl.glBindBuffer(GL_ARRAY_BUFFER, GLuint(bitPattern: a.buffer))
                gl.glVertexAttribPointer(GLuint(i), a.size, GLenum(a.type), GLboolean(a.normalized != 0 ? 1 : 0), a.stride, a.pointer)
                if a.enabled != 0 { gl.glEnableVertexAttribArray(GLuint(i)) } else { gl.glDisableVertexAttribArray(GLuint(i)) }
            }
        }
        gl.glBindBuffer(GL_ARRAY_BUFFER, GLuint(bitPattern: arrayBuffer))
        if c.hasUnpackBuffer { gl.glBindBuffer(GL_PIXEL_UNPACK_BUFFER, GLuint(bitPattern: unpackBuffer)) }
        gl.glPixelStorei(GL_UNPACK_ALIGNMENT, unpack[0])
        if c.hasUnpackRowLength {
            gl.glPixelStorei(GL_UNPACK_ROW_LENGTH, unpack[1])
            gl.glPixelStorei(GL_UNPACK_SKIP_ROWS, unpack[2])
            gl.glPixelStorei(GL_UNPACK_SKIP_PIXELS, unpack[3])
        }
        gl.glBlendFuncSeparate(GLenum(blend[0]), GLenum(blend[1]), GLenum(blend[2]), GLenum(blend[3]))
        gl.glBlendEquationSeparate(GLenum(blend[4]), GLenum(blend[5]))
        gl.glScissor(scissorBox[0], scissorBox[1], scissorBox[2], scissorBox[3])
        gl.glClearColor(clearColor[0], clearColor[1], clearColor[2], clearColor[3])
        gl.glColorMask(colorMask[0], colorMask[1], colorMask[2], colorMask[3])
        for (cap, on) in enables { if on != 0 { gl.glEnable(cap) } else { gl.glDisable(cap) } }
        if c.hasPolygonMode { restorePolygonMode(gl) }
    }

    private func restorePolygonMode(_ gl: launchad_gl) {
        if polygonMode[0] == polygonMode[1] {
            gl.glPolygonMode?(GL_FRONT_AND_BACK, GLenum(polygonMode[0]))
        } else {
            // Front and back apart: only a compatibility context allows it, and has them apart.
            gl.glPolygonMode?(GL_FRONT, GLenum(polygonMode[0]))
            gl.glPolygonMode?(GL_BACK, GLenum(polygonMode[1]))
        }
    }
}
