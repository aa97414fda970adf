/// What probing a creative found: container facts and one entry per stream.
/// Filled by LaunchAdMedia; plain values here so rules and reports are testable without a codec.
public struct ProbeFacts: Equatable, Sendable {
    /// The path the creative was probed at, as given.
    public var file: String
    /// Short container name a spec talks about: mp4, mov, matroska, webm, or FFmpeg's own name.
    public var container: String
    /// FFmpeg's demuxer name, e.g. "mov,mp4,m4a,3gp,3g2,mj2".
    public var formatName: String
    /// The container's duration in seconds; nil when the container does not say.
    public var durationSeconds: Double?
    /// The file's size in bytes.
    public var fileSize: Int
    /// The container's overall bitrate in bits per second; nil when unknown.
    public var bitRate: Int?
    /// moov before mdat; nil when the file is not an MP4/MOV.
    public var faststart: Bool?
    /// Every stream in the file, in index order.
    public var streams: [StreamFacts]
    /// A picture file (PNG, JPEG) rather than a video: rules about time do not apply to it.
    public var stillImage = false

    /// Facts without `stillImage`, which defaults to false.
    public init(
        file: String, container: String, formatName: String, durationSeconds: Double?, fileSize: Int,
        bitRate: Int?, faststart: Bool?, streams: [StreamFacts]
    ) {
        self.file = file
        self.container = container
        self.formatName = formatName
        self.durationSeconds = durationSeconds
        self.fileSize = fileSize
        self.bitRate = bitRate
        self.faststart = faststart
        self.streams = streams
    }

    /// The stream a player shows or plays: the first of its kind.
    public var video: StreamFacts? { streams.first { $0.kind == .video } }
    /// The first audio stream, the one a player plays.
    public var audio: StreamFacts? { streams.first { $0.kind == .audio } }
}

/// One stream of a probed creative, as FFmpeg describes it; the video and audio fields are nil for other kinds.
public struct StreamFacts: Equatable, Sendable {
    /// The stream's type; raw values are the `type` strings of the probe JSON.
    public enum Kind: String, Sendable { case video, audio, subtitle, data, attachedPicture = "attached_picture", other }

    /// The stream's index in the container.
    public var index: Int
    /// What the stream carries.
    public var kind: Kind
    /// FFmpeg's codec name, e.g. "h264", "aac".
    public var codec: String
    /// FFmpeg's name for the codec profile, e.g. "High", "LC"; nil when it has none.
    public var profile: String?
    /// The codec level as FFmpeg stores it (41 for H.264 level 4.1); nil when unknown.
    public var level: Int?
    /// The stream's bitrate in bits per second, from its header or else counted from its packets.
    public var bitRate: Int?
    /// The stream's own length in seconds, from its header or else from its packets.
    public var durationSeconds: Double?
    // Video
    /// Coded width in pixels, before sample aspect and rotation.
    public var width: Int?
    /// Coded height in pixels, before sample aspect and rotation.
    public var height: Int?
    /// After sample aspect and rotation: what a viewer sees.
    public var displayWidth: Int?
    /// Displayed height in pixels; see `displayWidth`.
    public var displayHeight: Int?
    /// The display size reduced to a ratio, e.g. "16:9".
    public var displayAspect: String?
    /// Clockwise rotation a player applies, in degrees: 0, 90, 180 or 270.
    public var rotation: Int?
    /// FFmpeg's pixel format name, e.g. "yuv420p".
    public var pixelFormat: String?
    /// FFmpeg's colour range name: "tv" (limited), "pc" (full) or "unknown".
    public var colorRange: String?
    /// FFmpeg's colour matrix name, e.g. "bt709".
    public var colorSpace: String?
    /// FFmpeg's colour primaries name, e.g. "bt709".
    public var colorPrimaries: String?
    /// FFmpeg's transfer characteristic name, e.g. "bt709".
    public var colorTransfer: String?
    /// progressive, tt, bb, tb, bt or unknown.
    public var fieldOrder: String?
    /// Average frame rate in frames per second (the stream's real base rate when no average is known).
    public var frameRate: Double?
    /// Whether frame durations vary across the stream's packets.
    public var variableFrameRate: Bool?
    /// How many keyframes the stream's packets carry.
    public var keyframeCount: Int?
    /// Longest gap between two keyframes, in seconds; nil with fewer than two keyframes.
    public var keyframeIntervalMax: Double?
    /// Average gap between keyframes, in seconds; nil with fewer than two keyframes.
    public var keyframeIntervalAverage: Double?
    // Audio
    /// Audio samples per second (Hz).
    public var sampleRate: Int?
    /// Audio channel count.
    public var channels: Int?
    /// FFmpeg's description of the channel layout, e.g. "stereo", "5.1".
    public var channelLayout: String?

