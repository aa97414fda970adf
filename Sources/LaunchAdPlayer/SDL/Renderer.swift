import CSDL2
import Foundation
import LaunchAdCore

/// Owns an SDL_Renderer for a window (or an offscreen surface); what it draws on is kept alive as
/// long as the renderer. A host's renderer (embedded) is borrowed: never destroyed here.
public final class Renderer {
    let pointer: OpaquePointer
    private let target: AnyObject?
    private let owned: Bool
    /// How the scene is turned on the output: drawing calls take scene coordinates, and each
    /// element is copied turned to its place (no render target, so no extra full-frame copy).
    public var rotation: ScreenRotation = .none

    /// A renderer for `window`: accelerated with vsync when there is a GPU, else SDL's software one (on Wayland, OpenGL without vsync).
    public init(window: Window) throws {
        self.target = window
        // Accelerated with vsync when there is a GPU. Without one (no DRI render node: Xvfb,
        // containers), OpenGL would run on a software rasteriser that costs more CPU than SDL's
        // own software renderer, so use that, as SDL_RENDER_DRIVER=software would. Except on
        // Wayland: SDL 2.26 has no plain framebuffer there, its software renderer presents
        // through an OpenGL texture anyway (measured: the same CPU), so draw with OpenGL
        // (Mesa's software rasteriser without a GPU), without vsync, whose frame callbacks stop
        // while the window is hidden.
        let accelerated =
            Renderer.hasGPU
            ? SDL_RENDERER_ACCELERATED.rawValue | SDL_RENDERER_PRESENTVSYNC.rawValue
            : Renderer.isWayland ? SDL_RENDERER_ACCELERATED.rawValue : SDL_RENDERER_SOFTWARE.rawValue
        if let r = libsdl.SDL_CreateRenderer(window.pointer, -1, accelerated) {
            pointer = r
        } else if let r = libsdl.SDL_CreateRenderer(window.pointer, -1, SDL_RENDERER_SOFTWARE.rawValue) {
            pointer = r
        } else {
            throw SDLError(.rendererFailed, "cannot create a renderer")
        }
        owned = true
        _ = libsdl.SDL_SetRenderDrawBlendMode(pointer, SDL_BLENDMODE_BLEND)
    }

    /// A renderer an application made and keeps (embedded): drawn with, never destroyed here.
    init(borrowing pointer: OpaquePointer) {
        self.pointer = pointer
        target = nil
        owned = false
    }

    /// SDL's software renderer drawing into `surface`: no display, no video driver needed.
    init(surface: Surface) throws {
        guard let r = libsdl.SDL_CreateSoftwareRenderer(surface.pointer) else {
            throw SDLError(.rendererFailed, "cannot create an offscreen renderer")
        }
        pointer = r
        target = surface
        owned = true
        _ = libsdl.SDL_SetRenderDrawBlendMode(pointer, SDL_BLENDMODE_BLEND)
    }

    deinit { if owned { libsdl.SDL_DestroyRenderer(pointer) } }

    /// Whether a GPU can be used: a DRI render node exists, or the user chose a driver.
    static var hasGPU: Bool {
        if libsdl.SDL_GetHint(SDL_HINT_RENDER_DRIVER) != nil { return true }
        let nodes = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri")) ?? []
        return nodes.contains { $0.hasPrefix("renderD") }
    }

    static var isWayland: Bool { libsdl.SDL_GetCurrentVideoDriver().map { String(cString: $0) } == "wayland" }

