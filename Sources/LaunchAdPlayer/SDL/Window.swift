import CSDL2
import LaunchAdCore

/// Owns an SDL_Window (or borrows an application's, embedded: never destroyed here).
public final class Window {
    let pointer: OpaquePointer
    private let owned: Bool
    /// Released after the window is destroyed (stored properties outlive `deinit`'s body).
    private let video: X11Video?
    /// The own X11 window until the server has it on screen (nil elsewhere).
    private let map: X11WindowMap?

    /// A resizable window of `size` centred on screen; `fullscreen` fills the desktop and hides the cursor.
    /// On X11 it is created hidden and shown with SDL's wait for the window manager's map bounded
    /// (`X11WindowMap`): ask `isOnScreen` before counting anything as seen.
    public init(title: String, size: Size, fullscreen: Bool) throws {
        let x11 = libsdl.SDL_GetCurrentVideoDriver().map { String(cString: $0) } == "x11"
        var flags = SDL_WINDOW_RESIZABLE.rawValue | (x11 ? SDL_WINDOW_HIDDEN.rawValue : SDL_WINDOW_SHOWN.rawValue)
        if fullscreen { flags |= SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue }
        Renderer.prepareHints()
        let pos = launchad_sdl_windowpos_centered()
        guard let w = libsdl.SDL_CreateWindow(title, pos, pos, Int32(size.width), Int32(size.height), flags) else {
            throw SDLError(.windowFailed, "cannot create a \(size) window")
        }
        pointer = w
        owned = true
        video = nil
        map = x11 ? X11WindowMap.show(w) : nil
        if fullscreen { _ = libsdl.SDL_ShowCursor(SDL_DISABLE) }
    }

    /// An application's window (embedded): looked at, never destroyed here.
    init(borrowing pointer: OpaquePointer) {
        self.pointer = pointer
        owned = false
        video = nil
        map = nil
    }

    /// SDL's window over an X11 window an application made (`SDL_CreateWindowFrom`): owned here,
    /// and destroying it leaves the X window to the application. `video` (SDL's video subsystem
    /// started for it) is kept until the window is destroyed.
    init(x11 window: UInt, video: X11Video) throws {
        Renderer.prepareHints()
        guard let w = libsdl.SDL_CreateWindowFrom(UnsafeRawPointer(bitPattern: window)) else {
            throw SDLError(.windowFailed, "cannot use the X11 window 0x\(String(window, radix: 16))")
        }
        pointer = w
        owned = true
        self.video = video
        map = nil
    }

    deinit {
        if owned { libsdl.SDL_DestroyWindow(pointer) }
        map?.windowDestroyed()
    }

    /// Whether the window is on screen as far as anyone can tell: false only for the player's own
    /// X11 window while the window manager has not mapped it (SDL's wait for the map was ended
    /// for it, `X11WindowMap`).
    public func isOnScreen() -> Bool { map?.isOnScreen() ?? true }

    /// Whether SDL's wait for the window manager to map the window was ended for it.
    var mapWaitEnded: Bool { map?.rescued ?? false }

    /// Takes the window off the screen from another thread (an X11 window; nothing elsewhere).
    func takeOff() -> (@Sendable () -> Void)? { map.map { $0.takeOff() } }

    /// Whether the X server said an application's X11 window this is over is gone.
    var isLost: Bool { video?.isLost ?? false }

    /// SDL's id for the window, which its events carry.
    public var id: UInt32 { libsdl.SDL_GetWindowID(pointer) }

    /// Changes the window's size (a window opened at a guess, once the real shape is known).
    public func resize(to size: Size) { libsdl.SDL_SetWindowSize(pointer, Int32(size.width), Int32(size.height)) }

    /// The drawable size in pixels (larger than the window size on high-DPI screens).
    public var pixelSize: Size {
        var w: Int32 = 0, h: Int32 = 0
        libsdl.SDL_GetWindowSize(pointer, &w, &h)
        return Size(width: Int(w), height: Int(h))
    }
}
