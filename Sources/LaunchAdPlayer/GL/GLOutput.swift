import CGL
import LaunchAdCore
import LaunchAdMedia

/// An application's OpenGL context as the place an ad draws (`PlayerOutput.gl`, launchad_attach_gl):
/// at each turn, in the framebuffer and viewport the application has bound, a whole frame (the
/// application's toolkit keeps no framebuffer content between its render calls): black, the
/// picture from its YUV planes, the overlay blended over it. The application's GL state is put
/// back after each frame (`GLState`). Everything here runs on the application's thread, with its
/// context current: GL objects are made and deleted only then.
public final class GLOutput {
    /// The context drawn in; nil while detached (the ad goes on, nothing is drawn).
    private(set) var context: GLContext?
    private var drawer: GLDrawer?
    /// Why the ad's programs did not build in this context (said once; nothing drawn in it).
    private var broken: String?
    /// Made with the `PlayerOutput` (SDL's software renderer: at the ad's first turn, once the
    /// run has loaded SDL on its own thread, never at the attach on the application's).
    private(set) var overlay: GLOverlay?
    let wake = GLWakeTimer()
    /// The viewport of this turn (nil: no context current, or an empty viewport).
    private(set) var viewport: GLFrame.Viewport?
    /// The problem said last, so that a streak of them is said once.
    private var said: String?

    init(_ context: GLContext) { self.context = context }

    /// The context current on this thread, its functions from `getProcAddress` (the
    /// application's get_proc_address); nothing is made in it yet. Throws when no context is
    /// current, a function every context has is missing, or it is older than OpenGL 2.0 and
    /// OpenGL ES 2.0.
    public convenience init(getProcAddress: (String) -> UnsafeMutableRawPointer?) throws(GLAttachError) {
        self.init(try GLContext(proc: getProcAddress))
    }

    /// The overlay's renderer, made once.
    func makeOverlay() throws(GLAttachError) -> GLOverlay {
        if let overlay { return overlay }
        let made = try GLOverlay()
        overlay = made
        return made
    }

    /// Whatever thread lets go of the output last (the run's, a player's), no GL call is made
    /// from here: objects not deleted by `release` or `detach` are forgotten.
    deinit { context?.deletes = false }

    /// The `window` event's renderer name.
    var rendererName: String { context?.version.isES == true ? "opengles" : "opengl" }

    /// The largest viewport drawn in, in pixels: 8K UHD (7680x4320). The overlay is drawn on the
    /// CPU at the viewport's size, so a larger one (a legal 16384x16384 took 18 s and 2.2 GB on
    /// Mesa's llvmpipe) would hold the application's thread; nothing is drawn and it is said.
    static let largestViewportPixels = 7680 * 4320

    /// A viewport too large to draw in this turn (said by `draw`).
    private var oversized: Size?

    /// A turn begins: the viewport of the framebuffer the application bound, and the overlay
    /// sized to it (the ad is laid out again when it changed).
    func beginTurn() {
        viewport = nil
        oversized = nil
        guard let context, context.isCurrent else { return }
        var v: [GLint] = [0, 0, 0, 0]
        context.gl.glGetIntegerv(GL_VIEWPORT, &v)
        guard let overlay, v[2] > 0, v[3] > 0 else { return }
        let size = Size(width: Int(v[2]), height: Int(v[3]))
        guard max(size.width, size.height) <= context.maxTextureSize, size.width * size.height <= Self.largestViewportPixels else {
            oversized = size
            return
        }
        let vp = GLFrame.Viewport(x: v[0], y: v[1], size: size)
        overlay.resize(vp.size)
        if overlay.size == vp.size { viewport = vp }
    }

    /// What a frame came to.
    enum Drawn: Equatable {
        case drawn
        /// Nothing drawn, and nothing to say: detached, or an empty viewport.
        case skipped
        /// Nothing drawn: why (said once per streak, as a `render_error` warning).
        case failed(String)
    }

    /// Draws `scene` (its video picture from `picture`) into the framebuffer bound. `quiet`: a
    /// missing context is not a problem to say (the ad is paused: a hidden or minimized widget
    /// that its toolkit does not render, turned by the host with no context current).
    func draw(_ scene: Scene, picture: GLVideoPicture?, skipView: SkipButtonView?, captionView: CaptionView?, quiet: Bool) -> Drawn {
        guard let context else { return .skipped }
        guard context.isCurrent else {
            if quiet { return .skipped }
            return fail("no OpenGL context is current, or not the one attached: call launchad_render with it current")
        }
        if let size = oversized {
            return fail(
                "the viewport (\(size)) is larger than the ad draws in: at most \(context.maxTextureSize) a side (this context's textures) and 7680x4320 pixels"
            )
        }
        guard let vp = viewport, let overlay else { return .skipped }
        // The application's state, put back however this frame ends.
        let saved = GLState(context)
        defer { saved.restore(context) }
        if let program = saved.deletedProgram(context) {
            return fail(
                "the application's current program (\(program)) is deleted and still in use: the ad's own would free it, so nothing is drawn while it is current"
            )
        }
        if let d = drawer, !d.isInContext {
            // The context was replaced without launchad_detach_gl, or the application deleted the
            // ad's names: they are not the ad's now, and are forgotten, never deleted.
            context.forgetObjects()
            drawer = nil
        }
        if drawer == nil && broken == nil {
            do { drawer = try GLDrawer(context) } catch {
                broken = "the ad's shaders do not build in this OpenGL context (\(context.version.text)): \(error)"
            }
        }
        guard let drawer else { return fail(broken ?? "") }
        if drawer.overlayNeedsFill(vp.size) { overlay.invalidate() }
        let changed = overlay.update(scene, skipView: skipView, captionView: captionView)
        var shown: GLFrame.Picture?
        var corners: [(x: Double, y: Double)] = []
        if let holder = picture, let p = holder.picture, let dst = scene.pictureDestination, let rotation = scene.content?.rotation {
            shown = GLFrame.Picture(picture: p, conversion: holder.conversion(p), clip: scene.layout.adArea)
            corners = GLFrame.corners(dst, rotation: rotation)
        }
        let frame = GLFrame(
            viewport: vp, picture: shown, quads: GLFrame.quads(picture: corners, ink: overlay.ink, size: vp.size),
            overlayInk: overlay.ink, overlayPixels: changed ? overlay.pixels : nil,
            clears: shown == nil || !GLFrame.covers(corners, clip: scene.layout.adArea, size: vp.size))
        GLState.prepare(context)
        drawer.draw(frame)
        said = nil
        return .drawn
    }

