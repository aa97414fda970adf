import CSDL2
import LaunchAdCore

/// Where an ad is drawn: a window of its own (the command line's), an application's own SDL
/// renderer or X11 window (embedded), or a pixel buffer in memory an application copies from (embedded,
/// no display needed). The player draws the same scene on each; only who owns the renderer,
/// who presents, and what must be left as it was differ.
public final class PlayerOutput {
    /// Who owns what is drawn on.
    public enum Kind: Equatable, Sendable {
        /// The player's window, created and presented by it.
        case ownWindow
        /// A host's window and renderer: drawn into from the host's loop, presented by the host,
        /// its render state left as it was found.
        case hostRenderer
        /// A buffer in memory: read by the host after each drawn frame.
        case buffer
        /// A host's X11 window: SDL's window over it and a renderer, owned and presented by the
        /// player (the host draws nothing while the ad plays).
        case x11Window
        /// A host's OpenGL context: drawn into its bound framebuffer from the host's loop,
        /// presented by the host, its GL state left as it was found (`GLOutput`).
        case gl
    }

    /// Who owns what is drawn on.
    public let kind: Kind
    let renderer: Renderer
    /// The window drawn in (own or the host's), for its pixel size and the Wayland check.
    let window: Window?
    /// The buffer's pixels (buffer output).
    let surface: Surface?
    /// SDL's video driver for the `window` event ("none" for a buffer).
    let videoDriver: String
    /// The host's GL context (GL output; `renderer` then draws its overlay).
    let gl: GLOutput?

    init(kind: Kind, renderer: Renderer, window: Window?, surface: Surface? = nil, videoDriver: String, gl: GLOutput? = nil) {
        self.kind = kind; self.renderer = renderer; self.window = window; self.surface = surface; self.videoDriver = videoDriver
        self.gl = gl
    }

    /// The player's own window, `size` (or the display's, `fullscreen`).
    static func ownWindow(size: Size, fullscreen: Bool, rotation: ScreenRotation, videoDriver: String) throws -> PlayerOutput {
        let w = try Window(title: "LaunchAd", size: size, fullscreen: fullscreen)
        let r = try Renderer(window: w)
        r.rotation = rotation
        return PlayerOutput(kind: .ownWindow, renderer: r, window: w, videoDriver: videoDriver)
    }

    /// A host's SDL window and renderer (`SDL_Window *`, `SDL_Renderer *`), borrowed: never
    /// destroyed here.
    public static func host(window: OpaquePointer, renderer: OpaquePointer) -> PlayerOutput {
        let driver = libsdl.SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? "none"
        return PlayerOutput(
            kind: .hostRenderer, renderer: Renderer(borrowing: renderer), window: Window(borrowing: window), videoDriver: driver)
    }

    /// A `size` buffer of 32-bit pixels drawn by SDL's software renderer: no display needed.
    public static func buffer(_ size: Size) throws -> PlayerOutput {
        let surface = try Surface(size, format: launchad_sdl_pixelformat_argb8888())
        return PlayerOutput(kind: .buffer, renderer: try Renderer(surface: surface), window: nil, surface: surface, videoDriver: "none")
    }

    /// Shows what was drawn: the own window and a host's X11 window present; a host's renderer
    /// is presented by the host, a buffer is read.
    func present() { if kind == .ownWindow || kind == .x11Window { renderer.present() } }

    /// The buffer's pixels, as they are after the last drawn frame (buffer output only).
    public var pixels: (pointer: UnsafeRawPointer, size: Size, pitch: Int)? {
        guard let surface, let p = surface.pointer.pointee.pixels else { return nil }
        return (UnsafeRawPointer(p), surface.size, Int(surface.pointer.pointee.pitch))
    }

    /// Runs `body` (a turn of the player: uploads and drawing) with a host's render state saved
    /// and put back after: its draw colour, blend mode, target, viewport, clip, scale and SDL's
    /// YUV conversion mode (`yuv` while the ad's pictures are drawn). The player's own window
    /// and a buffer need nothing saved.
    func borrowed<T>(yuv: SDL_YUV_CONVERSION_MODE, _ body: () -> T) -> T {
        followHost()
        guard kind == .hostRenderer else { return body() }
        let saved = RenderState(renderer.pointer)
        saved.reset(renderer.pointer)
        libsdl.SDL_SetYUVConversionMode(yuv)
        defer { saved.restore(renderer.pointer) }
        return body()
    }
}

/// A host renderer's state that drawing an ad changes.
private struct RenderState {
    var r: UInt8 = 0, g: UInt8 = 0, b: UInt8 = 0, a: UInt8 = 0
    var blend = SDL_BLENDMODE_NONE
    var target: OpaquePointer?
    var viewport = SDL_Rect()
    var clip = SDL_Rect()
    var clipped = false
    var scaleX: Float = 1, scaleY: Float = 1
    var logicalW: Int32 = 0, logicalH: Int32 = 0
    var yuv = SDL_YUV_CONVERSION_AUTOMATIC

    init(_ p: OpaquePointer) {
        _ = libsdl.SDL_GetRenderDrawColor(p, &r, &g, &b, &a)
        _ = libsdl.SDL_GetRenderDrawBlendMode(p, &blend)
        target = libsdl.SDL_GetRenderTarget(p)
        libsdl.SDL_RenderGetViewport(p, &viewport)
        clipped = libsdl.SDL_RenderIsClipEnabled(p).rawValue != 0
        libsdl.SDL_RenderGetClipRect(p, &clip)
        libsdl.SDL_RenderGetScale(p, &scaleX, &scaleY)
        libsdl.SDL_RenderGetLogicalSize(p, &logicalW, &logicalH)
        yuv = libsdl.SDL_GetYUVConversionMode()
    }

    /// The plain state the ad is drawn in: the window itself, whole, unscaled, blending.
    func reset(_ p: OpaquePointer) {
        _ = libsdl.SDL_SetRenderTarget(p, nil)
        _ = libsdl.SDL_RenderSetLogicalSize(p, 0, 0)
        _ = libsdl.SDL_RenderSetScale(p, 1, 1)
        _ = libsdl.SDL_RenderSetViewport(p, nil)
        _ = libsdl.SDL_RenderSetClipRect(p, nil)
        _ = libsdl.SDL_SetRenderDrawBlendMode(p, SDL_BLENDMODE_BLEND)
    }

    func restore(_ p: OpaquePointer) {
        _ = libsdl.SDL_SetRenderTarget(p, target)
        if logicalW > 0 && logicalH > 0 { _ = libsdl.SDL_RenderSetLogicalSize(p, logicalW, logicalH) }
        _ = libsdl.SDL_RenderSetScale(p, scaleX, scaleY)
        var v = viewport
        _ = libsdl.SDL_RenderSetViewport(p, &v)
        var c = clip
        if clipped { _ = libsdl.SDL_RenderSetClipRect(p, &c) } else { _ = libsdl.SDL_RenderSetClipRect(p, nil) }
        _ = libsdl.SDL_SetRenderDrawBlendMode(p, blend)
        _ = libsdl.SDL_SetRenderDrawColor(p, r, g, b, a)
        libsdl.SDL_SetYUVConversionMode(yuv)
    }
}
