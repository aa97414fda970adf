import CSDL2
import LaunchAdCore

/// Owns an SDL_Window (or borrows an application's, embedded: never destroyed here).
public final class Window {
    let pointer: OpaquePointer
    private let owned: Bool
    /// Released after the window is destroyed (stored properties outlive `deinit`'s body).
    private let video: X11Video?

    /// A resizable window of `size` centred on screen; `fullscreen` fills the desktop and hides the cursor.
    public init(title: String, size: Size, fullscreen: Bool) throws {
        var flags = SDL_WINDOW_SHOWN.rawValue | SDL_WINDOW_RESIZABLE.rawValue
        if fullscreen { flags |= SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue }
        Renderer.prepareHints()
        let pos = launchad_sdl_windowpos_centered()
        guard let w = libsdl.SDL_CreateWindow(title, pos, pos, Int32(size.width), Int32(size.height), flags) else {
            throw SDLError(.windowFailed, "cannot create a \(size) window")
        }
        pointer = w
        owned = true
        video = nil
        if fullscreen { _ = libsdl.SDL_ShowCursor(SDL_DISABLE) }
    }

    /// An application's window (embedded): looked at, never destroyed here.
    init(borrowing pointer: OpaquePointer) {
        self.pointer = pointer
        owned = false
        video = nil
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
    }

    deinit { if owned { libsdl.SDL_DestroyWindow(pointer) } }

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
