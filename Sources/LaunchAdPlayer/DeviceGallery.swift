import CSDL2
import LaunchAdCore
import LaunchAdMedia

/// `launchad preview`: the ad at one moment on each device's screen, each drawn offscreen at the
/// device's own size by the player's `Scene` (layout, fit/fill, logo band, skip button as it reads
/// then), scaled to one height and set side by side with its label. SDL's software renderer on
/// surfaces in memory: no display and no video driver are needed.
public enum DeviceGallery {
    /// Height in pixels every device's screen is scaled to in the gallery.
    public static let panelHeight = 640

    /// RGBA pixels of the gallery and its size.
    public struct GalleryImage: Sendable {
        /// The gallery's size in pixels.
        public let size: Size
        /// RGBA bytes, row by row, 4 bytes per pixel, no padding.
        public let pixels: [UInt8]
    }

    /// The ad `atMs` after its first frame, on each device, with the player's configuration.
    public static func render(
        _ picture: RGBAImage, logo: RGBAImage?, devices: [PreviewDevice], config: PlayerConfig,
        atMs: Int
    ) throws -> GalleryImage {
        let gallery = GalleryLayout(devices: devices, panelHeight: panelHeight)
        let canvas = try Renderer(surface: try Surface(gallery.canvas))
        canvas.clear(r: 0x20, g: 0x20, b: 0x20)
        let fontPath = Font.locate(requested: config.font)
        let labelFont = try fontPath.map { try Font(path: $0, pointSize: 16) }
        for (i, device) in devices.enumerated() {
            let pixels = try panel(picture, logo: logo, screen: device.screen, config: config, fontPath: fontPath, atMs: atMs)
            let texture = try Texture.rgba(canvas, pixels, size: device.screen)
            // Scaled down smoothly, as a screenshot would be.
            _ = libsdl.SDL_SetTextureScaleMode(texture.pointer, SDL_ScaleModeLinear)
            canvas.copy(texture, destination: gallery.panels[i])
            if let text = try labelFont?.render(device.label, renderer: canvas) {
                let box = gallery.labels[i]
                let w = min(text.size.width, box.width), h = text.size.height * w / max(1, text.size.width)
                canvas.copy(text, destination: Rect(x: box.x + (box.width - w) / 2, y: box.y + (box.height - h) / 2, width: w, height: h))
            }
        }
        return GalleryImage(size: gallery.canvas, pixels: try canvas.readPixels(Rect(size: gallery.canvas)))
    }

    /// One device's screen as the player would draw it, RGBA at the screen's own size.
    static func panel(
        _ picture: RGBAImage, logo: RGBAImage?, screen: Size, config: PlayerConfig, fontPath: String?,
        atMs: Int
    ) throws -> [UInt8] {
        let renderer = try Renderer(surface: try Surface(screen))
        let shown = Size(width: picture.width, height: picture.height)
        let layout = AdLayout(window: screen, mode: config.layout, skipStyle: config.session.skipStyle, picture: shown, fit: config.fit)
        let scene = Scene(
            layout: layout, content: (shown, 0), picture: try Texture.image(renderer, picture),
            logo: try logo.map { try Texture.image(renderer, $0) },
            skip: skipButton(config.session, layout: layout, atMs: atMs), skipStyle: config.session.skipStyle)
        scene.draw(on: renderer, skipView: SkipButtonView(renderer: renderer, fontPath: fontPath))
        return try renderer.readPixels(Rect(size: screen))
    }
}
