import CGL
import LaunchAdCore
import LaunchAdMedia

/// The ad's objects in an application's GL context, and the draws of one frame into the
/// framebuffer bound there: the viewport cleared to black, the picture from its three planes
/// (converted in the fragment shader), the overlay blended over it (premultiplied).
final class GLDrawer {
    private let context: GLContext
    private let yuvProgram: GLProgram
    private let overlayProgram: GLProgram
    private let vertices: GLBuffer
    private let vertexArray: GLVertexArray?
    private var planes: [GLTexture] = []
    /// The picture in the planes (held, so its identity stays its own).
    private var uploaded: DecodedPicture?
    private var overlay: GLTexture?

    init(_ context: GLContext) throws(GLProgramError) {
        self.context = context
        let v = context.version
        let vertex = GLShaders.header(v, fragment: false) + GLShaders.vertex
        yuvProgram = try GLProgram(context, vertex: vertex, fragment: GLShaders.header(v, fragment: true) + GLShaders.yuv)
        overlayProgram = try GLProgram(context, vertex: vertex, fragment: GLShaders.header(v, fragment: true) + GLShaders.overlay)
        vertices = GLBuffer(context)
        vertexArray = GLVertexArray(context)
    }

    /// Draws one frame with the application's state saved (`GLState`) and put back by the caller.
    func draw(_ frame: GLFrame) {
        let gl = context.gl
        setVertices(frame.quads)
        gl.glDisable(GL_BLEND)
        gl.glEnable(GL_SCISSOR_TEST)
        let vp = frame.viewport
        gl.glScissor(vp.x, vp.y, GLsizei(vp.size.width), GLsizei(vp.size.height))
        if frame.clears {
            gl.glClearColor(0, 0, 0, 1)
            gl.glClear(GL_COLOR_BUFFER_BIT)
        }
        if let picture = frame.picture, let clip = frame.scissor(picture.clip) {
            upload(picture.picture)
            gl.glUseProgram(yuvProgram.name)
            for (unit, (texture, name)) in zip(planes, ["u_y", "u_u", "u_v"]).enumerated() {
                gl.glActiveTexture(GL_TEXTURE0 + GLenum(unit))
                gl.glBindTexture(GL_TEXTURE_2D, texture.name)
                gl.glUniform1i(yuvProgram.uniform(name), GLint(unit))
            }
            gl.glUniformMatrix3fv(yuvProgram.uniform("u_matrix"), 1, GL_FALSE, picture.conversion.matrix)
            let o = picture.conversion.offset
            gl.glUniform3f(yuvProgram.uniform("u_offset"), o[0], o[1], o[2])
            gl.glScissor(clip.x, clip.y, clip.w, clip.h)
            gl.glDrawArrays(GL_TRIANGLE_STRIP, 0, 4)
        }
        if let ink = frame.overlayInk {
            drawOverlay(frame, ink: ink)
        }
    }

    private func drawOverlay(_ frame: GLFrame, ink: Rect) {
        let gl = context.gl
        gl.glActiveTexture(GL_TEXTURE0)
        if overlay?.size != frame.viewport.size {
            overlay = GLTexture(context)
            overlay?.allocate(
                frame.viewport.size, internalFormat: context.version.isES && context.version.major < 3 ? GLint(GL_RGBA) : GL_RGBA8,
                format: GL_RGBA, filter: GL_NEAREST)
        }
        guard let overlay else { return }
        gl.glBindTexture(GL_TEXTURE_2D, overlay.name)
        if let pixels = frame.overlayPixels {
            pixels.withUnsafeBytes {
                gl.glTexSubImage2D(
                    GL_TEXTURE_2D, 0, GLint(ink.x), GLint(ink.y), GLsizei(ink.width), GLsizei(ink.height), GL_RGBA, GL_UNSIGNED_BYTE,
                    $0.baseAddress)
            }
        }
        gl.glUseProgram(overlayProgram.name)
        gl.glUniform1i(overlayProgram.uniform("u_overlay"), 0)
        gl.glEnable(GL_BLEND)
        gl.glBlendFuncSeparate(GL_ONE, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA)
        gl.glBlendEquationSeparate(GL_FUNC_ADD, GL_FUNC_ADD)
        let vp = frame.viewport
        gl.glScissor(vp.x, vp.y, GLsizei(vp.size.width), GLsizei(vp.size.height))
        gl.glDrawArrays(GL_TRIANGLE_STRIP, 4, 4)
    }

    /// Whether every name of the ad's still names the ad's object in the context current: not
    /// when the context was destroyed and another made in its place without a detach, nor when
    /// the application deleted one (and perhaps made an object of its own under the name: told
    /// by what the object is, its program's shape, its texture's size where the context can say,
    /// its buffer's size). Binds the objects it asks about: called with the application's
    /// state saved.
    var isInContext: Bool {
        context.gl.glActiveTexture(GL_TEXTURE0)
        return yuvProgram.isIntact && overlayProgram.isIntact && vertices.isIntact && (vertexArray?.isIntact ?? true)
            && planes.allSatisfy(\.isIntact) && (overlay?.isIntact ?? true)
    }

