import CSDL2
import LaunchAdCore

/// SDL's video and event subsystems for one run; quits them when released.
public final class SDLVideo {
    /// Starts SDL's video and event subsystems; throws `no_display` without a visible display unless SDL_VIDEODRIVER is set.
    public init() throws {
        try DisplayProbe.prepare()
        _ = libsdl.SDL_SetHint(SDL_HINT_VIDEO_X11_NET_WM_BYPASS_COMPOSITOR, "0")
        // A touch also arrives as a mouse click; handle fingers once, as fingers.
        _ = libsdl.SDL_SetHint(SDL_HINT_TOUCH_MOUSE_EVENTS, "0")
        // Signals are the command line's (or the host's): SDL installs no handler of its own.
        if SDLHints.initSubSystem(SDL_INIT_VIDEO | SDL_INIT_EVENTS) < 0 {
            throw SDLError(.noDisplay, "cannot open a display (set DISPLAY, or SDL_VIDEODRIVER=dummy for headless runs)")
        }
        // SDL falls back to its invisible offscreen driver when there is no display; an ad nobody
        // can see is an error unless a headless run was asked for.
        let driver = libsdl.SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? ""
        if (driver == "offscreen" || driver == "dummy") && getenv("SDL_VIDEODRIVER") == nil {
            libsdl.SDL_QuitSubSystem(SDL_INIT_VIDEO | SDL_INIT_EVENTS)
            throw SDLError(
                code: .noDisplay,
                message: "no display: set DISPLAY (or WAYLAND_DISPLAY), or SDL_VIDEODRIVER=dummy for a headless run")
        }
    }

    deinit {
        libsdl.SDL_QuitSubSystem(SDL_INIT_VIDEO | SDL_INIT_EVENTS)
    }

    /// SDL's current video driver, e.g. "x11", "wayland", "dummy"; "none" when there is none.
    public var driverName: String { libsdl.SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? "none" }

    /// The first display's whole size (a fullscreen window's), if SDL knows it.
    public var displaySize: Size? {
        var r = SDL_Rect()
        guard libsdl.SDL_GetDisplayBounds(0, &r) == 0, r.w > 0, r.h > 0 else { return nil }
        return Size(width: Int(r.w), height: Int(r.h))
    }

    /// The part of the first display free for windows, if SDL knows it.
    public var usableDisplaySize: Size? {
        var r = SDL_Rect()
        guard libsdl.SDL_GetDisplayUsableBounds(0, &r) == 0, r.w > 0, r.h > 0 else { return nil }
        return Size(width: Int(r.w), height: Int(r.h))
    }
}