    /// Call before the window is created: without a GPU, present through plain X11 images
    /// rather than a software OpenGL context. (Not on Wayland: without that OpenGL context the
    /// software renderer has no way to present there, and creating it fails.)
    static func prepareHints() {
        if !hasGPU && !isWayland { _ = libsdl.SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0") }
    }

    /// SDL's name for the render driver in use, e.g. "opengl", "software".
    public var name: String {
        var info = SDL_RendererInfo()
        _ = libsdl.SDL_GetRendererInfo(pointer, &info)
        return info.name.map { String(cString: $0) } ?? "unknown"
    }

    /// The scene's size: the output's, turned.
    public var sceneSize: Size { rotation.scene(outputSize) }

    /// The output's size in pixels.
    public var outputSize: Size {
        var w: Int32 = 0, h: Int32 = 0
        _ = libsdl.SDL_GetRendererOutputSize(pointer, &w, &h)
        return Size(width: Int(w), height: Int(h))
    }

    /// Fills the whole output with an opaque colour (black by default).
    public func clear(r: UInt8 = 0, g: UInt8 = 0, b: UInt8 = 0) {
        _ = libsdl.SDL_SetRenderDrawColor(pointer, r, g, b, 255)
        _ = libsdl.SDL_RenderClear(pointer)
    }

    /// Fills `rect` (scene coordinates) with a colour, blended by `a`.
    public func fill(_ rect: Rect, r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        _ = libsdl.SDL_SetRenderDrawColor(pointer, r, g, b, a)
        var sr = rotation.toOutput(rect, output: outputSize).sdl
        _ = libsdl.SDL_RenderFillRect(pointer, &sr)
    }

    /// Copies a texture into `destination`, turned clockwise by `rotation` degrees about its centre.
    public func copy(_ texture: Texture, source: Rect? = nil, destination: Rect, rotation: Int = 0, alpha: UInt8 = 255) {
        _ = libsdl.SDL_SetTextureAlphaMod(texture.pointer, alpha)
        // SDL turns about the destination's centre: move the centre, keep the shape, add the turn.
        let c = self.rotation.toOutput(
            x: Double(destination.x) + Double(destination.width) / 2,
            y: Double(destination.y) + Double(destination.height) / 2, output: outputSize)
        var dst = Rect(
            x: Int((c.x - Double(destination.width) / 2).rounded()), y: Int((c.y - Double(destination.height) / 2).rounded()),
            width: destination.width, height: destination.height
        ).sdl
        let angle = Double((rotation + self.rotation.degrees) % 360)
        if let source {
            var src = source.sdl
            _ = libsdl.SDL_RenderCopyEx(pointer, texture.pointer, &src, &dst, angle, nil, SDL_FLIP_NONE)
        } else {
            _ = libsdl.SDL_RenderCopyEx(pointer, texture.pointer, nil, &dst, angle, nil, SDL_FLIP_NONE)
        }
    }

    /// Limits drawing to `rect` (scene coordinates); nil draws everywhere again.
    public func clip(to rect: Rect?) {
        if var r = rect.map({ rotation.toOutput($0, output: outputSize) })?.sdl {
            _ = libsdl.SDL_RenderSetClipRect(pointer, &r)
        } else {
            _ = libsdl.SDL_RenderSetClipRect(pointer, nil)
        }
    }

    /// Filled triangles (one colour per vertex), for rounded buttons and rings.
    public func triangles(_ vertices: [SDL_Vertex]) {
        var vertices = vertices
        if rotation != .none {
            let out = outputSize
            for i in vertices.indices {
                let p = rotation.toOutput(x: Double(vertices[i].position.x), y: Double(vertices[i].position.y), output: out)
                vertices[i].position = SDL_FPoint(x: Float(p.x), y: Float(p.y))
            }
        }
        _ = vertices.withUnsafeBufferPointer { libsdl.SDL_RenderGeometry(pointer, nil, $0.baseAddress, Int32($0.count), nil, 0) }
    }

    /// Shows what was drawn since the last present.
    public func present() { libsdl.SDL_RenderPresent(pointer) }

    /// RGBA bytes of a rectangle of the output (not turned) as drawn (before present), for tests and snapshots.
    public func readPixels(_ rect: Rect) throws -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: rect.width * rect.height * 4)
        var r = rect.sdl
        _ = try pixels.withUnsafeMutableBytes {
            try sdlCheck(
                libsdl.SDL_RenderReadPixels(pointer, &r, launchad_sdl_pixelformat_rgba32(), $0.baseAddress, Int32(rect.width * 4)),
                .readFailed, "reading pixels back")
        }
        return pixels
    }
}

extension Rect {
    var sdl: SDL_Rect { SDL_Rect(x: Int32(x), y: Int32(y), w: Int32(width), h: Int32(height)) }
}
