/// A screen `launchad preview` draws the ad on: a `--device` preset or the desktop.
public struct PreviewDevice: Equatable, Sendable {
    /// The name shown in the label: a `--device` preset's name, or `desktop`.
    public var name: String
    /// The screen's size in pixels.
    public var screen: Size

    /// A screen called `name` of `screen` pixels.
    public init(name: String, screen: Size) {
        self.name = name
        self.screen = screen
    }

    /// A 1920x1080 desktop.
    public static let desktop = PreviewDevice(name: "desktop", screen: Size(width: 1920, height: 1080))

    /// Every portrait preset `--device` knows, then the 1920x1080 desktop.
    public static let all = DevicePreset.allCases.map { PreviewDevice(name: $0.rawValue, screen: $0.screen) } + [desktop]

    /// `all`, or names separated by commas ("iphone-se,ipad,desktop"), each once, in the order given.
    public static func parseList(_ raw: String) throws -> [PreviewDevice] {
        if raw == "all" { return all }
        var out: [PreviewDevice] = []
        for name in raw.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
            guard let d = all.first(where: { $0.name == name }) else {
                throw UsageError(
                    "--devices takes all or a comma-separated list of \(all.map(\.name).joined(separator: ", ")), not '\(name)'")
            }
            if !out.contains(d) { out.append(d) }
        }
        return out
    }

    /// "iphone-se 640x1136", the panel's label.
    public var label: String { "\(name) \(screen.width)x\(screen.height)" }
}

/// Where each device's panel goes in the gallery: side by side, all scaled to one height, each
/// with its label in a band below it.
public struct GalleryLayout: Equatable, Sendable {
    /// Spacing in gallery pixels: round the edge, between panels, and the label band's height.
    public static let margin = 16, gap = 16, labelHeight = 32

    /// Each device's panel, in the order the devices were given.
    public var panels: [Rect]
    /// The label band below each panel.
    public var labels: [Rect]
    /// The size of the whole gallery picture.
    public var canvas: Size

    /// Panels `panelHeight` pixels tall, each as wide as its device's aspect ratio makes it, left to right.
    public init(devices: [PreviewDevice], panelHeight: Int) {
        var x = Self.margin
        panels = []
        labels = []
        for d in devices {
            let w = max(1, Int((Double(d.screen.width) * Double(panelHeight) / Double(max(1, d.screen.height))).rounded()))
            panels.append(Rect(x: x, y: Self.margin, width: w, height: panelHeight))
            labels.append(Rect(x: x, y: Self.margin + panelHeight, width: w, height: Self.labelHeight))
            x += w + Self.gap
        }
        canvas = Size(width: x - Self.gap + Self.margin, height: Self.margin * 2 + panelHeight + Self.labelHeight)
    }

    /// Where a rectangle of a device's own screen lands in its panel.
    public func place(_ r: Rect, panel i: Int, screen: Size) -> Rect {
        let p = panels[i]
        let sx = Double(p.width) / Double(screen.width), sy = Double(p.height) / Double(screen.height)
        let x0 = Int((Double(r.x) * sx).rounded()), y0 = Int((Double(r.y) * sy).rounded())
        let x1 = Int((Double(r.x + r.width) * sx).rounded()), y1 = Int((Double(r.y + r.height) * sy).rounded())
        return Rect(x: p.x + x0, y: p.y + y0, width: x1 - x0, height: y1 - y0)
    }
}

/// What the skip button reads `atMs` after the first frame, decided by the session itself: the
/// ad shown since its first frame, never paused.
public func skipButton(_ config: SessionConfig, layout: AdLayout, atMs: Int) -> SkipButtonState {
    var session = AdSession(config: config, layout: layout, events: SilentSink(), now: 0)
    _ = session.handle(.firstFrame, now: 0)
    return session.skipButton(now: atMs)
}

/// Events nobody reads: a preview is not a play.
final class SilentSink: EventSink {
    func emit(_ event: AdEvent) {}
}
