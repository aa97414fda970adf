import CSDL2
import LaunchAdCore

/// SDL's video subsystem with its X11 driver, for drawing in an application's X11 window
/// `window`. Started here when the process has not started it (and quit when released); when
/// the application started it itself, its driver must be X11. X errors about the window are
/// caught while this lives (`X11ErrorWatch`): `isLost` says one came.
final class X11Video {
    private let started: Bool
    private let window: UInt

    init(window: UInt) throws(X11AttachError) {
        self.window = window
        if libsdl.SDL_WasInit(SDL_INIT_VIDEO) != 0 {
            started = false
        } else {
            // SDL_VIDEODRIVER, when set, wins (as for launchad's own window: DisplayChoice);
            // otherwise X11, asked for this start only, whatever SDL would pick first.
            // Set but empty is unset, as SDL reads it.
            if let asked = getenv("SDL_VIDEODRIVER").map({ String(cString: $0) }), !asked.isEmpty, asked.lowercased() != "x11" {
                throw .driverAsked(asked)
            }
            let hint = libsdl.SDL_GetHint(SDL_HINT_VIDEODRIVER).map { String(cString: $0) }
            _ = libsdl.SDL_SetHint(SDL_HINT_VIDEODRIVER, "x11")
            let up = SDLHints.initSubSystem(SDL_INIT_VIDEO) == 0
            _ = libsdl.SDL_SetHint(SDL_HINT_VIDEODRIVER, hint)
            guard up else { throw .sdl(SDLError(.noDisplay, "cannot start SDL's X11 video driver").message) }
            started = true
            // SDL marks every window it makes or takes as a drag-and-drop target (the XdndAware
            // property) while drop events are on, and leaves the mark on a window it only
            // borrowed: the application's window must stay as it was. This SDL is ours alone
            // (its event states go when it quits), so its drop events stay off.
            _ = libsdl.SDL_EventState(UInt32(SDL_DROPFILE.rawValue), SDL_DISABLE)
            _ = libsdl.SDL_EventState(UInt32(SDL_DROPTEXT.rawValue), SDL_DISABLE)
        }
        let driver = libsdl.SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? "none"
        guard driver == "x11" else {
            if started { libsdl.SDL_QuitSubSystem(SDL_INIT_VIDEO) }
            throw .notX11(driver)
        }
        X11ErrorWatch.shared.watch(window)
    }

    deinit {
        // The handler goes back before SDL's video quits (which puts back the one it found).
        X11ErrorWatch.shared.unwatch(window)
        if started { libsdl.SDL_QuitSubSystem(SDL_INIT_VIDEO) }
    }

    /// Whether the X server said the window is gone (an error about it) since it was attached.
    var isLost: Bool { X11ErrorWatch.shared.isLost(window) }
}

/// Why an application's X11 window cannot be drawn in.
public enum X11AttachError: Error, Equatable, Sendable, CustomStringConvertible {
    /// libX11 or the display `$DISPLAY` names cannot be had.
    case noDisplay
    /// The display has no window with this id (never made, or destroyed).
    case noSuchWindow(UInt)
    /// The application started SDL's video with another driver (the name).
    case notX11(String)
    /// SDL_VIDEODRIVER asks for another driver (its value).
    case driverAsked(String)
    /// SDL cannot make a window or renderer over it (SDL's text).
    case sdl(String)
    /// The X server at `$DISPLAY` took the connection and did not answer within 2 s.
    case serverSilent
    /// The window has no pixels (an InputOnly window): nothing can be drawn in it.
    case notDrawable(UInt)

    /// One line for the application's log.
    public var description: String {
        switch self {
        case .noDisplay: return "no X11 display (set DISPLAY)"
        case .noSuchWindow(let id): return "no X11 window 0x\(String(id, radix: 16)) on this display (an unknown or destroyed id)"
        case .notX11(let driver): return "SDL's video runs with the \(driver) driver in this process, not x11"
        case .driverAsked(let driver): return "SDL_VIDEODRIVER=\(driver) asks for another driver than x11 (unset it, or set it to x11)"
        case .sdl(let message): return message
        case .serverSilent: return "the X11 display server does not answer (asked for 2 s)"
        case .notDrawable(let id): return "the X11 window 0x\(String(id, radix: 16)) is InputOnly: it has no pixels to draw in"
        }
    }
}
