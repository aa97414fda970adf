import CSDL2
import LaunchAdCore

/// The overlay of a GL frame (the skip button and its countdown, captions, the logo band, VAST
/// icons, a still image, the fade), drawn by SDL's software renderer into RGBA memory the size
/// of the application's viewport, only when something in it changed, and only over the part
/// that holds something (`ink`); the picture itself is the GL drawer's. The pixels come out
/// premultiplied: SDL blends each element onto a transparent target as
/// `dst = src * srcA + dst * (1 - srcA)`, which is "over" for premultiplied colour.
final class GLOverlay {
    /// Draws into `target`; the overlay's elements (text, logo, icons, image) are its textures.
    let renderer: Renderer
    private var target: Texture?
    private(set) var size = Size(width: 0, height: 0)
    private var key: OverlayKey?
    /// The textures the key names, kept so that their identities are not reused meanwhile.
    private var named: [AnyObject] = []
    /// The part of the overlay drawn (scene pixels), nil when it is empty.
    private(set) var ink: Rect?
    /// The ink's RGBA bytes, `ink.width * 4` a row (valid after `update` said it changed).
    private(set) var pixels: [UInt8] = []

    init() throws(GLAttachError) {
        do { renderer = try Renderer(surface: try Surface(Size(width: 1, height: 1))) } catch { throw .overlay("\(error)") }
    }

    /// Makes the target `size` (the viewport's) when it is another size: the scene is laid out
    /// to it, and everything is drawn again.
    func resize(_ size: Size) {
        guard size != self.size, size.width > 0, size.height > 0 else { return }
        target = nil
        do {
            let t = try Texture(
                renderer: renderer, format: launchad_sdl_pixelformat_rgba32(), access: SDL_TEXTUREACCESS_TARGET, size: size)
            _ = libsdl.SDL_SetRenderTarget(renderer.pointer, t.pointer)
            target = t
            self.size = size
        } catch {
            self.size = Size(width: 0, height: 0)
        }
        key = nil
    }

    /// Forgets what was drawn: the next `update` draws again (a new GL texture to fill).
    func invalidate() { key = nil }

    /// Draws `scene` (its picture aside, unless a still image) when it differs from the last one
    /// drawn; whether it did (then `ink` and `pixels` are new).
    func update(_ scene: Scene, skipView: SkipButtonView?, captionView: CaptionView?) -> Bool {
        guard target != nil else { return false }
        let hasFont = skipView?.hasFont ?? false
        let next = OverlayKey(scene, size: size, hasFont: hasFont)
        guard next != key else { return false }
        key = next
        named = [scene.picture, scene.logo].compactMap { $0 } + scene.icons.map(\.0)
        ink = Self.ink(scene, size: size)
        guard let ink else { return true }
        let p = renderer.pointer
        // The ink cleared to transparent (SDL_RenderClear would make it opaque black, and all of it).
        _ = libsdl.SDL_SetRenderDrawBlendMode(p, SDL_BLENDMODE_NONE)
        _ = libsdl.SDL_SetRenderDrawColor(p, 0, 0, 0, 0)
        var r = ink.sdl
        _ = libsdl.SDL_RenderFillRect(p, &r)
        _ = libsdl.SDL_SetRenderDrawBlendMode(p, SDL_BLENDMODE_BLEND)
        var s = scene
        s.clearsToBlack = false
        s.draw(on: renderer, skipView: skipView, captionView: captionView)
        if pixels.count != ink.width * ink.height * 4 { pixels = [UInt8](repeating: 0, count: ink.width * ink.height * 4) }
        let read = pixels.withUnsafeMutableBytes {
            libsdl.SDL_RenderReadPixels(p, &r, launchad_sdl_pixelformat_rgba32(), $0.baseAddress, Int32(ink.width * 4))
        }
        if read != 0 { self.ink = nil }
        return true
    }

    /// The part of the scene the overlay may draw on: the skip button, the logo band, the
    /// overlay area when a caption shows, each icon; all of it for a still image or a fade.
    static func ink(_ scene: Scene, size: Size) -> Rect? {
        let all = Rect(size: size)
        let layout = scene.layout
        if scene.picture != nil || scene.opacity < 1 { return all }
        var parts: [Rect] = scene.icons.map(\.1)
        // Anti-aliased edges may reach a pixel past the button's rectangle.
        if scene.skip.visible {
            parts.append(
                Rect(
                    x: layout.skipButton.x - 2, y: layout.skipButton.y - 2,
                    width: layout.skipButton.width + 4, height: layout.skipButton.height + 4))
        }
        if scene.logo != nil, let band = layout.logoBand { parts.append(band) }
        if scene.caption != nil { parts.append(layout.overlayArea) }
        guard var whole = parts.first else { return nil }
        for part in parts.dropFirst() { whole = union(whole, part) }
        return intersection(whole, all)
    }

    private static func union(_ a: Rect, _ b: Rect) -> Rect {
        let x = min(a.x, b.x), y = min(a.y, b.y)
        return Rect(x: x, y: y, width: max(a.maxX, b.maxX) - x, height: max(a.maxY, b.maxY) - y)
    }

    private static func intersection(_ a: Rect, _ b: Rect) -> Rect? {
        let x = max(a.x, b.x), y = max(a.y, b.y), w = min(a.maxX, b.maxX) - x, h = min(a.maxY, b.maxY) - y
        return w > 0 && h > 0 ? Rect(x: x, y: y, width: w, height: h) : nil
    }
}

/// What the overlay shows, to tell whether it must be drawn again: every input of the scene but
/// the video picture, the countdown ring's progress only when a ring is drawn, the fade as the
/// alpha it is drawn with.
struct OverlayKey: Equatable {
    struct Icon: Equatable {
        let texture: ObjectIdentifier
        let rect: Rect
    }
    let size: Size
    let layout: AdLayout
    let picture: ObjectIdentifier?
    let pictureSource: Rect?
    let rotation: Int?
    let zoom: Double
    let logo: ObjectIdentifier?
    let skip: SkipButtonState
    let skipStyle: SkipStyle
    let caption: String?
    let icons: [Icon]
    let fade: Int

    init(_ scene: Scene, size: Size, hasFont: Bool) {
        self.size = size
        layout = scene.layout
        picture = scene.picture.map(ObjectIdentifier.init)
        pictureSource = scene.pictureSource
        rotation = scene.content?.rotation
        // The zoom moves only a still image drawn here (a video picture is the GL drawer's).
        zoom = scene.picture == nil ? 1 : scene.zoom
        logo = scene.logo.map(ObjectIdentifier.init)
        var skip = scene.skip
        // The ring (or the text style without a font, drawn as a ring) shows progress; 1/512 steps.
        let ring = scene.skipStyle == .ring || !hasFont
        skip.progress = ring && skip.visible ? Double(Checked.int(skip.progress * 512, clampedTo: 0...512)) / 512 : 0
        self.skip = skip
        skipStyle = scene.skipStyle
        caption = scene.caption
        icons = scene.icons.map { Icon(texture: ObjectIdentifier($0.0), rect: $0.1) }
        fade = scene.opacity < 1 ? Checked.int(((1 - scene.opacity) * 255).rounded(), clampedTo: 0...255) : 0
    }
}
