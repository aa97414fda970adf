import CSDL2
import LaunchAdCore

/// Draws the caption on screen: white text in a translucent black box, wrapped and placed by
/// `CaptionLayout`. The text's textures are made once per caption and layout, so a cue
/// costs one render however many frames it stays.
final class CaptionView {
    private let renderer: Renderer
    private let fontPath: String?
    private var font: Font?
    private var built: (text: String, layout: AdLayout, placed: CaptionLayout, lines: [Texture])?

    init(renderer: Renderer, fontPath: String?) {
        self.renderer = renderer
        self.fontPath = fontPath
    }

    func draw(_ text: String, layout: AdLayout) {
        guard let (placed, lines) = prepared(text, layout: layout) else { return }
        renderer.fill(placed.box, r: 0, g: 0, b: 0, a: 160)
        for (texture, rect) in zip(lines, placed.lines) { renderer.copy(texture, destination: rect) }
    }

    /// The caption's place and line textures for this layout, made when the text or the layout
    /// (the window, or the picture the caption sits on) changed.
    private func prepared(_ text: String, layout: AdLayout) -> (CaptionLayout, [Texture])? {
        if let b = built, b.text == text, b.layout == layout { return (b.placed, b.lines) }
        built = nil
        guard let path = fontPath else { return nil }
        if font == nil { font = try? Font(path: path, pointSize: 12) }
        let px = CaptionLayout.fontPixels(layout: layout)
        guard let font, (try? font.setSize(px)) != nil else { return nil }
        let wrapped = CaptionLayout.wrap(text, maxWidth: CaptionLayout.maxTextWidth(layout: layout), measure: font.width(of:))
        let textures = wrapped.compactMap { try? font.render($0, renderer: renderer) }
        guard let placed = CaptionLayout.place(lines: textures.map(\.size), layout: layout, font: px) else { return nil }
        let kept = Array(textures.prefix(placed.lines.count))
        built = (text, layout, placed, kept)
        return (placed, kept)
    }
}
