/// Every rule a profile or spec file can name, in the order reports list them.
///
/// Adding a rule: a case here (its place is its place in reports), its `unit`, `summary` and `valueKind`
/// below, what it measures (`measure` in Measurement.swift, or a file of its own beside
/// Signal/SignalMeasures.swift whose function `measure` asks first), `skippedWhenUnmeasured` when a
/// creative without the stream it needs should skip it rather than fail, `spans` when it has a place on
/// the HTML timeline, and its limit in the profiles that apply it (Profiles.swift).
public enum RuleName: String, CaseIterable, Sendable {
    case container
    case fileSizeMB = "file_size_mb"
    case faststart
    case duration
    case decodeErrors = "decode_errors"
    case videoCodec = "video_codec"
    case videoProfile = "video_profile"
    case pixelFormat = "pixel_format"
    case scan
    case resolution
    case width
    case height
    case orientation
    case frameRate = "frame_rate"
    case variableFrameRate = "variable_frame_rate"
    case keyframeInterval = "keyframe_interval"
    case videoBitrateKbps = "video_bitrate_kbps"
    case audioCodec = "audio_codec"
    case audioProfile = "audio_profile"
    case audioChannels = "audio_channels"
    case audioSampleRate = "audio_sample_rate"
    case loudnessIntegrated = "loudness_integrated"
    case loudnessRange = "loudness_range"
    case truePeak = "true_peak"
    case firstFrameBlack = "first_frame_black"
    case blackAtStart = "black_at_start"
    case blackAtEnd = "black_at_end"
    case silenceAtStart = "silence_at_start"
    case silenceAtEnd = "silence_at_end"
    // Picture and sound quality, measured by the analysis filters (see SignalFacts).
    case freezeFrames = "freeze_frames"
    case flashes
    case interlaced
    case letterbox
    case broadcastRange = "broadcast_range"
    case colourTags = "colour_tags"
    case avDurationMatch = "av_duration_match"
    case videoBitrateFloor = "video_bitrate_floor"
    case audioPhase = "audio_phase"
    case dcOffset = "dc_offset"
    case audioClipping = "audio_clipping"
    case captions

    /// Appended to numbers in reports.
    public var unit: String {
        switch self {
        case .fileSizeMB: return "MB"
        case .duration, .keyframeInterval, .blackAtStart, .blackAtEnd, .silenceAtStart, .silenceAtEnd, .freezeFrames: return "s"
        case .frameRate: return "fps"
        case .videoBitrateKbps, .videoBitrateFloor: return "kbps"
        case .flashes: return "/s"
        case .interlaced, .letterbox, .broadcastRange, .audioPhase, .dcOffset: return "%"
        case .avDurationMatch: return "frames"
        case .audioClipping: return "samples"
        case .audioSampleRate: return "Hz"
        case .loudnessIntegrated: return "LUFS"
        case .loudnessRange: return "LU"
        case .truePeak: return "dBTP"
        default: return ""
        }
    }

    /// What a reader is told the rule checks.
    public var summary: String {
        switch self {
        case .container: return "container format"
        case .fileSizeMB: return "file size in MB (10^6 bytes)"
        case .faststart: return "moov box before mdat, so playback starts before the whole file arrives"
        case .duration: return "container duration in seconds"
        case .decodeErrors: return "errors while decoding every packet, and a decode that ends early"
        case .videoCodec: return "video codec"
        case .videoProfile: return "video codec profile"
        case .pixelFormat: return "decoded pixel format"
        case .scan: return "progressive or interlaced"
        case .resolution: return "display size WxH"
        case .width: return "display width in pixels"
        case .height: return "display height in pixels"
        case .orientation: return "portrait, landscape or square, after rotation"
        case .frameRate: return "frame rate, or 'variable' when frame durations vary"
        case .variableFrameRate: return "whether frame durations vary"
        case .keyframeInterval: return "longest gap between keyframes in seconds"
        case .videoBitrateKbps: return "video bitrate in kbit/s"
        case .audioCodec: return "audio codec"
        case .audioProfile: return "audio codec profile"
        case .audioChannels: return "audio channel count"
        case .audioSampleRate: return "audio sample rate in Hz"
        case .loudnessIntegrated: return "integrated loudness (EBU R128 / ITU BS.1770, LUFS = LKFS)"
        case .loudnessRange: return "loudness range in LU"
        case .truePeak: return "true peak in dBTP"
        case .firstFrameBlack: return "whether the first picture is black"
        case .blackAtStart: return "seconds of black (blackdetect defaults) at the start"
        case .blackAtEnd: return "seconds of black (blackdetect defaults) at the end"
        case .silenceAtStart: return "seconds of silence (silencedetect defaults) at the start"
        case .silenceAtEnd: return "seconds of silence (silencedetect defaults) at the end"
        case .freezeFrames: return "longest run of identical pictures in seconds (freezedetect n=0.001 d=0.1)"
        case .flashes: return "most flashes in any one second, luminance or saturated red (BT.1702-style, per-picture averages)"
        case .interlaced: return "per cent of pictures idet calls interlaced, or with a repeated field (telecine)"
        case .letterbox: return "per cent of the frame taken by black bars (cropdetect)"
        case .broadcastRange: return "per cent of pixels outside the tagged range (signalstats BRNG, averaged over pictures)"
        case .colourTags: return "colour primaries, transfer and matrix tagged and the same (bt709), range tagged"
        case .avDurationMatch: return "difference between the audio and video stream lengths, in video frames"
        case .videoBitrateFloor: return "average video bitrate in kbit/s against the floor of the picture's resolution tier"
        case .audioPhase: return "per cent of the sound whose channels are out of phase (aphasemeter phase below -0.5)"
        case .dcOffset: return "largest DC offset of any channel, per cent of full scale (astats)"
        case .audioClipping: return "samples at full scale (astats peak count when the peak reaches 0 dBFS)"
        case .captions: return "caption tracks (text track, CEA-608) and their languages"
        }
    }
}

extension RuleName {
    /// What kind of value a rule measures, for checking the limits a spec file gives it.
    public enum ValueKind: String, Sendable {
        case number, text, bool
        func accepts(_ v: SpecValue) -> Bool {
            switch (self, v) {
            case (.number, .number), (.text, .string), (.bool, .bool): return true
            // frame_rate measures "variable" for a variable rate: a spec may list it.
            case (.number, .string(let s)): return s == "variable"
            default: return false
            }
        }
    }

    /// Whether the rule measures a number, words or yes/no.
    public var valueKind: ValueKind {
        switch self {
        case .container, .videoCodec, .videoProfile, .pixelFormat, .scan, .resolution, .orientation, .audioCodec, .audioProfile,
            .colourTags, .captions:
            return .text
        case .faststart, .variableFrameRate, .firstFrameBlack: return .bool
        default: return .number
        }
    }
}
