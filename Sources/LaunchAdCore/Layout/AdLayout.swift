/// How the window is divided (`--layout`): the ad alone, or the ad above a band holding the logo.
public enum LayoutMode: String, CaseIterable, Sendable {
    case fullscreen
    case logoBottom = "logo-bottom"
}

/// Where a picture of `content` size goes: `source` is the part of the picture shown (cropped for
/// fill), `destination` where it lands in the window.
public struct Placement: Equatable, Sendable {
    /// The part of the picture shown, in the picture's own pixels (the whole of it for fit).
    public var source: Rect
    /// Where that part is drawn, in window pixels.
    public var destination: Rect

    /// Places `content` inside `area`, keeping its aspect ratio: letterboxed for fit, cropped for fill.
    public static func place(_ content: Size, in area: Rect, fit: FitMode) -> Placement {
        let full = Rect(size: content)
        guard !content.isEmpty, !area.size.isEmpty else { return Placement(source: full, destination: area) }
        let cw = Double(content.width), ch = Double(content.height)
        let aw = Double(area.width), ah = Double(area.height)
        switch fit {
        case .fit:
            let s = min(aw / cw, ah / ch)
            // Never a zero side: a 0-pixel rectangle draws nothing at all.
            let w = min(area.width, max(1, Int((cw * s).rounded()))), h = min(area.height, max(1, Int((ch * s).rounded())))
            return Placement(
                source: full,
                destination: Rect(x: area.x + (area.width - w) / 2, y: area.y + (area.height - h) / 2, width: w, height: h))
        case .fill:
            let s = max(aw / cw, ah / ch)
            let sw = min(content.width, max(1, Int((aw / s).rounded()))), sh = min(content.height, max(1, Int((ah / s).rounded())))
            return Placement(
                source: Rect(x: (content.width - sw) / 2, y: (content.height - sh) / 2, width: sw, height: sh),
                destination: area)
        }
    }
}

/// The screen's parts for one window size: the ad's area, the logo band, the skip button.
public struct AdLayout: Equatable, Sendable {
    /// The window size the layout was made for.
    public var window: Size
    /// Where the ad is placed: the whole window, or all of it above the logo band.
    public var adArea: Rect
    /// The band below the ad in logo-bottom layout.
    public var logoBand: Rect?
    /// The skip button's rectangle in the top-right corner, sized for `skipStyle` and the window.
    public var skipButton: Rect

    /// The layout of a `window`-sized screen; the logo band is a third of the width tall (at most half the height).
    public init(window: Size, mode: LayoutMode, skipStyle: SkipStyle) {
        self.window = window
        switch mode {
        case .fullscreen:
            adArea = Rect(size: window)
            logoBand = nil
        case .logoBottom:
            // The classic launch-ad split: the logo band is a third of the width tall.
            let band = min(window.height / 2, window.width / 3)
            adArea = Rect(x: 0, y: 0, width: window.width, height: window.height - band)
            logoBand = Rect(x: 0, y: window.height - band, width: window.width, height: band)
        }
        skipButton = AdLayout.skipRect(window: window, style: skipStyle)
    }

    /// One layout point, scaled from a 375-point-wide phone screen so the button keeps its proportion.
    public static func unit(for window: Size) -> Double {
        max(0.5, Double(min(window.width, window.height)) / 375.0)
    }

    static func skipRect(window: Size, style: SkipStyle) -> Rect {
        let u = unit(for: window)
        let margin = Int((16 * u).rounded())
        let (w, h): (Double, Double) = style == .ring ? (44 * u, 44 * u) : (72 * u, 32 * u)
        let width = Int(w.rounded()), height = Int(h.rounded())
        return Rect(x: window.width - margin - width, y: margin, width: width, height: height)
    }

    /// Where the logo goes: centred in its band, scaled down (never up) to fit with a margin.
    public func logoPlacement(logo: Size) -> Placement? {
        guard let band = logoBand else { return nil }
        let inset = Int((Double(band.height) * 0.15).rounded())
        let inner = Rect(x: band.x + inset, y: band.y + inset, width: band.width - 2 * inset, height: band.height - 2 * inset)
        let fitted = logo.scaledDown(toFit: inner.size)
        return Placement(
            source: Rect(size: logo),
            destination: Rect(
                x: inner.x + (inner.width - fitted.width) / 2, y: inner.y + (inner.height - fitted.height) / 2,
                width: fitted.width, height: fitted.height))
    }
}
