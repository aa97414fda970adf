/// A media-time clock driven by the wall clock, that stops while paused: the master clock when
/// there is no audio, and the continuation of the audio clock once the audio has played out.
/// Times are seconds; `now` comes from the caller so the clock is testable.
public struct MediaClock: Sendable {
    private var base: Double = 0
    private var baseAt: Double = 0
    /// Whether the clock is stopped; a new clock starts paused.
    public private(set) var isPaused = true

    /// A paused clock at media time 0.
    public init() {}

    /// The media time in seconds at wall-clock `now` (seconds); frozen while paused.
    public func time(at now: Double) -> Double {
        isPaused ? base : base + (now - baseAt)
    }

    /// Sets the media time (from the audio clock, or the first frame's timestamp).
    public mutating func set(_ mediaTime: Double, at now: Double) {
        base = mediaTime
        baseAt = now
    }

    /// Stops or restarts the clock at `now`, keeping the media time reached; repeating the current state does nothing.
    public mutating func setPaused(_ paused: Bool, at now: Double) {
        guard paused != isPaused else { return }
        base = time(at: now)
        baseAt = now
        isPaused = paused
    }
}
