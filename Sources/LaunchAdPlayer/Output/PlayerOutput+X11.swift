import LaunchAdCore

extension PlayerOutput {
    /// An application's X11 window, by its id on `$DISPLAY` (a window made with Xlib, GTK, Qt or
    /// Tk; no SDL needed in the application): SDL's window over it (`SDL_CreateWindowFrom`, SDL's
    /// video started with its X11 driver) and a renderer, both owned by this output and destroyed
    /// with it, which leaves the X window to the application. The ad is laid out to the window's
    /// size when attached, and this output presents its own frames.
    public static func x11(window id: UInt) throws(X11AttachError) -> PlayerOutput {
        // A server that takes the connection and never answers would hold the caller's thread
        // (an application's) in Xlib for good: asked first, off it, for 2 s at most.
        guard X11Windows.serverAnswers(within: 2) != false else { throw .serverSilent }
        guard let x = X11Windows() else { throw .noDisplay }
        guard x.size(of: id) != nil else { throw .noSuchWindow(id) }
        guard x.isDrawable(id) else { throw .notDrawable(id) }
        let video = try X11Video(window: id)
        do {
            // The window may be destroyed between the look-up and SDL's: its errors then fail
            // the calls here rather than end the process.
            let (w, r) = try x.ignoringErrors {
                let w = try Window(x11: id, video: video)
                return (w, try Renderer(window: w))
            }
            guard x.size(of: id) != nil else { throw X11AttachError.noSuchWindow(id) }
            return PlayerOutput(kind: .x11Window, renderer: r, window: w, videoDriver: "x11")
        } catch let e as X11AttachError {
            throw e
        } catch {
            throw .sdl("\(error)")
        }
    }

    /// Whether the application's X11 window was destroyed while the ad drew in it (false for
    /// every other output).
    var windowLost: Bool { window?.isLost ?? false }
}
