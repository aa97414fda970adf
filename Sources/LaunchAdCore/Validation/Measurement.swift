/// What a rule measures on a creative, or why it cannot.
public enum Measured: Equatable, Sendable {
    case value(SpecValue)
    case missing(String)
}

/// An interval this close to the start or end of the file counts as at the start or end.
let edgeSlack = 0.5

extension RuleName {
    /// What this rule measures on `facts`, in its `unit`; `.missing` with the reason when it cannot (no such stream, unknown).
    public func measure(_ facts: CreativeFacts) -> Measured {
        let p = facts.probe, a = facts.analysis
        let v = p.video, au = p.audio
        func num(_ d: Double?, _ why: String) -> Measured { d.map { .value(.number($0)) } ?? .missing(why) }
        func int(_ i: Int?, _ why: String) -> Measured { num(i.map(Double.init), why) }
        func str(_ s: String?, _ why: String) -> Measured { s.map { .value(.string($0)) } ?? .missing(why) }
        let noVideo = "no video stream", noAudio = "no audio stream"
        let videoWhy = { (what: String) in v == nil ? noVideo : "\(what) unknown" }
        let audioWhy = { (what: String) in au == nil ? noAudio : "\(what) unknown" }
        if au != nil, Self.soundRules.contains(self), let why = a.signal.soundNotAnalysed { return .missing(why) }
        if let m = measureSignal(facts) { return m }
        switch self {
        case .container: return .value(.string(p.container))
        case .fileSizeMB: return .value(.number(Double(p.fileSize) / 1_000_000))
        case .faststart: return p.faststart.map { .value(.bool($0)) } ?? .missing("not an MP4/MOV file")
        case .duration: return num(p.durationSeconds, "duration unknown")
        case .decodeErrors: return .value(.number(Double(a.decodeErrors.count)))
        case .videoCodec: return str(v?.codec, noVideo)
        case .videoProfile: return str(v?.profile, videoWhy("profile"))
        case .pixelFormat: return str(v?.pixelFormat, videoWhy("pixel format"))
        case .scan:
            guard let v else { return .missing(noVideo) }
            switch v.fieldOrder {
            case "progressive": return .value(.string("progressive"))
            case "tt", "bb", "tb", "bt": return .value(.string("interlaced"))
            default: return .value(.string("unknown"))
            }
        case .resolution:
            guard let w = v?.displayWidth, let h = v?.displayHeight else { return .missing(videoWhy("size")) }
            return .value(.string("\(w)x\(h)"))
        case .width: return int(v?.displayWidth, videoWhy("width"))
        case .height: return int(v?.displayHeight, videoWhy("height"))
        case .orientation:
            guard let w = v?.displayWidth, let h = v?.displayHeight else { return .missing(videoWhy("size")) }
            return .value(.string(w == h ? "square" : (h > w ? "portrait" : "landscape")))
        case .frameRate:
            if let why = pictureGap(facts) { return .missing(why) }
            // A native rate must also be constant: a variable one is named as such and matches no rate.
            if v?.variableFrameRate == true { return .value(.string("variable")) }
            return num(v?.frameRate, videoWhy("frame rate"))
        case .variableFrameRate: return v?.variableFrameRate.map { .value(.bool($0)) } ?? .missing(videoWhy("frame timing"))
        case .keyframeInterval:
            if let why = pictureGap(facts) { return .missing(why) }
            // One keyframe for the whole video: the interval is the video's length.
            if v?.keyframeIntervalMax == nil, v?.keyframeCount == 1, let d = v?.durationSeconds ?? p.durationSeconds {
                return .value(.number(d))
            }
            return num(v?.keyframeIntervalMax, v == nil ? noVideo : "fewer than two keyframes")
        case .videoBitrateKbps: return num(v?.bitRate.map { Double($0) / 1000 }, videoWhy("bitrate"))
        case .audioCodec: return str(au?.codec, noAudio)
        case .audioProfile: return str(au?.profile, audioWhy("profile"))
        case .audioChannels: return int(au?.channels, audioWhy("channel count"))
        case .audioSampleRate: return int(au?.sampleRate, audioWhy("sample rate"))
        case .loudnessIntegrated: return num(a.integratedLoudness, au == nil ? noAudio : "no loudness measured")
        case .loudnessRange: return num(a.loudnessRange, au == nil ? noAudio : "no loudness measured")
        case .truePeak: return num(a.truePeak, au == nil ? noAudio : "no true peak measured")
        case .firstFrameBlack: return a.firstFrameBlack.map { .value(.bool($0)) } ?? .missing(v == nil ? noVideo : "no picture decoded")
        case .blackAtStart, .blackAtEnd:
            guard v != nil else { return .missing(noVideo) }
            return .value(.number(edgeLength(a.black, atStart: self == .blackAtStart, facts: facts)))
        case .silenceAtStart, .silenceAtEnd:
            guard au != nil else { return .missing(noAudio) }
            return .value(.number(edgeLength(a.silence, atStart: self == .silenceAtStart, facts: facts)))
        case .captions: return CaptionRule.measure(facts)
        default: return .missing("not measured")
        }
    }

    /// The length of the interval touching the start (or end) of the file, 0 when none does.
    private func edgeLength(_ intervals: [Interval], atStart: Bool, facts: CreativeFacts) -> Double {
        if atStart {
            return intervals.first { $0.start <= edgeSlack }?.duration ?? 0
        }
        guard let end = facts.probe.durationSeconds ?? facts.analysis.decodedUntil else { return 0 }
        return intervals.last { $0.end >= end - edgeSlack }?.duration ?? 0
    }
}
