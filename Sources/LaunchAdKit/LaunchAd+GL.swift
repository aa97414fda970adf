import LaunchAdPlayer

/// An application's OpenGL context as the place the ad draws (GtkGLArea, QOpenGLWidget, its own
/// EGL or GLX context): libmpv's render API is the model.
extension LaunchAd {
    /// Draws into the OpenGL context current on this thread, from the next `render()`: each
    /// render with that context current draws a whole frame into the framebuffer and viewport
    /// bound then (black, the picture, the overlay), laid out to the viewport's size, and puts
    /// the application's GL state back (docs/embedding.md lists it). The functions come from
    /// `getProcAddress` (eglGetProcAddress, glXGetProcAddressARB, QOpenGLContext's
    /// getProcAddress); no GL library is linked, and no library is loaded here (the overlay's
    /// SDL renderer is made at the ad's first turn). The wake-up (`setWakeup`) also comes when
    /// the next frame is due, so the application renders when woken. GL objects are made and
    /// deleted only inside `render()`, `detachGL()` and `close()`: call them with the context
    /// current.
    ///
    /// Called again after `detachGL()` (the application's context was lost and made again), it
    /// draws into the new context, even after `present()`. Throws `GLAttachError` (nothing
    /// attached then), or `StateError` (another output attached, one after `present()`, a call
    /// from inside `onEvent`, after `close()`).
    public func attach(openGL getProcAddress: (String) -> UnsafeMutableRawPointer?) throws {
        let made: Result<Void, GLAttachError> = try withOutput { output, pending, attachable throws(StateError) in
            if let gl = output?.glOutput ?? pending {
                do throws(GLAttachError) { try gl.reattach(getProcAddress: getProcAddress) } catch { return .failure(error) }
            } else {
                guard output == nil, attachable else { throw .alreadyAttached }
                do throws(GLAttachError) { pending = try GLOutput(getProcAddress: getProcAddress) } catch { return .failure(error) }
            }
            return .success(())
        }
        try made.get()
    }

    /// Lets go of the application's GL context (GtkGLArea's unrealize, QOpenGLContext's
    /// aboutToBeDestroyed): with it current, the ad's objects in it are deleted; if it is gone
    /// already, they are forgotten. The ad goes on (its clock, its events) without drawing until
    /// `attach(openGL:)` with the new context. Throws `StateError.notAttached` without a GL output.
    public func detachGL() throws(StateError) {
        try withOutput { output, pending, _ throws(StateError) in
            guard let gl = output?.glOutput ?? pending else { throw .notAttached }
            gl.detach()
        }
    }

    /// Whether a GL output is attached (drawing or detached).
    public var hasGLOutput: Bool { (try? withOutput { output, pending, _ in output?.glOutput != nil || pending != nil }) ?? false }
}
