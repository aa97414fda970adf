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

/// The screen's parts for one window size: the ad's area, the logo band, the picture in its
/// area, and the overlay (skip button, captions, VAST icons) on the picture.
///
/// Where the overlay goes: on the picture's rectangle when the picture is letterboxed (`fit`),
/// as launch-ad SDKs anchor it to the ad's frame, so nothing is drawn over the black bars;
/// on the ad's area when the picture covers it (`fill`), or before there is a picture, or
/// when the picture is thinner than `thinnestOverlayArea` (a banner the button could not sit
/// on). The overlay is sized for the window, as on a phone, but never larger than its area
/// holds (see `unit(window:overlay:)`).
public struct AdLayout: Equatable, Sendable {
    /// The window size the layout was made for.
    public var window: Size
    /// Where the ad is placed: the whole window, or all of it above the logo band.
    public var adArea: Rect
    /// The band below the ad in logo-bottom layout.
    public var logoBand: Rect?
    /// Where the whole picture lands (before the zoom transition): inside the ad's area for
    /// fit, covering it for fill (drawn clipped to it); nil before there is a picture.
    public var picture: Rect?
    /// Where the skip button, captions and icons go: the letterboxed picture, else the ad's area.
    public var overlayArea: Rect
    /// One overlay point in pixels (a 375-point-wide phone screen's point, scaled).
    public var unit: Double
    /// The skip button's rectangle in the overlay area's top-right corner, sized for `skipStyle`.
    public var skipButton: Rect

    /// A picture thinner than this (pixels, on either side) holds no overlay: the skip button
    /// with its margins and one caption line need about that much at the smallest scale.
    public static let thinnestOverlayArea = 64

    /// The layout of a `window`-sized screen showing a picture of `picture` size (its shape as
    /// shown, after its own rotation; nil before there is one) placed by `fit`. The logo band
    /// is a third of the width tall (at most half the height).
    public init(window: Size, mode: LayoutMode, skipStyle: SkipStyle, picture: Size? = nil, fit: FitMode = .fit) {
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
        let area = adArea
        let shown = picture.map { Placement.scaledRect($0, in: area, fit: fit) }
        self.picture = shown
        if fit == .fit, let shown, min(shown.width, shown.height) >= AdLayout.thinnestOverlayArea {
            overlayArea = shown
        } else {
            overlayArea = area
        }
        unit = AdLayout.unit(window: window, overlay: overlayArea.size)
        skipButton = AdLayout.skipRect(in: overlayArea, unit: unit, style: skipStyle)
    }

    /// One layout point for an overlay filling `window`, scaled from a 375-point-wide phone
    /// screen so the button keeps its proportion.
    public static func unit(for window: Size) -> Double { unit(window: window, overlay: window) }

    /// One layout point for an overlay on an `overlay`-sized area of a `window`: scaled by the
    /// window's short side, as a phone's interface is, but no more than the area holds (as if
    /// it were a phone screen as wide as it, and no flatter than 16:9); never under half a point.
    public static func unit(window: Size, overlay: Size) -> Double {
        let side = min(window.width, window.height, overlay.width, overlay.height * 16 / 9)
        return max(0.5, Double(side) / 375.0)
    }

    static func skipRect(in area: Rect, unit u: Double, style: SkipStyle) -> Rect {
        let margin = Int((16 * u).rounded())
        let (w, h): (Double, Double) = style == .ring ? (44 * u, 44 * u) : (72 * u, 32 * u)
        let width = Int(w.rounded()), height = Int(h.rounded())
        return Rect(x: area.maxX - margin - width, y: area.y + margin, width: width, height: height)
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
