/// What probing a creative found: container facts and one entry per stream.
/// Filled by LaunchAdMedia; plain values here so rules and reports are testable without a codec.
public struct ProbeFacts: Equatable, Sendable {
    public var file: String
    /// Short container name a spec talks about: mp4, mov, matroska, webm, or FFmpeg's own name.
    public var container: String
    /// FFmpeg's demuxer name, e.g. "mov,mp4,m4a,3gp,3g2,mj2".
    public var formatName: String
    public var durationSeconds: Double?
    public var fileSize: Int
    public var bitRate: Int?
    /// moov before mdat; nil when the file is not an MP4/MOV.
    public var faststart: Bool?
    public var streams: [StreamFacts]
    /// A picture file (PNG, JPEG) rather than a video: rules about time do not apply to it.
    public var stillImage = false

    public init(file: String, container: String, formatName: String, durationSeconds: Double?, fileSize: Int,
                bitRate: Int?, faststart: Bool?, streams: [StreamFacts]) {
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
    public var audio: StreamFacts? { streams.first { $0.kind == .audio } }
}

public struct StreamFacts: Equatable, Sendable {
    public enum Kind: String, Sendable { case video, audio, subtitle, data, attachedPicture = "attached_picture", other }

    public var index: Int
    public var kind: Kind
    public var codec: String
    public var profile: String?
    public var level: Int?
    public var bitRate: Int?
    public var durationSeconds: Double?
    // Video
    public var width: Int?
    public var height: Int?
    /// After sample aspect and rotation: what a viewer sees.
    public var displayWidth: Int?
    public var displayHeight: Int?
    public var displayAspect: String?
    public var rotation: Int?
    public var pixelFormat: String?
    public var colorRange: String?
    public var colorSpace: String?
    public var colorPrimaries: String?
    public var colorTransfer: String?
    /// progressive, tt, bb, tb, bt or unknown.
    public var fieldOrder: String?
    public var frameRate: Double?
    public var variableFrameRate: Bool?
    public var keyframeCount: Int?
    public var keyframeIntervalMax: Double?
    public var keyframeIntervalAverage: Double?
    // Audio
    public var sampleRate: Int?
    public var channels: Int?
    public var channelLayout: String?

    public init(index: Int, kind: Kind, codec: String) {
        self.index = index
        self.kind = kind
        self.codec = codec
    }
}

/// A stretch of time, in seconds from the start of the file.
public struct Interval: Equatable, Sendable {
    public var start: Double
    public var end: Double
    public init(_ start: Double, _ end: Double) { self.start = start; self.end = end }
    public var duration: Double { end - start }
}

/// One thing that went wrong while decoding, and where.
public struct DecodeIssue: Equatable, Sendable {
    public var seconds: Double?
    public var stream: Int
    public var message: String
    public init(seconds: Double?, stream: Int, message: String) {
        self.seconds = seconds
        self.stream = stream
        self.message = message
    }
}

/// What decoding every packet and running the analysis filters found.
public struct AnalysisFacts: Equatable, Sendable {
    public var decodeErrors: [DecodeIssue] = []
    public var videoFrames = 0
    public var audioFrames = 0
    /// The end of the last decoded picture or sound, in seconds.
    public var decodedUntil: Double?
    public var integratedLoudness: Double?
    public var loudnessRange: Double?
    public var truePeak: Double?
    public var black: [Interval] = []
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

    public init() {}
}

/// A loudness reading at a time, seconds from the start of the file.
public struct LoudnessPoint: Equatable, Sendable {
    public var seconds: Double
    public var lufs: Double
    public init(_ seconds: Double, _ lufs: Double) { self.seconds = seconds; self.lufs = lufs }
}

/// A picture of the creative as a PNG file's bytes, and the time it is shown.
public struct CreativeStill: Equatable, Sendable {
    public var seconds: Double
    public var width: Int
    public var height: Int
    public var png: [UInt8]
    public init(seconds: Double, width: Int, height: Int, png: [UInt8]) {
        self.seconds = seconds
        self.width = width
        self.height = height
        self.png = png
    }
}

/// Everything known about one creative.
public struct CreativeFacts: Equatable, Sendable {
    public var probe: ProbeFacts
    public var analysis: AnalysisFacts
    public init(probe: ProbeFacts, analysis: AnalysisFacts) {
        self.probe = probe
        self.analysis = analysis
    }
}
