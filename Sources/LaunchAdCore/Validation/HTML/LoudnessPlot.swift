/// The loudness plot: short-term loudness over time against the target band, the integrated value
/// marked; beside it the true peak against its limit. Inline SVG, no script.
struct LoudnessPlot {
    static let width = 720.0, height = 260.0
    static let left = 52.0, right = 700.0, top = 20.0, bottom = 228.0
    /// Readings below this are drawn on the floor (ebur128 reports about -120 for silence).
    static let floor = -60.0

    var series: [LoudnessPoint]
    var momentary: [LoudnessPoint]
    var duration: Double
    var integrated: Double?
    /// The band the integrated value must fall in, from the spec's loudness_integrated limit.
    var band: (low: Double, high: Double, label: String)?

    init(_ facts: CreativeFacts, limit: Limit?) {
        series = Self.readings(facts.analysis.shortTermLoudness)
        momentary = Self.readings(facts.analysis.momentaryLoudness)
        duration = facts.probe.durationSeconds ?? facts.analysis.decodedUntil ?? series.last?.seconds ?? 0
        integrated = facts.analysis.integratedLoudness.flatMap { $0.isFinite ? $0 : nil }
        band = limit.flatMap(Self.band)
    }

    /// ebur128's "nothing yet" value (-120.7, its energy floor); readings start once its window has filled.
    static let noReading = -120.0

    /// The series from its first real reading on: before its window fills ebur128 reports its floor.
    static func readings(_ points: [LoudnessPoint]) -> [LoudnessPoint] {
        Array(points.drop { $0.lufs <= noReading })
    }

    static func band(_ l: Limit) -> (low: Double, high: Double, label: String)? {
        let f = SpecValue.format
        if let t = l.target {
            let tol = l.tolerance ?? 0
            return (t - tol, t + tol, "target \(f(t)) ±\(f(tol)) LUFS")
        }
        if l.min != nil || l.max != nil {
            let lo = l.min ?? -70, hi = l.max ?? 0
            return (lo, hi, "limit \(f(lo)) to \(f(hi)) LUFS")
        }
        return nil
    }

    /// The LUFS the plot spans: down to the floor, lower when the integrated value or band is lower.
    var yScale: PlotScale {
        let lowest = [Self.floor, integrated ?? 0, band?.low ?? 0].min()!
        let low = lowest < Self.floor ? ((lowest - 5) / 10).rounded(.down) * 10 : Self.floor
        return PlotScale(low: low, high: 0, from: Self.bottom, to: Self.top)
    }

    var xScale: PlotScale { PlotScale(low: 0, high: max(duration, 0.1), from: Self.left, to: Self.right) }

    func svg() -> String {
        let x = xScale, y = yScale, n = HTML.num
        var s =
            #"<svg class="loudness" width="\#(Int(Self.width))" height="\#(Int(Self.height))" viewBox="0 0 \#(Int(Self.width)) \#(Int(Self.height))" role="img" aria-label="short-term loudness over time">"#
        for v in y.ticks(atMost: 7) {
            s +=
                #"<line class="grid-y" data-lufs="\#(n(v))" x1="\#(n(Self.left))" x2="\#(n(Self.right))" y1="\#(n(y(v)))" y2="\#(n(y(v)))"/>"#
            s += #"<text class="tick" x="\#(n(Self.left - 6))" y="\#(n(y(v) + 4))" text-anchor="end">\#(SpecValue.format(v))</text>"#
        }
        s += timeAxis(x)
        if let band {
            let top = y(band.high), bottom = y(band.low)
            s +=
                #"<rect class="target-band" x="\#(n(Self.left))" y="\#(n(top))" width="\#(n(Self.right - Self.left))" height="\#(n(max(bottom - top, 1)))"><title>\#(MarkupText.escape(band.label))</title></rect>"#
            s +=
                #"<text class="band-label" x="\#(n(Self.right - 4))" y="\#(n(top - 3))" text-anchor="end">\#(MarkupText.escape(band.label))</text>"#
        }
        s += line("momentary", momentary, x, y) + line("short-term", series, x, y)
        if let i = integrated {
            s +=
                #"<line class="integrated" data-lufs="\#(String(format: "%.2f", i))" x1="\#(n(Self.left))" x2="\#(n(Self.right))" y1="\#(n(y(i)))" y2="\#(n(y(i)))"/>"#
            s +=
                #"<text class="integrated-label" x="\#(n(Self.left + 6))" y="\#(n(y(i) - 4))">integrated \#(String(format: "%.1f", i)) LUFS</text>"#
        }
        s += #"<text class="axis-label" x="4" y="\#(n(Self.top - 4))">LUFS</text>"#
        s += #"<text class="legend short-term-label" x="\#(n(Self.left + 6))" y="\#(n(Self.bottom - 8))">— short-term (3 s)</text>"#
        s += #"<text class="legend momentary-label" x="\#(n(Self.left + 150))" y="\#(n(Self.bottom - 8))">— momentary (400 ms)</text>"#
        return s + "</svg>"
    }

