import CSDL2
import LaunchAdCore

/// Draws the skip button the session describes: a dark pill reading "Skip 5", or a progress ring
/// around "Skip". Text textures are made once per distinct string.
final class SkipButtonView {
    private let renderer: Renderer
    private let fontPath: String?
    private var font: Font?
    private var fontHeight = 0
    private var cache: [String: Texture] = [:]

    init(renderer: Renderer, fontPath: String?) {
        self.renderer = renderer
        self.fontPath = fontPath
    }

    var hasFont: Bool { fontPath != nil }

    func draw(_ state: SkipButtonState, in rect: Rect, style: SkipStyle) {
        guard state.visible else { return }
        let alpha: UInt8 = state.enabled ? 255 : 150
        let white = SDL_Color(r: 255, g: 255, b: 255, a: alpha)
        let back = SDL_Color(r: 0, g: 0, b: 0, a: 140)
        let center = (Double(rect.x) + Double(rect.width) / 2, Double(rect.y) + Double(rect.height) / 2)
        if style == .ring || fontPath == nil {
            let radius = Double(min(rect.width, rect.height)) / 2
            let thickness = max(2, radius * 0.12)
            renderer.triangles(Shapes.disc(center: center, radius: radius, color: back))
            renderer.triangles(
                Shapes.arc(
                    center: center, radius: radius, thickness: thickness, fraction: 1,
                    color: SDL_Color(r: 255, g: 255, b: 255, a: 70)))
            renderer.triangles(Shapes.arc(center: center, radius: radius, thickness: thickness, fraction: state.progress, color: white))
            if fontPath != nil {
                drawText(state.text, center: center, maxWidth: Int(radius * 1.5), height: Int(radius * 0.55), alpha: alpha)
            } else {
                // No font: a cross says "close" in any language.
                let k = radius * 0.35
                renderer.triangles(Shapes.line((center.0 - k, center.1 - k), (center.0 + k, center.1 + k), width: thickness, color: white))
                renderer.triangles(Shapes.line((center.0 + k, center.1 - k), (center.0 - k, center.1 + k), width: thickness, color: white))
            }
        } else {
            renderer.triangles(Shapes.pill(rect, color: back))
            drawText(
                state.text, center: center, maxWidth: rect.width - rect.height / 2, height: Int(Double(rect.height) * 0.5), alpha: alpha)
        }
    }

    private func drawText(_ text: String, center: (Double, Double), maxWidth: Int, height: Int, alpha: UInt8) {
        guard !text.isEmpty, let texture = texture(text, height: height) else { return }
        var size = texture.size
        if size.width > maxWidth {  // long labels shrink to fit the button
            size = Size(width: maxWidth, height: max(1, size.height * maxWidth / size.width))
        }
        let dst = Rect(x: Int(center.0) - size.width / 2, y: Int(center.1) - size.height / 2, width: size.width, height: size.height)
        renderer.copy(texture, destination: dst, alpha: alpha)
    }

    /// The one open font (nil: there is none, or it cannot be read).
    private func openFont() -> Font? {
        if font == nil, let path = fontPath { font = try? Font(path: path, pointSize: 12) }
        return font
    }

    private func texture(_ text: String, height: Int) -> Texture? {
        if height != fontHeight {
            guard let font = openFont(), (try? font.setSize(max(6, height))) != nil else { return nil }
            fontHeight = height
            cache.removeAll()
        }
        if let t = cache[text] { return t }
        guard let font, let t = try? font.render(text, renderer: renderer) else { return nil }
        if cache.count > 32 { cache.removeAll() }
        cache[text] = t
        return t
    }

    /// Whether the font can draw `text` (a label in a script the font lacks would show boxes).
    func fontCovers(_ text: String) -> Bool { openFont()?.covers(text) ?? false }
}