    /// A stream with only its identity known; the probe fills in the rest.
    public init(index: Int, kind: Kind, codec: String) {
        self.index = index
        self.kind = kind
        self.codec = codec
    }
}

/// A stretch of time, in seconds from the start of the file.
public struct Interval: Equatable, Sendable {
    /// Seconds from the start of the file.
    public var start: Double
    /// Seconds from the start of the file.
    public var end: Double
    /// An interval from `start` to `end`, both in seconds.
    public init(_ start: Double, _ end: Double) { self.start = start; self.end = end }
    /// Length in seconds.
    public var duration: Double { end - start }
}

/// One thing that went wrong while decoding, and where.
public struct DecodeIssue: Equatable, Sendable {
    /// When it happened, seconds from the start of the file; nil when the decoder gave no time.
    public var seconds: Double?
    /// Index of the stream being decoded.
    public var stream: Int
    /// FFmpeg's description of the error.
    public var message: String
    /// An issue at `seconds` in stream `stream`.
    public init(seconds: Double?, stream: Int, message: String) {
        self.seconds = seconds
        self.stream = stream
        self.message = message
    }
}

/// What decoding every packet and running the analysis filters found.
public struct AnalysisFacts: Equatable, Sendable {
    /// Every error met while decoding, in order.
    public var decodeErrors: [DecodeIssue] = []
    /// Video pictures decoded.
    public var videoFrames = 0
    /// Audio frames (blocks of samples) decoded.
    public var audioFrames = 0
    /// The end of the last decoded picture or sound, in seconds.
    public var decodedUntil: Double?
    /// Integrated loudness of the whole programme in LUFS (ebur128); nil without audio.
    public var integratedLoudness: Double?
    /// Loudness range in LU (ebur128).
    public var loudnessRange: Double?
    /// Highest true peak of any channel in dBTP; minus infinity for digital silence.
    public var truePeak: Double?
    /// blackdetect's black stretches, in order.
    public var black: [Interval] = []
    /// silencedetect's silent stretches, in order.
    public var silence: [Interval] = []
    /// Whether the first decoded picture is black by blackdetect's per-picture thresholds.
    public var firstFrameBlack: Bool?
    /// ebur128's short-term loudness (lavfi.r128.S) as it went, one point per 100 ms block; for the HTML plot.
    public var shortTermLoudness: [LoudnessPoint] = []
    /// The same for momentary loudness (lavfi.r128.M, a 400 ms window): short ads end before a 3 s window fills.
    public var momentaryLoudness: [LoudnessPoint] = []
    /// Pictures taken at evenly spaced times during the same decode (asked for by the HTML report only).
    public var pictures: [CreativeStill] = []
    /// What the picture and sound quality filters reported.
    public var signal = SignalFacts()

    /// Empty facts, filled in as the decode goes.
    public init() {}
}

/// A loudness reading at a time, seconds from the start of the file.
public struct LoudnessPoint: Equatable, Sendable {
    /// Seconds from the start of the file.
    public var seconds: Double
    /// Loudness in LUFS.
    public var lufs: Double
    /// A reading of `lufs` LUFS at `seconds`.
    public init(_ seconds: Double, _ lufs: Double) { self.seconds = seconds; self.lufs = lufs }
}

/// A picture of the creative as a PNG file's bytes, and the time it is shown.
public struct CreativeStill: Equatable, Sendable {
    /// When the picture is shown, seconds from the start of the file.
    public var seconds: Double
    /// Width of the PNG in pixels.
    public var width: Int
    /// Height of the PNG in pixels.
    public var height: Int
    /// The PNG file's bytes.
    public var png: [UInt8]
    /// A picture shown at `seconds`, encoded as `png`.
    public init(seconds: Double, width: Int, height: Int, png: [UInt8]) {
        self.seconds = seconds
        self.width = width
        self.height = height
        self.png = png
    }
}

/// Everything known about one creative.
public struct CreativeFacts: Equatable, Sendable {
    /// What the container and stream headers say.
    public var probe: ProbeFacts
    /// What decoding the whole file found.
    public var analysis: AnalysisFacts
    /// The caption tracks found (CaptionRule.swift); nil when not looked for.
    public var captions: [CaptionFacts]?
    /// Facts from a probe and a full decode of the same file.
    public init(probe: ProbeFacts, analysis: AnalysisFacts) {
        self.probe = probe
        self.analysis = analysis
    }
}