    private func fail(_ problem: String) -> Drawn {
        defer { said = problem }
        return said == problem ? .skipped : .failed(problem)
    }

    /// Uses the context current now from now on (the application's new one, after its old one
    /// went); the old one's objects deleted if it is current, else forgotten.
    public func reattach(getProcAddress: (String) -> UnsafeMutableRawPointer?) throws(GLAttachError) {
        detach()
        attach(try GLContext(proc: getProcAddress))
    }

    /// Uses another context from now on (the application's new one, after its old one went).
    func attach(_ c: GLContext) {
        detach()
        context = c
    }

    /// Lets go of the context: with it current, the ad's objects in it are deleted; without
    /// (it is gone, or another is current), they are forgotten, never deleted in another one.
    public func detach() {
        if let context, !context.isCurrent { context.deletes = false }
        drawer = nil
        broken = nil
        context = nil
        said = nil
        overlay?.invalidate()
    }

    /// The ad is over, or its handle is destroyed: no more wakes, and the context let go when
    /// it is current (whether it was: if not, `close` lets go of it later).
    @discardableResult
    func release(force: Bool) -> Bool {
        wake.stop()
        guard force || context?.isCurrent != false else { return false }
        detach()
        return true
    }
}

extension GLVersion {
    var text: String { "\(isES ? "OpenGL ES" : "OpenGL") \(major).\(minor)\(isES ? "" : compatibility ? " compatibility" : " core")" }
}

extension GLFrame {
    /// The four corners of `dst` turned clockwise by `rotation` degrees about its centre (as
    /// SDL_RenderCopyEx turns it), in the order the picture's top-left, top-right, bottom-left
    /// and bottom-right land.
    static func corners(_ dst: Rect, rotation: Int) -> [(x: Double, y: Double)] {
        let cx = Double(dst.x) + Double(dst.width) / 2, cy = Double(dst.y) + Double(dst.height) / 2
        let hw = Double(dst.width) / 2, hh = Double(dst.height) / 2
        let turns = ((rotation % 360 + 360) % 360) / 90
        return [(-hw, -hh), (hw, -hh), (-hw, hh), (hw, hh)].map { p in
            var (dx, dy) = p
            for _ in 0..<turns { (dx, dy) = (-dy, dx) }
            return (cx + dx, cy + dy)
        }
    }

    /// Whether a picture with these corners, clipped to `clip`, covers every pixel of a `size` viewport.
    static func covers(_ corners: [(x: Double, y: Double)], clip: Rect, size: Size) -> Bool {
        guard corners.count == 4, clip == Rect(size: size) else { return false }
        let xs = corners.map(\.x), ys = corners.map(\.y)
        return xs.min()! <= 0 && ys.min()! <= 0 && xs.max()! >= Double(size.width) && ys.max()! >= Double(size.height)
    }

    /// The vertex data: the picture's quad (its four corners, or nothing) then the overlay's
    /// (its ink, or nothing), each vertex x, y in clip space and s, t in its texture.
    static func quads(picture corners: [(x: Double, y: Double)], ink: Rect?, size: Size) -> [Float] {
        let w = Double(size.width), h = Double(size.height)
        func clip(_ x: Double, _ y: Double) -> [Float] { [Float(2 * x / w - 1), Float(1 - 2 * y / h)] }
        var out: [Float] = []
        let texture: [[Float]] = [[0, 0], [1, 0], [0, 1], [1, 1]]
        for (i, c) in corners.prefix(4).enumerated() { out += clip(c.x, c.y) + texture[i] }
        out += [Float](repeating: 0, count: 16 - out.count)
        if let r = ink {
            for (x, y) in [(r.x, r.y), (r.maxX, r.y), (r.x, r.maxY), (r.maxX, r.maxY)] {
                out += clip(Double(x), Double(y)) + [Float(Double(x) / w), Float(Double(y) / h)]
            }
        }
        return out + [Float](repeating: 0, count: 32 - out.count)
    }
}
