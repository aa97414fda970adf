/// Where captions go: centred in the lower safe area of the overlay area (the letterboxed
/// picture, else the ad's area: `AdLayout.overlayArea`), in a translucent box, wrapped to 90 %
/// of its width, sized with the skip button, never over it.
public struct CaptionLayout: Equatable, Sendable {
    /// The box behind the text.
    public var box: Rect
    /// Each drawn line's place (its text texture's size), top to bottom.
    public var lines: [Rect]
    /// How many of the wrapped lines were left out for lack of room: the last ones, at the
    /// bottom (the oldest cue's first, as `CaptionTrack` leaves the oldest out; a lone cue keeps
    /// its start). `lines` places the ones before them.
    public var dropped: Int

    /// The text's pixel height: a phone's 16 points, at most a twelfth of the overlay area's height.
    public static func fontPixels(layout: AdLayout) -> Int {
        max(10, min(Int((16 * layout.unit).rounded()), layout.overlayArea.height / 12))
    }

    /// Padding inside the box, and the gap kept to the area's bottom (the title-safe margin).
    static func padding(_ font: Int) -> Int { max(2, font / 3) }
    static func bottomMargin(_ area: Rect) -> Int { max(4, area.height * 5 / 100) }

    /// The widest a line of text may be.
    public static func maxTextWidth(layout: AdLayout) -> Int {
        let font = fontPixels(layout: layout)
        return max(1, layout.overlayArea.width * 90 / 100 - 2 * padding(font))
    }

    /// Splits `text` (lines separated by "\n") into lines no wider than `maxWidth` as
    /// `measure` (the font's width of a string) says: at spaces when it can, else between
    /// characters (a long word, a script without spaces).
    public static func wrap(_ text: String, maxWidth: Int, measure: (String) -> Int) -> [String] {
        var out: [String] = []
        for paragraph in text.split(separator: "\n") {
            var line = ""
            for word in paragraph.split(separator: " ") {
                let candidate = line.isEmpty ? String(word) : line + " " + word
                if measure(candidate) <= maxWidth { line = candidate; continue }
                if !line.isEmpty { out.append(line); line = "" }
                // A word wider than the line: broken between characters.
                var piece = ""
                for ch in word {
                    if !piece.isEmpty, measure(piece + String(ch)) > maxWidth { out.append(piece); piece = "" }
                    piece.append(ch)
                }
                line = piece
            }
            if !line.isEmpty { out.append(line) }
        }
        return out
    }

    /// Places lines of the given drawn sizes (their text textures), or nil with nothing to draw;
    /// those that do not fit under the skip button are left out from the last.
    public static func place(lines sizes: [Size], layout: AdLayout, font: Int) -> CaptionLayout? {
        guard !sizes.isEmpty else { return nil }
        let area = layout.overlayArea, pad = padding(font)
        let bottom = area.maxY - bottomMargin(area)
        // The box may rise no higher than just below the skip button (whatever its column).
        let ceiling = max(area.y, layout.skipButton.maxY + pad)
        var kept = sizes
        var dropped = 0
        while kept.count > 1, bottom - kept.reduce(0, { $0 + $1.height }) - 2 * pad < ceiling {
            kept.removeLast()
            dropped += 1
        }
        let textHeight = kept.reduce(0) { $0 + $1.height }
        let width = min(area.width, (kept.map(\.width).max() ?? 0) + 2 * pad)
        let height = textHeight + 2 * pad
        let box = Rect(
            x: area.x + (area.width - width) / 2, y: max(ceiling, bottom - height), width: width, height: min(height, bottom - ceiling))
        guard box.height > 0 else { return nil }
        var y = box.y + pad
        var rects: [Rect] = []
        for s in kept {
            let w = min(s.width, area.width)
            rects.append(Rect(x: area.x + (area.width - w) / 2, y: y, width: w, height: s.height))
            y += s.height
        }
        return CaptionLayout(box: box, lines: rects, dropped: dropped)
    }
}
