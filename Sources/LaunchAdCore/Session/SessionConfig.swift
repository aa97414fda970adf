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
    /// Shown time in ms before the skip button works (`--skip-after`).
    public var skipAfterMs: Int = 0
    /// False with `--no-skip`: no skip button.
    public var showSkip = true
    /// The skip button's word.
    public var skipLabel = "Skip"
    /// Countdown text or progress ring.
    public var skipStyle: SkipStyle = .text
    /// The click-through link; nil: clicks on the ad do nothing.
    public var link: String?
    /// `[ADPLAYHEAD]` in `link` is filled with the shown time when it is clicked.
    public var linkPlayhead = false
    /// Also ask the player to open the link (`--open-links`) when the ad is clicked.
    public var openLinks = false
    /// Pause while the window is unfocused, minimized or hidden; false with `--no-pause-on-blur`.
    public var pauseOnBlur = true
    /// How the ad leaves the screen.
    public var transition: Transition = .fade
    /// Whether a fallback image was given, to show when the creative fails or its first frame is late.
    public var hasFallback = false
    /// Ms to wait for the first frame (`--wait`), not counting paused time.
    public var waitMs = 3000
    /// Start muted (`--mute`).
    public var muted = false
    /// Length in ms of the fade in after the first frame; not set by any option.
    public var fadeInMs = 300
    /// How late a video's next picture may be before the ad ends as stalled (`--stall-timeout`).
    public var stallLimitMs = 3000
    /// Shown-time marks (a VAST ad's progress offsets) at which a `progress` event is sent.
    public var progressOffsets: [VASTOffset] = []
    /// Whether the session writes the `end` event: false when the run's owner writes it
    /// (a VAST ad's `ad_end`, `launch`'s `end` after the hand-off).
    public var reportsEnd = true
    /// A media file that does not open or decode before its first frame ends the session
    /// quietly (no `error`, no `end`): a VAST ad's next media file is tried.
    public var givesWayOnOpenFailure = false

    /// A config with these durations in ms and every other setting at its default.
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
        skipLabel = o.skipLabel
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
        stallLimitMs = Int((o.stallTimeout * 1000).rounded())
    }
}
