/// What became of a video's pictures, for the `complete` and `end` events (and proof of play):
/// how many reached the screen, how many were dropped as late, and how far the picture on
/// screen was from the sound being heard at worst.
public struct FrameCounter: Equatable, Sendable {
    /// Pictures that reached the screen.
    public private(set) var shown = 0
    /// Pictures dropped unshown: late, out of order, or replaced before a present.
    public private(set) var dropped = 0
    /// The largest |picture time − audio clock| at a present, in ms; nil while no audio played.
    public private(set) var avOffsetMsMax: Int?
    /// A picture is in the texture but not yet presented.
    private var pending = false

    /// A counter with nothing shown or dropped yet.
    public init() {}

    /// Pictures taken off the queue unshown: late, or behind the one on screen.
    public mutating func drop(_ count: Int) { dropped += max(0, count) }

    /// A picture was put into the texture; one put there and replaced before any present is dropped.
    public mutating func pictureReady() {
        if pending { dropped += 1 }
        pending = true
    }

    /// The screen was presented; `pictureTime` is the picture on it, `audioClock` what is heard.
    public mutating func presented(pictureTime: Double?, audioClock: Double?) {
        guard pending else { return }
        pending = false
        shown += 1
        if let v = pictureTime, let a = audioClock {
            let offset = Checked.int((abs(v - a) * 1000).rounded(), clampedTo: 0...86_400_000)
            avOffsetMsMax = max(avOffsetMsMax ?? 0, offset)
        }
    }

    /// The event fields.
    public var fields: [(String, JSONValue)] {
        [
            ("frames_shown", .int(shown)), ("frames_dropped", .int(dropped)),
            ("av_offset_ms_max", avOffsetMsMax.map { .int($0) } ?? .null)
        ]
    }
}
