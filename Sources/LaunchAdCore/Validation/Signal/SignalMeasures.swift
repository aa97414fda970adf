/// What the picture and sound quality rules measure, from the analysis filters' readings and the probe.
extension RuleName {
    /// Rules that report `skip` with the reason, rather than fail, when a creative gives them nothing to measure
    /// (no video, no sound, one picture, a picture too large to analyse).
    public static let skippedWhenUnmeasured: Set<RuleName> = [
        .freezeFrames, .flashes, .interlaced, .letterbox, .broadcastRange, .colourTags, .keyframeInterval, .frameRate,
        .avDurationMatch, .videoBitrateFloor, .audioPhase, .dcOffset, .audioClipping
    ]
    /// Rules measured by the sound's filters: skipped with the reason when those could not run
    /// on the sound (`SignalFacts.soundNotAnalysed`), while the pictures' rules are measured.
    public static let soundRules: Set<RuleName> = [
        .loudnessIntegrated, .loudnessRange, .truePeak, .silenceAtStart, .silenceAtEnd, .audioPhase, .dcOffset, .audioClipping
    ]
    /// The filters need a few pictures: cropdetect skips two, idet compares three.
    public static let fewestPictures = 3
    /// aphasemeter readings below this count as out of phase: the channels more than 120 degrees apart.
    public static let outOfPhaseBelow = -0.5
    /// A picture with more than this share of pixels out of range is marked on the timeline.
    static let outOfRangeMarked = 0.01

    /// The measurement, or nil for rules measured elsewhere.
    func measureSignal(_ facts: CreativeFacts) -> Measured? {
        let p = facts.probe, a = facts.analysis, s = a.signal
        switch self {
        case .freezeFrames, .flashes, .interlaced, .letterbox, .broadcastRange:
            if let why = pictureGap(facts) ?? s.picturesNotAnalysed { return .missing(why) }
            switch self {
            case .freezeFrames: return .value(.number(s.freezes.map(\.duration).max() ?? 0))
            case .flashes:
                guard !s.pictures.isEmpty else { return .missing("no picture readings") }
                return .value(.number(Double(FlashCounter.count(s.pictures, fullRange: p.video?.colorRange == "pc").mostPerSecond)))
            case .interlaced: return s.fields?.interlacedPercent.map { .value(.number($0)) } ?? .missing("no idet readings")
            case .letterbox:
                guard let active = s.active else { return .missing("no cropdetect readings") }
                return active.barsPercent.map { .value(.number($0)) } ?? .missing("nothing but black pictures")
            default:
                guard !s.pictures.isEmpty else { return .missing("no picture readings") }
                // Full-range video has no pixel outside its range.
                if p.video?.colorRange == "pc" { return .value(.number(0)) }
                return .value(.number(100 * s.pictures.map(\.outOfRange).reduce(0, +) / Double(s.pictures.count)))
            }
        case .colourTags:
            guard let v = p.video else { return .missing("no video stream") }
            return .value(.string(Self.colourTags(v)))
        case .avDurationMatch:
            guard let v = p.video else { return .missing("no video stream") }
            guard let au = p.audio else { return .missing("no audio stream") }
            guard let vd = v.durationSeconds, let ad = au.durationSeconds else { return .missing("stream lengths unknown") }
            guard let fps = v.frameRate, fps > 0 else { return .missing("frame rate unknown") }
            return .value(.number(abs(vd - ad) * fps))
        case .videoBitrateFloor:
            guard let v = p.video else { return .missing("no video stream") }
            return v.bitRate.map { .value(.number(Double($0) / 1000)) } ?? .missing("bitrate unknown")
        case .audioPhase, .dcOffset, .audioClipping:
            guard p.audio != nil else { return .missing("no audio stream") }
            switch self {
            case .audioPhase:
                guard (s.audioChannels ?? p.audio?.channels ?? 0) >= 2 else { return .missing("mono: no phase between channels") }
                let total = s.phase.map(\.duration).reduce(0, +)
                guard total > 0 else { return .missing("no aphasemeter readings") }
                let out = s.phase.filter { $0.phase < Self.outOfPhaseBelow }.map(\.duration).reduce(0, +)
                return .value(.number(100 * out / total))
            case .dcOffset:
                guard !s.channels.isEmpty else { return .missing("no astats readings") }
                return .value(.number(100 * s.channels.map { abs($0.dcOffset) }.max()!))
            default:
                guard !s.channels.isEmpty else { return .missing("no astats readings") }
                return .value(.number(s.channels.map(\.clippedSamples).reduce(0, +)))
            }
        default:
            return nil
        }
    }

    /// Why a picture rule has nothing to measure: no video, or too few pictures.
    func pictureGap(_ facts: CreativeFacts) -> String? {
        guard facts.probe.video != nil else { return "no video stream" }
        let n = facts.analysis.videoFrames
        if n < Self.fewestPictures { return "only \(n) picture\(n == 1 ? "" : "s"): too few to analyse" }
        return nil
    }

    /// "bt709" when primaries, transfer and matrix all say bt709 (or all say one other name) and the range
    /// is tagged; "untagged" when none is; "partly tagged" when some are missing; "mixed: ..." when they disagree.
    static func colourTags(_ v: StreamFacts) -> String {
        let unknown: Set<String> = ["unknown", "unspecified", "reserved"]
        func tag(_ s: String?) -> String? { s.flatMap { unknown.contains($0) ? nil : $0 } }
        let tags = [("primaries", tag(v.colorPrimaries)), ("transfer", tag(v.colorTransfer)), ("matrix", tag(v.colorSpace))]
        let range = tag(v.colorRange)
        let given = tags.compactMap { $0.1 }
        if given.isEmpty && range == nil { return "untagged" }
        // bt709 transfer is also written bt709 for the matrix; bt470bg/smpte170m primaries pair with a 601 matrix.
        let names = Set(given.map { ["smpte170m", "bt470bg"].contains($0) ? "bt601" : $0 })
        if names.count > 1 {
            return "mixed: " + tags.map { "\($0.0) \($0.1 ?? "unknown")" }.joined(separator: ", ")
        }
        if given.count < 3 || range == nil { return "partly tagged" }
        return names.first! + (range == "pc" ? " full range" : "")
    }
}
