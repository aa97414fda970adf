import LaunchAdPlayer

/// An application's OpenGL context as the place the ad draws (GtkGLArea, QOpenGLWidget, its own
/// EGL or GLX context): libmpv's render API is the model.
extension LaunchAd {
    /// Draws into the OpenGL context current on this thread, from the next `render()`: each
    /// render with that context current draws a whole frame into the framebuffer and viewport
    /// bound then (black, the picture, the overlay), laid out to the viewport's size, and puts
    /// the application's GL state back (docs/embedding.md lists it). The functions come from
    /// `getProcAddress` (eglGetProcAddress, glXGetProcAddressARB, QOpenGLContext's
    /// getProcAddress); no GL library is linked. The wake-up (`setWakeup`) also comes when the
    /// next frame is due, so the application renders when woken. GL objects are made and deleted
    /// only inside `render()`, `detachGL()` and `close()`: call them with the context current.
    ///
    /// Called again after `detachGL()` (the application's context was lost and made again), it
    /// draws into the new context. Throws `GLAttachError` (nothing attached then); does nothing
    /// when another output is attached.
    public func attach(openGL getProcAddress: (String) -> UnsafeMutableRawPointer?) throws(GLAttachError) {
        if let output {
            if output.kind == .gl { try output.reattach(getProcAddress: getProcAddress) }
            return
        }
        let gl = try PlayerOutput.gl(getProcAddress: getProcAddress)
        try? attach(gl)  // throws nothing: an output is only kept
    }

    /// Lets go of the application's GL context (GtkGLArea's unrealize, QOpenGLContext's
    /// aboutToBeDestroyed): with it current, the ad's objects in it are deleted; if it is gone
    /// already, they are forgotten. The ad goes on (its clock, its events) without drawing until
    /// `attach(openGL:)` with the new context. Nothing without a GL output.
    public func detachGL() { output?.detachGL() }

    /// Whether a GL output is attached (drawing or detached).
    public var hasGLOutput: Bool { output?.kind == .gl }
}
