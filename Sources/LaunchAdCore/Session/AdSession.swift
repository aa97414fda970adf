/// The launch-ad state machine: everything the viewer sees decided from inputs and the time.
/// The player feeds it window, pointer, key, host and media inputs and carries out its actions;
/// the session writes the events. `now` is milliseconds on the process clock.
public struct AdSession {
    /// Where the ad is in its life; `leaving` and `ended` carry the decided outcome.
    public enum Phase: Equatable, Sendable {
        /// Waiting for the creative's first frame.
        case waiting
        case showing
        /// The leave transition is running; the outcome is decided.
        case leaving(Outcome, since: Int)
        case ended(Outcome)
    }

    /// The options in force; the creative's real length (video or image) updates the duration fields.
    public internal(set) var config: SessionConfig
    /// The current phase; starts `waiting`.
    public internal(set) var phase: Phase = .waiting
    /// Every reason the ad is paused for now; it plays only when there is none.
    public internal(set) var pauseReasons: Set<PauseReason> = []
    /// Whether the sound is off now (starts as `config.muted`).
    public internal(set) var muted: Bool
    /// Whether the fallback image replaced the creative.
    public internal(set) var usingFallback = false
    /// Where the ad, logo and skip button are; the player replaces it when the window changes size.
    public var layout: AdLayout
    /// The video's pictures as the player counted them; `complete` and `end` carry them.
    public var frames: FrameCounter?

    let events: EventSink
    var waitStartedAt: Int
    /// How long the current wait may last: `--wait` for the creative, at least
    /// `fallbackMinWaitMs` for the fallback (so `--wait 0` still lets the fallback show).
    var waitLimitMs: Int
    /// When the current pause began (the wait for the first frame does not run while paused).
    var pausedSince: Int?
    var firstFrameAt: Int?
    /// Shown time banked before the current unpaused stretch began.
    var bankedMs = 0
    var runningSince: Int?
    var quartilesSent = 0
    var progressSent: Set<VASTOffset> = []
    /// Whether the video's pictures arrive on schedule: stalls are not shown time, and one
    /// longer than `--stall-timeout` ends the ad.
    public internal(set) var watch: PresentationWatch
    /// How the session ended, once it has: what the run's owner reports and decides on.
    public internal(set) var result: PlayResult?
    /// The last `error` reported.
    var lastError: PlayError?
    /// When the ad itself (not its fallback) reached the screen.
    var adShownAtMs: Int?
    /// Whether the window was closed (a skip `via: close`).
    var closed = false
    /// Whether `skip_available` was said.
    var skipAnnounced = false
    /// The clicked link the opener is starting (`--open-links`): the ad stays, paused, until the
    /// opener is done or `linkWaitMs` has passed, so its failure comes before `end`.
    var linkOpening: String?

    /// How long a click waits for the link opener before the ad ends all the same (an opener
    /// that runs the browser in the foreground never returns).
    public static let linkWaitMs = 1500

    /// How far short of its declared length (or `--max-duration`) a video may end and still
    /// count as complete: timestamps and container durations disagree by a frame or two.
    public static let truncationToleranceMs = 500

    /// A session waiting for the first frame from `now` (process ms), writing its events to `events`.
    public init(config: SessionConfig, layout: AdLayout, events: EventSink, now: Int) {
        self.config = config
        self.layout = layout
        self.events = events
        self.muted = config.muted
        self.waitStartedAt = now
        self.waitLimitMs = config.waitMs
        self.watch = PresentationWatch(stallLimitMs: config.stallLimitMs)
    }

    /// The least time the fallback image is given to reach the screen.
    static let fallbackMinWaitMs = 1000

    /// Whether any pause reason holds.
    public var isPaused: Bool { !pauseReasons.isEmpty }
    /// Whether the ad has ended (its `end` event written, when the session reports it).
    public var isOver: Bool { if case .ended = phase { return true } else { return false } }

    /// Time the ad has been on screen and playing: paused time, the wait and time the video's
    /// next picture was overdue (a frozen picture) are left out.
    public func shownMs(now: Int) -> Int {
        max(0, bankedMs + (runningSince.map { max(0, now - $0) } ?? 0) - watch.notShownMs(now: now))
    }

    /// A new video picture (timestamp `pts`) reached the screen.
    public mutating func picturePresented(pts: Double, now: Int) { watch.presented(pts: pts, now: now) }

    /// The next video picture's timestamp once decoded; `drained`: the video has no more.
    public mutating func upcomingPicture(pts: Double?, drained: Bool) { watch.upcoming(pts: pts, drained: drained) }

    // MARK: Inputs

