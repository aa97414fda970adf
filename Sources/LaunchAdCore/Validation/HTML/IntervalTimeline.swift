/// The timeline under the plot: black and silent stretches, decode errors and, for each quality rule the
/// spec holds, what it found (freezes, flashes, interlaced or out-of-range pictures, ...) on one time axis.
struct IntervalTimeline {
    static let left = LoudnessPlot.left, right = LoudnessPlot.right
    static let fixedLanes = ["black", "silence", "decode errors"]
    /// Decode errors listed in words; the rest are counted.
    static let listed = 50
    static let laneTop = 8.0, laneHeight = 20.0, laneGap = 8.0

    var black: [Interval]
    var silence: [Interval]
    var errors: [DecodeIssue]
    var duration: Double
    /// One lane per quality rule of the spec that has a place in time, in report order.
    var ruleLanes: [(rule: RuleName, spans: [Interval])]

    var lanes: [String] { Self.fixedLanes + ruleLanes.map(\.rule.rawValue) }

    init(_ facts: CreativeFacts, rules: [RuleName] = []) {
        black = facts.analysis.black
        silence = facts.analysis.silence
        errors = facts.analysis.decodeErrors
        ruleLanes = RuleName.allCases.filter(rules.contains).compactMap { r in r.spans(facts).map { (r, $0) } }
        let ends = (black + silence + ruleLanes.flatMap(\.spans)).map(\.end) + errors.compactMap(\.seconds)
        duration = facts.probe.durationSeconds ?? facts.analysis.decodedUntil ?? ends.max() ?? 0
    }

    /// Lane names short enough for the margin left of the lanes.
    static func label(_ lane: String) -> String {
        [
            "decode errors": "errors", "freeze_frames": "freeze", "broadcast_range": "range", "audio_phase": "phase",
            "av_duration_match": "a/v end", "interlaced": "interlace"
        ][lane] ?? lane
    }

    static func laneY(_ lane: Int) -> Double { laneTop + Double(lane) * (laneHeight + laneGap) }

    func svg() -> String {
        let n = HTML.num
        let x = PlotScale(low: 0, high: max(duration, 0.1), from: Self.left, to: Self.right)
        let axis = Self.laneY(lanes.count)
        var s =
            #"<svg class="timeline" width="720" height="\#(Int(axis + 24))" viewBox="0 0 720 \#(Int(axis + 24))" role="img" aria-label="black, silence, decode errors and quality findings over time">"#
        for (i, name) in lanes.enumerated() {
            let y = Self.laneY(i)
            s +=
                #"<rect class="lane" x="\#(n(Self.left))" y="\#(n(y))" width="\#(n(Self.right - Self.left))" height="\#(n(Self.laneHeight))"/>"#
            s += #"<text class="tick" x="\#(n(Self.left - 6))" y="\#(n(y + 14))" text-anchor="end">\#(Self.label(name))</text>"#
        }
        let rows =
            [(0, "black", black), (1, "silence", silence)]
            + ruleLanes.enumerated().map { (Self.fixedLanes.count + $0.offset, "finding " + $0.element.rule.rawValue, $0.element.spans) }
        for (lane, kind, list) in rows {
            for iv in list {
                let x0 = x(iv.start), x1 = max(x(iv.end), x0 + 1)
                s +=
                    #"<rect class="\#(kind)" data-start="\#(String(format: "%.3f", iv.start))" data-end="\#(String(format: "%.3f", iv.end))" x="\#(n(x0))" y="\#(n(Self.laneY(lane)))" width="\#(n(x1 - x0))" height="\#(n(Self.laneHeight))"><title>\#(kind) \#(HTML.clock(iv.start))–\#(HTML.clock(iv.end))</title></rect>"#
            }
        }
        // A badly damaged file can have thousands: the first ones show where the damage starts.
        for e in errors.prefix(Self.listed * 10) {
            guard let t = e.seconds else { continue }
            let y = Self.laneY(2)
            s +=
                #"<line class="decode-error" data-seconds="\#(String(format: "%.3f", t))" x1="\#(n(x(t)))" x2="\#(n(x(t)))" y1="\#(n(y))" y2="\#(n(y + Self.laneHeight))"><title>\#(MarkupText.escape(e.message))</title></line>"#
        }
        s += #"<line class="axis" x1="\#(n(Self.left))" x2="\#(n(Self.right))" y1="\#(n(axis))" y2="\#(n(axis))"/>"#
        s += LoudnessPlot.timeTicks(x, y: axis - 8, gridTop: nil)
        return s + "</svg>"
    }

    /// The same intervals as words, for printing and screen readers.
    func list() -> String {
        var items: [String] = []
        for (kind, list) in [("black", black), ("silence", silence)] + ruleLanes.map({ ($0.rule.rawValue, $0.spans) }) {
            items += list.map { "<li>\(kind) \(HTML.clock($0.start))–\(HTML.clock($0.end)) (\(SpecValue.format($0.duration)) s)</li>" }
        }
        for e in errors.prefix(Self.listed) {
            let at = e.seconds.map { "at \(HTML.clock($0))" } ?? "at an unknown time"
            let stream = e.stream >= 0 ? " (stream \(e.stream))" : ""
            items.append("<li>decode error \(at)\(stream): \(MarkupText.escape(e.message))</li>")
        }
        if errors.count > Self.listed { items.append("<li>... and \(errors.count - Self.listed) more decode errors</li>") }
        return items.isEmpty
            ? #"<p class="none">No black or silent stretch, no decode error, no quality finding in time.</p>"#
            : #"<ul class="events">"# + items.joined() + "</ul>"
    }
}
