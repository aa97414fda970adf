import CGL
import LaunchAdCore

extension PlayerOutput {
    /// The OpenGL context current on this thread, an application's (GtkGLArea's,
    /// QOpenGLWidget's, its own EGL or GLX one), with its functions from `getProcAddress`
    /// (nothing links or opens a GL library): each turn draws a whole frame into the framebuffer
    /// and viewport bound at that moment, and puts the application's GL state back. The ad is
    /// laid out to the viewport, again whenever its size changes. Throws when no context is
    /// current, a function every context has is missing, or the version is older than OpenGL
    /// 2.0 and OpenGL ES 2.0.
    public static func gl(getProcAddress: (String) -> UnsafeMutableRawPointer?) throws(GLAttachError) -> PlayerOutput {
        try gl(try GLOutput(getProcAddress: getProcAddress))
    }

    /// The output over `gl` (a context attached, or let go of): its overlay's renderer (SDL's
    /// software one) made now, so call it where SDL may be loaded (the embedding API makes it at
    /// the ad's first turn, once the run has loaded SDL on its own thread).
    public static func gl(_ gl: GLOutput) throws(GLAttachError) -> PlayerOutput {
        PlayerOutput(kind: .gl, renderer: try gl.makeOverlay().renderer, window: nil, videoDriver: "none", gl: gl)
    }

    /// The application's GL context, as this output draws into it (GL output only).
    public var glOutput: GLOutput? { gl }

    /// Draws into the context current now instead of the one attached before (whose objects
    /// are deleted when it is current too, else forgotten): after the application's context
    /// was lost and made again. Throws as `gl(getProcAddress:)`; the old context stays let go.
    public func reattach(getProcAddress: (String) -> UnsafeMutableRawPointer?) throws(GLAttachError) {
        try gl?.reattach(getProcAddress: getProcAddress)
    }

    /// Lets go of the application's GL context, with it current (its objects deleted): the ad
    /// goes on, nothing is drawn until `reattach`.
    public func detachGL() { gl?.detach() }

    /// Lets go of what this output holds in the application's context (the GL objects, deleted
    /// with the context current): when the ad is over (`force` false: only if the context is
    /// current; else kept for `close`) or closed (`force`: without the context, forgotten).
    /// Whether it let go; false for the other outputs, whose SDL objects go with them.
    @discardableResult
    public func releaseHostResources(force: Bool = true) -> Bool { gl?.release(force: force) ?? false }

    /// The application's framebuffer size for this turn (the GL output reads its viewport).
    func followHost() { gl?.beginTurn() }
}
