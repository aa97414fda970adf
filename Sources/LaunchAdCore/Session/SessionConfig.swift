/// The parts of the options that drive the session's decisions.
public struct SessionConfig: Equatable, Sendable {
    /// How long the ad runs in ms, if it ends on time rather than at end of stream:
    /// an image's duration, or `--max-duration` for a video.
    public var limitMs: Int?
    /// The length the countdown counts from (the video's duration, capped; the image's duration).
    public var countdownMs: Int
    /// A video's declared length (its container's duration): a stream ending well short of it
    /// was truncated.
    public var declaredMs: Int?
    public var skipAfterMs: Int = 0
    public var showSkip = true
    public var skipLabel = "Skip"
    public var skipStyle: SkipStyle = .text
    public var link: String?
    /// `[ADPLAYHEAD]` in `link` is filled with the shown time when it is clicked.
    public var linkPlayhead = false
    public var openLinks = false
    public var pauseOnBlur = true
    public var transition: Transition = .fade
    public var hasFallback = false
    public var waitMs = 3000
    public var muted = false
    public var fadeInMs = 300
    /// Shown-time marks (a VAST ad's progress offsets) at which a `progress` event is sent.
    public var progressOffsets: [VASTOffset] = []

    public init(limitMs: Int?, countdownMs: Int) {
        self.limitMs = limitMs
        self.countdownMs = countdownMs
    }

    /// A video ad: its own length, capped by `--max-duration`.
    public static func video(durationMs: Int?, options o: PlayOptions) -> SessionConfig {
        let cap = o.maxDuration.map { Int(($0 * 1000).rounded()) }
        let length = [durationMs, cap].compactMap { $0 }.min()
        var c = SessionConfig(limitMs: cap, countdownMs: length ?? Int((o.imageDuration * 1000).rounded()))
        c.declaredMs = durationMs
        c.apply(o)
        return c
    }

    /// An image ad (or the fallback): `--duration`.
    public static func image(options o: PlayOptions) -> SessionConfig {
        let ms = Int((o.imageDuration * 1000).rounded())
        var c = SessionConfig(limitMs: ms, countdownMs: ms)
        c.apply(o)
        return c
    }

    mutating func apply(_ o: PlayOptions) {
        skipAfterMs = Int((o.skipAfter * 1000).rounded())
        showSkip = o.showSkip
        skipLabel = o.skipLabel ?? "Skip"
        skipStyle = o.skipStyle
        link = o.link
        linkPlayhead = o.linkPlayhead
        openLinks = o.openLinks
        pauseOnBlur = o.pauseOnBlur
        transition = o.transition
        hasFallback = o.fallback != nil
        waitMs = Int((o.wait * 1000).rounded())
        muted = o.muted
        progressOffsets = o.progressOffsets
    }
}
