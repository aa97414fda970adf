extension Placement {
    /// Where the whole picture lands: inside `area` for fit, covering it (to be clipped) for fill.
    /// Used where a source crop cannot express the result, e.g. a rotated picture.
    public static func scaledRect(_ content: Size, in area: Rect, fit: FitMode) -> Rect {
        guard !content.isEmpty, !area.size.isEmpty else { return area }
        let sx = Double(area.width) / Double(content.width), sy = Double(area.height) / Double(content.height)
        let s = fit == .fit ? min(sx, sy) : max(sx, sy)
        let w = Int((Double(content.width) * s).rounded()), h = Int((Double(content.height) * s).rounded())
        return Rect(x: area.x + (area.width - w) / 2, y: area.y + (area.height - h) / 2, width: w, height: h)
    }
}