    /// Whether the overlay texture must be filled again before it is drawn (made anew, or never filled).
    func overlayNeedsFill(_ size: Size) -> Bool { overlay?.size != size }

    private func setVertices(_ quads: [Float]) {
        let gl = context.gl
        if let vertexArray { gl.glBindVertexArray?(vertexArray.name) }
        quads.withUnsafeBytes { vertices.fill($0) }
        let stride = GLsizei(4 * MemoryLayout<Float>.size)
        gl.glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, stride, nil)
        gl.glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, stride, UnsafeRawPointer(bitPattern: 2 * MemoryLayout<Float>.size))
        gl.glEnableVertexAttribArray(0)
        gl.glEnableVertexAttribArray(1)
    }

    /// Uploads the three planes of `picture` when it is not the one they hold.
    private func upload(_ picture: DecodedPicture) {
        guard picture !== uploaded else { return }
        let gl = context.gl
        let red = context.hasRedTextures
        picture.frame.withYUVPlanes { p in
            let w = Int(p.width), h = Int(p.height)
            let sizes = [
                Size(width: w, height: h), Size(width: (w + 1) / 2, height: (h + 1) / 2), Size(width: (w + 1) / 2, height: (h + 1) / 2)
            ]
            if planes.count != 3 { planes = (0..<3).map { _ in GLTexture(context) } }
            for (i, (data, pitch)) in [(p.y, p.yPitch), (p.u, p.uPitch), (p.v, p.vPitch)].enumerated() {
                gl.glActiveTexture(GL_TEXTURE0 + GLenum(i))
                if planes[i].size != sizes[i] {
                    planes[i].allocate(
                        sizes[i], internalFormat: red ? GL_R8 : GLint(GL_LUMINANCE), format: red ? GL_RED : GL_LUMINANCE, filter: GL_LINEAR)
                } else {
                    gl.glBindTexture(GL_TEXTURE_2D, planes[i].name)
                }
                uploadPlane(data, pitch: Int(pitch), size: sizes[i], format: red ? GL_RED : GL_LUMINANCE)
            }
        }
        uploaded = picture
    }

    /// One plane into the texture bound: at once when the unpack row length can say its pitch,
    /// else row by row (OpenGL ES 2.0, or a picture stored bottom up).
    private func uploadPlane(_ data: UnsafePointer<UInt8>, pitch: Int, size: Size, format: GLenum) {
        let gl = context.gl
        if context.hasUnpackRowLength && pitch >= size.width {
            gl.glPixelStorei(GL_UNPACK_ROW_LENGTH, GLint(pitch))
            gl.glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, GLsizei(size.width), GLsizei(size.height), format, GL_UNSIGNED_BYTE, data)
            gl.glPixelStorei(GL_UNPACK_ROW_LENGTH, 0)
            return
        }
        for row in 0..<size.height {
            gl.glTexSubImage2D(GL_TEXTURE_2D, 0, 0, GLint(row), GLsizei(size.width), 1, format, GL_UNSIGNED_BYTE, data + row * pitch)
        }
    }
}

/// One GL frame: where it goes and what it shows, in the viewport's pixels.
struct GLFrame {
    struct Viewport: Equatable {
        let x: GLint, y: GLint
        let size: Size
    }
    struct Picture {
        let picture: DecodedPicture
        let conversion: YUVConversion
        /// The ad's area the picture is clipped to (scene pixels, top-left origin).
        let clip: Rect
    }
    let viewport: Viewport
    let picture: Picture?
    /// Eight vertices (x, y in clip space, s, t): the picture's quad, then the overlay's.
    let quads: [Float]
    let overlayInk: Rect?
    /// The overlay's ink when it changed (uploaded before it is drawn).
    let overlayPixels: [UInt8]?
    /// Whether the viewport is cleared black first: not when the picture covers all of it (with
    /// software GL a clear is one more pass over every pixel, at every frame).
    let clears: Bool

    /// A scene rectangle as a scissor box in the framebuffer (bottom-left origin), inside the viewport.
    func scissor(_ r: Rect) -> (x: GLint, y: GLint, w: GLsizei, h: GLsizei)? {
        let s = viewport.size
        let x0 = max(0, r.x), y0 = max(0, r.y), x1 = min(s.width, r.maxX), y1 = min(s.height, r.maxY)
        guard x1 > x0, y1 > y0 else { return nil }
        return (viewport.x + GLint(x0), viewport.y + GLint(s.height - y1), GLsizei(x1 - x0), GLsizei(y1 - y0))
    }
}