    private func line(_ kind: String, _ points: [LoudnessPoint], _ x: PlotScale, _ y: PlotScale) -> String {
        guard !points.isEmpty else { return "" }
        // More points than pixels would only make the file larger.
        let step = max(1, points.count / Int(Self.right - Self.left))
        let shown = stride(from: 0, to: points.count, by: step).map { points[$0] }
        let n = HTML.num
        return #"<polyline class="\#(kind)" points="\#(shown.map { "\(n(x($0.seconds))),\(n(y($0.lufs)))" }.joined(separator: " "))"/>"#
    }

    /// The seconds axis along the bottom, shared by the timeline.
    static func timeTicks(_ x: PlotScale, y: Double, gridTop: Double?) -> String {
        let n = HTML.num
        var s = ""
        for t in x.ticks(atMost: 11) {
            if let gridTop {
                s += #"<line class="grid-x" x1="\#(n(x(t)))" x2="\#(n(x(t)))" y1="\#(n(gridTop))" y2="\#(n(y))"/>"#
            }
            s +=
                #"<text class="tick tick-x" data-seconds="\#(n(t))" x="\#(n(x(t)))" y="\#(n(y + 16))" text-anchor="middle">\#(SpecValue.format(t)) s</text>"#
        }
        return s
    }

    private func timeAxis(_ x: PlotScale) -> String { Self.timeTicks(x, y: Self.bottom, gridTop: Self.top) }
}

/// True peak on a meter from -30 to +3 dBTP, with the spec's limit drawn across it.
struct TruePeakMeter {
    static let width = 720.0, left = 52.0, right = 700.0

    var peak: Double?
    var limit: Double?

    func svg() -> String {
        let n = HTML.num
        let scale = PlotScale(low: -30, high: 3, from: Self.left, to: Self.right)
        var s = #"<svg class="true-peak" width="720" height="56" viewBox="0 0 720 56" role="img" aria-label="true peak against its limit">"#
        s += #"<text class="axis-label" x="4" y="24">dBTP</text>"#
        s += #"<rect class="meter" x="\#(n(Self.left))" y="12" width="\#(n(Self.right - Self.left))" height="16"/>"#
        if let peak {
            let over = limit.map { peak > $0 } ?? false
            s +=
                #"<rect class="peak\#(over ? " over" : "")" data-dbtp="\#(String(format: "%.2f", peak))" x="\#(n(Self.left))" y="12" width="\#(n(scale(peak) - Self.left))" height="16"/>"#
        }
        if let limit {
            s += #"<line class="peak-limit" data-dbtp="\#(n(limit))" x1="\#(n(scale(limit)))" x2="\#(n(scale(limit)))" y1="6" y2="34"/>"#
        }
        for v in stride(from: -30.0, through: 0, by: 6) {
            s += #"<text class="tick" x="\#(n(scale(v)))" y="48" text-anchor="middle">\#(SpecValue.format(v))</text>"#
        }
        return s + "</svg>"
    }
}
