/// Where in time a quality rule found something, for the HTML report's timeline.
extension RuleName {
    /// The stretches this rule draws on the timeline; nil for rules with no place in time.
    public func spans(_ facts: CreativeFacts) -> [Interval]? {
        let s = facts.analysis.signal
        switch self {
        case .freezeFrames: return s.freezes
        case .flashes: return FlashCounter.count(s.pictures, fullRange: facts.probe.video?.colorRange == "pc").spans
        case .interlaced: return Self.runs(s.pictures.map { ($0.seconds, $0.interlaced) }, end: facts.analysis.decodedUntil)
        case .broadcastRange:
            guard facts.probe.video?.colorRange != "pc" else { return [] }
            return Self.runs(s.pictures.map { ($0.seconds, $0.outOfRange > Self.outOfRangeMarked) }, end: facts.analysis.decodedUntil)
        case .audioPhase:
            return FlashCounter.merged(
                s.phase.filter { $0.phase < Self.outOfPhaseBelow }.map { Interval($0.seconds, $0.seconds + $0.duration) })
        case .avDurationMatch:
            guard let v = facts.probe.video?.durationSeconds, let a = facts.probe.audio?.durationSeconds, v != a else { return [] }
            return [Interval(min(v, a), max(v, a))]
        default: return nil
        }
    }

    /// Stretches where consecutive readings are marked, each reading lasting until the next one.
    static func runs(_ marks: [(Double, Bool)], end: Double?) -> [Interval] {
        var out: [Interval] = []
        for (i, m) in marks.enumerated() where m.1 {
            let next = i + 1 < marks.count ? marks[i + 1].0 : max(end ?? m.0, m.0)
            if let last = out.last, last.end >= m.0 - 1e-6 { out[out.count - 1].end = next } else { out.append(Interval(m.0, next)) }
        }
        return out
    }
}