    /// Applies one input at `now`, writes the events it causes, and returns what the player must do.
    public mutating func handle(_ input: SessionInput, now: Int) -> [SessionAction] {
        if case .ended = phase { return [] }
        switch input {
        case .firstFrame:
            return firstFrame(now: now)
        case .pause(let reason):
            return pause(reason, now: now)
        case .resume(let reason):
            return resume(reason, now: now)
        case .pointerUp(let x, let y):
            return pointerUp(x: x, y: y, now: now)
        case .key(.escape):
            guard phase == .showing, config.showSkip, skipButton(now: now).enabled else { return [] }
            return skip(now: now, via: .key)
        case .key(.mute):
            return setMuted(!muted, now: now)
        case .key(.pauseToggle):
            return pauseReasons.contains(.user) ? resume(.user, now: now) : pause(.user, now: now)
        case .control(let command):
            return control(command, now: now)
        case .closeRequested:
            switch phase {
            case .waiting, .showing: return skip(now: now, via: .close)
            default: return []
            }
        case .endOfStream:
            return endOfStream(now: now)
        case .adUnavailable(let code, let message):
            guard phase == .waiting else { return [] }
            if config.givesWayOnOpenFailure && code.isOpenFailure && !usingFallback {
                // A VAST media file that does not open gives way to the next: no error, no end here.
                return giveWay(PlayError(code, message), now: now)
            }
            report(PlayError(code, message), now: now)
            return fallbackOrEnd(reason: code, otherwise: .noAd, now: now)
        case .linkOpened(let failure):
            return linkOpened(failure: failure, now: now)
        case .failed(let code, let message):
            report(PlayError(code, message), now: now)
            // While leaving, the outcome is already decided (the viewer did skip or click): the
            // failure only cuts the transition short.
            if case .leaving(let decided, _) = phase { return end(decided, now: now) }
            return end(.error, now: now)
        }
    }

    private mutating func firstFrame(now: Int) -> [SessionAction] {
        guard phase == .waiting else { return [] }
        phase = .showing
        firstFrameAt = now
        emit(.firstFrame(fallback: usingFallback), now)
        if !usingFallback { adShownAtMs = now }
        if !isPaused { runningSince = now }
        announceSkip(now: now)
        return []
    }

    private mutating func pointerUp(x: Double, y: Double, now: Int) -> [SessionAction] {
        guard phase == .showing else { return [] }
        if skipButton(now: now).visible && layout.skipButton.contains(x: x, y: y) {
            return skipButton(now: now).enabled ? skip(now: now, via: .pointer) : []
        }
        // Only the ad itself is a link: the logo band below it is not.
        guard layout.adArea.contains(x: x, y: y) else { return [] }
        return click(now: now)
    }

    private mutating func endOfStream(now: Int) -> [SessionAction] {
        if phase == .waiting && !usingFallback {
            // The creative drained without a single picture: no ad, now rather than at the deadline.
            report(PlayError(.noFrames, "the ad ended before its first frame"), now: now)
            return fallbackOrEnd(reason: .noFrames, otherwise: .noAd, now: now)
        }
        guard phase == .showing else { return [] }
        if let expected = expectedMs, shownMs(now: now) + AdSession.truncationToleranceMs < expected {
            return truncated(expectedMs: expected, now: now)
        }
        return reachedItsEnd(now: now)
    }

    /// Advances time: duration limits, the first-frame deadline, quartiles, the leave transition.
    public mutating func tick(now: Int) -> [SessionAction] {
        switch phase {
        case .ended:
            return []
        case .waiting:
            if !isPaused && now - waitStartedAt >= waitLimitMs {
                emit(.waitExpired(waitedMs: now - waitStartedAt), now)
                return fallbackOrEnd(reason: .firstFrameTimeout, otherwise: .timeout, now: now)
            }
            return []
        case .showing:
            if watch.isStalled(now: now) { return stalled(now: now) }
            let shown = shownMs(now: now)
            announceSkip(now: now)
            sendQuartiles(shown: shown, now: now)
            sendProgress(shown: shown, now: now)
            if let limit = config.limitMs, shown >= limit { return reachedItsEnd(now: now) }
            return []
        case .leaving(let outcome, let since):
            let leaveMs = max(config.transition.leaveMs, linkOpening == nil ? 0 : AdSession.linkWaitMs)
            return now - since >= leaveMs ? end(outcome, now: now) : []
        }
    }

    /// The first-frame wait starts again from `now`: an application prepared the ad earlier
    /// and shows it only now.
    public mutating func restartWait(now: Int) {
        guard phase == .waiting, !usingFallback else { return }
        waitStartedAt = now
        if let since = pausedSince { pausedSince = max(since, now) }
    }

    /// The fallback image is ready: its own duration replaces the video's.
    public mutating func fallbackReady(durationMs: Int, now: Int) {
        config.limitMs = durationMs
        config.countdownMs = durationMs
        waitStartedAt = now
        if let since = pausedSince { pausedSince = max(since, now) }
    }

    /// The creative turned out to be a still image: it runs for `durationMs`.
    public mutating func imageReady(durationMs: Int) {
        config.limitMs = durationMs
        config.countdownMs = durationMs
    }

    /// The video opened: the countdown runs over its length, capped by `--max-duration`.
    public mutating func videoReady(durationMs: Int?, frameDuration: Double = 0) {
        watch.videoStarted(frameDuration: frameDuration)
        guard let d = durationMs, d > 0 else { return }
        config.declaredMs = d
        config.countdownMs = min(d, config.limitMs ?? d)
    }

    /// What a video that plays through should show: its declared length, or the cap if shorter.
    var expectedMs: Int? {
        guard let d = config.declaredMs, !usingFallback else { return nil }
        return min(d, config.limitMs ?? d)
    }
}
