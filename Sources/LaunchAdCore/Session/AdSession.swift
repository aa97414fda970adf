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
    public private(set) var config: SessionConfig
    /// The current phase; starts `waiting`.
    public private(set) var phase: Phase = .waiting
    /// Every reason the ad is paused for now; it plays only when there is none.
    public private(set) var pauseReasons: Set<PauseReason> = []
    /// Whether the sound is off now (starts as `config.muted`).
    public private(set) var muted: Bool
    /// Whether the fallback image replaced the creative.
    public private(set) var usingFallback = false
    /// Where the ad, logo and skip button are; the player replaces it when the window changes size.
    public var layout: AdLayout
    /// The video's pictures as the player counted them; `complete` and `end` carry them.
    public var frames: FrameCounter?

    private let events: EventSink
    private var waitStartedAt: Int
    /// How long the current wait may last: `--wait` for the creative, at least
    /// `fallbackMinWaitMs` for the fallback (so `--wait 0` still lets the fallback show).
    private var waitLimitMs: Int
    /// When the current pause began (the wait for the first frame does not run while paused).
    private var pausedSince: Int?
    private var firstFrameAt: Int?
    /// Shown time banked before the current unpaused stretch began.
    private var bankedMs = 0
    private var runningSince: Int?
    private var quartilesSent = 0
    private var progressSent: Set<VASTOffset> = []
    /// Whether the video's pictures arrive on schedule: stalls are not shown time, and one
    /// longer than `--stall-timeout` ends the ad.
    public private(set) var watch: PresentationWatch

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
    /// Whether the ad has ended (its `end` event written).
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
            guard phase == .waiting else { return [] }
            phase = .showing
            firstFrameAt = now
            emit("first_frame", now, [("fallback", .bool(usingFallback))])
            if !isPaused { runningSince = now }
            return []
        case .pause(let reason):
            return pause(reason, now: now)
        case .resume(let reason):
            return resume(reason, now: now)
        case .pointerUp(let x, let y):
            guard phase == .showing else { return [] }
            if skipButton(now: now).visible && layout.skipButton.contains(x: x, y: y) {
                return skipButton(now: now).enabled ? skip(now: now, via: "pointer") : []
            }
            // Only the ad itself is a link: the logo band below it is not.
            guard layout.adArea.contains(x: x, y: y) else { return [] }
            return click(now: now)
        case .key(.escape):
            guard phase == .showing, config.showSkip, skipButton(now: now).enabled else { return [] }
            return skip(now: now, via: "key")
        case .key(.mute):
            return setMuted(!muted, now: now)
        case .key(.pauseToggle):
            return pauseReasons.contains(.user) ? resume(.user, now: now) : pause(.user, now: now)
        case .control(let command):
            return control(command, now: now)
        case .closeRequested:
            switch phase {
            case .waiting, .showing: return skip(now: now, via: "close")
            default: return []
            }
        case .endOfStream:
            if phase == .waiting && !usingFallback {
                // The creative drained without a single picture: no ad, now rather than at the deadline.
                emit("error", now, [("code", .string("no_frames")), ("message", .string("the ad ended before its first frame"))])
                return fallbackOrEnd(reason: "no_frames", otherwise: .noAd, now: now)
            }
            guard phase == .showing else { return [] }
            if let expected = expectedMs, shownMs(now: now) + AdSession.truncationToleranceMs < expected {
                return truncated(expectedMs: expected, now: now)
            }
            return complete(now: now)
        case .adUnavailable(let code, let message):
            guard phase == .waiting else { return [] }
            emit("error", now, [("code", .string(code)), ("message", .string(message))])
            return fallbackOrEnd(reason: code, otherwise: .noAd, now: now)
        case .failed(let code, let message):
            emit("error", now, [("code", .string(code)), ("message", .string(message))])
            // While leaving, the outcome is already decided (the viewer did skip or click): the
            // failure only cuts the transition short.
            if case .leaving(let decided, _) = phase { return end(decided, now: now) }
            return end(.error, now: now)
        }
    }

    /// Advances time: duration limits, the first-frame deadline, quartiles, the leave transition.
    public mutating func tick(now: Int) -> [SessionAction] {
        switch phase {
        case .ended:
            return []
        case .waiting:
            if !isPaused && now - waitStartedAt >= waitLimitMs {
                emit("wait_expired", now, [("waited_ms", .int(now - waitStartedAt))])
                return fallbackOrEnd(reason: "first_frame_timeout", otherwise: .timeout, now: now)
            }
            return []
        case .showing:
            if watch.isStalled(now: now) { return stalled(now: now) }
            let shown = shownMs(now: now)
            sendQuartiles(shown: shown, now: now)
            sendProgress(shown: shown, now: now)
            if let limit = config.limitMs, shown >= limit { return complete(now: now) }
            return []
        case .leaving(let outcome, let since):
            return now - since >= config.transition.leaveMs ? end(outcome, now: now) : []
        }
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
    private var expectedMs: Int? {
        guard let d = config.declaredMs, !usingFallback else { return nil }
        return min(d, config.limitMs ?? d)
    }

    // MARK: What the overlay shows

    /// What the skip button shows at `now`: hidden while waiting or with `--no-skip`, "Ad N" until `--skip-after`.
    public func skipButton(now: Int) -> SkipButtonState {
        guard config.showSkip, phase != .waiting else {
            return .hidden
        }
        let shown = shownMs(now: now)
        let progress = config.countdownMs > 0 ? min(1, Double(shown) / Double(config.countdownMs)) : 1
        if shown < config.skipAfterMs {
            let left = AdSession.ceilSeconds(config.skipAfterMs - shown)
            return SkipButtonState(
                visible: true, enabled: false,
                text: config.skipStyle == .ring ? "Ad" : "Ad \(left)", progress: progress)
        }
        let remaining = AdSession.ceilSeconds(max(0, config.countdownMs - shown))
        let text = config.skipStyle == .ring || remaining == 0 ? config.skipLabel : "\(config.skipLabel) \(remaining)"
        return SkipButtonState(visible: true, enabled: true, text: text, progress: progress)
    }

    /// 0 (black) to 1 (fully visible): the fade in after the first frame and the fade out when leaving.
    public func opacity(now: Int) -> Double {
        switch phase {
        case .waiting: return 0
        case .ended: return config.transition == .none ? 1 : 0
        case .showing:
            guard let first = firstFrameAt, config.fadeInMs > 0 else { return 1 }
            return min(1, max(0, Double(now - first) / Double(config.fadeInMs)))
        case .leaving(_, let since):
            guard config.transition != .none else { return 1 }
            // Fades out from wherever the fade in had reached when the ad began to leave.
            let fadeIn = firstFrameAt.map { min(1, max(0, Double(since - $0) / Double(max(1, config.fadeInMs)))) } ?? 1
            return fadeIn * min(1, max(0, 1 - Double(now - since) / Double(config.transition.leaveMs)))
        }
    }

    /// The ad's scale: 1, growing while the zoom transition runs.
    public func zoom(now: Int) -> Double {
        guard case .leaving(_, let since) = phase, config.transition == .zoom else { return 1 }
        return 1 + 0.25 * min(1, Double(now - since) / Double(config.transition.leaveMs))
    }

    // MARK: Decisions

    private mutating func pause(_ reason: PauseReason, now: Int) -> [SessionAction] {
        if reason.isWindowState && !config.pauseOnBlur { return [] }
        // Once the ad is leaving its outcome is decided and the picture already frozen:
        // pausing or resuming then would only add events (and restart the video mid-fade).
        guard phase == .waiting || phase == .showing else { return [] }
        let wasPaused = isPaused
        pauseReasons.insert(reason)
        guard !wasPaused else { return [] }
        if let since = runningSince { bankedMs += max(0, now - since); runningSince = nil }
        watch.pause(now: now)
        pausedSince = now
        emit("pause", now, [("reason", .string(reason.rawValue)), ("shown_ms", .int(shownMs(now: now)))])
        return [.setPaused(true)]
    }

    private mutating func resume(_ reason: PauseReason, now: Int) -> [SessionAction] {
        guard phase == .waiting || phase == .showing else { return [] }
        guard pauseReasons.remove(reason) != nil, !isPaused else { return [] }
        if phase == .showing { runningSince = now }
        watch.resume(now: now)
        // The first-frame deadline does not run while paused.
        if phase == .waiting, let since = pausedSince { waitStartedAt += max(0, now - since) }
        pausedSince = nil
        emit("resume", now, [("reason", .string(reason.clearedBy)), ("shown_ms", .int(shownMs(now: now)))])
        return [.setPaused(false)]
    }

    private mutating func setMuted(_ value: Bool, now: Int) -> [SessionAction] {
        guard value != muted else { return [] }
        muted = value
        emit(value ? "mute" : "unmute", now)
        return [.setMuted(value)]
    }

    private mutating func control(_ command: ControlCommand, now: Int) -> [SessionAction] {
        switch command {
        case .pause: return pause(.host, now: now)
        case .resume: return resume(.host, now: now)
        case .mute: return setMuted(true, now: now)
        case .unmute: return setMuted(false, now: now)
        case .skip:
            // As a viewer would: only while the button offers it. A host that must end the ad
            // says `end`. A skip not acted on is answered, never dropped without a word.
            guard phase == .showing else { return refuse(command, notOnScreen: now) }
            guard config.showSkip else { return refuse(command, "there is no skip button (--no-skip); send end to end the ad", now: now) }
            guard skipButton(now: now).enabled else {
                let left = AdSession.ceilSeconds(config.skipAfterMs - shownMs(now: now))
                return refuse(command, "the skip button works in \(left) s (--skip-after); send end to end the ad now", now: now)
            }
            return skip(now: now, via: "host")
        case .click:
            guard phase == .showing else { return refuse(command, notOnScreen: now) }
            guard config.link != nil else { return refuse(command, "the ad has no link", now: now) }
            return click(now: now)
        case .end:
            switch phase {
            case .waiting, .showing: return leave(.endedByHost, now: now)
            default: return []
            }
        }
    }

    /// A host command that cannot act now: a `control_error` saying why.
    private func refuse(_ command: ControlCommand, _ why: String, now: Int) -> [SessionAction] {
        emit("control_error", now, [("line", .string(command.rawValue)), ("message", .string("\(command.rawValue) ignored: \(why)"))])
        return []
    }

    private func refuse(_ command: ControlCommand, notOnScreen now: Int) -> [SessionAction] {
        refuse(
            command, phase == .waiting ? "the ad is not on screen yet (it acts once the first frame is shown)" : "the ad is already ending",
            now: now)
    }

    private mutating func skip(now: Int, via: String) -> [SessionAction] {
        emit("skip", now, [("via", .string(via)), ("shown_ms", .int(shownMs(now: now)))])
        return leave(.skipped, now: now)
    }

    private mutating func click(now: Int) -> [SessionAction] {
        guard var link = config.link else { return [] }
        if config.linkPlayhead {
            link = link.replacingOccurrences(of: "[ADPLAYHEAD]", with: MacroExpander.encode(VASTClock.text(ms: shownMs(now: now))))
        }
        emit("click", now, [("link", .string(link)), ("shown_ms", .int(shownMs(now: now)))])
        var actions = leave(.clicked, now: now)
        if config.openLinks { actions.insert(.openLink(link), at: 0) }
        return actions
    }

    private mutating func complete(now: Int) -> [SessionAction] {
        sendQuartiles(shown: Int.max, now: now)
        sendProgress(shown: max(shownMs(now: now), config.countdownMs), now: now)
        emit("complete", now, [("shown_ms", .int(shownMs(now: now)))] + (frames?.fields ?? []))
        return leave(.completed, now: now)
    }

    /// The stream ended well before its declared length (a truncated file or download): no
    /// `complete` and no quartile the viewer did not reach; an `error` saying how much was shown.
    private mutating func truncated(expectedMs: Int, now: Int) -> [SessionAction] {
        let shown = shownMs(now: now)
        sendQuartiles(shown: shown, now: now)
        emit(
            "error", now,
            [
                ("code", .string("media_truncated")),
                ("message", .string("the video ended after \(shown) ms of its declared \(expectedMs) ms")),
                ("shown_ms", .int(shown)), ("declared_ms", .int(expectedMs))
            ])
        return leave(.error, now: now)
    }

    /// The next picture is later than `--stall-timeout`: the stream stalled. No `complete`, no
    /// quartile the viewer did not see; an `error` saying so (VAST 405); outcome `error`.
    private mutating func stalled(now: Int) -> [SessionAction] {
        let late = watch.lateMs(now: now)
        let shown = shownMs(now: now)
        sendQuartiles(shown: shown, now: now)
        sendProgress(shown: shown, now: now)
        emit(
            "error", now,
            [
                ("code", .string("media_stalled")),
                ("message", .string("no new picture for \(late) ms (--stall-timeout \(watch.stallLimitMs) ms): the stream stalled")),
                ("shown_ms", .int(shown)), ("stalled_ms", .int(late))
            ] + (frames?.fields ?? []))
        return leave(.error, now: now)
    }

    private mutating func fallbackOrEnd(reason: String, otherwise outcome: Outcome, now: Int) -> [SessionAction] {
        if config.hasFallback && !usingFallback {
            usingFallback = true
            // The fallback is a still picture: no video picture is due any more.
            watch = PresentationWatch(stallLimitMs: config.stallLimitMs)
            emit("fallback", now, [("reason", .string(reason))])
            waitStartedAt = now
            waitLimitMs = max(config.waitMs, AdSession.fallbackMinWaitMs)
            if isPaused { pausedSince = now }
            return [.showFallback]
        }
        return end(outcome, now: now)
    }

    /// Starts the leave transition; the outcome is final from here on.
    private mutating func leave(_ outcome: Outcome, now: Int) -> [SessionAction] {
        if let since = runningSince { bankedMs += max(0, now - since); runningSince = nil }
        watch.pause(now: now)
        guard phase == .showing, config.transition != .none else { return end(outcome, now: now) }
        phase = .leaving(outcome, since: now)
        return [.setPaused(true)]
    }

    private mutating func end(_ outcome: Outcome, now: Int) -> [SessionAction] {
        if let since = runningSince { bankedMs += max(0, now - since); runningSince = nil }
        watch.pause(now: now)
        phase = .ended(outcome)
        emit("end", now, [("outcome", .string(outcome.rawValue)), ("shown_ms", .int(shownMs(now: now)))] + (frames?.fields ?? []))
        return [.finish(outcome)]
    }

    private mutating func sendQuartiles(shown: Int, now: Int) {
        guard config.countdownMs > 0 else { return }
        while quartilesSent < 3, shown >= config.countdownMs * (quartilesSent + 1) / 4 {
            quartilesSent += 1
            emit("quartile", now, [("quartile", .int(quartilesSent * 25))])
        }
    }

    /// A `progress` event as shown time passes each mark (percentages of the countdown's length).
    private mutating func sendProgress(shown: Int, now: Int) {
        for mark in config.progressOffsets where !progressSent.contains(mark) {
            guard let ms = mark.milliseconds(of: config.countdownMs), shown >= ms else { continue }
            progressSent.insert(mark)
            emit("progress", now, [("mark", .string(mark.label)), ("shown_ms", .int(ms))])
        }
    }

    private func emit(_ name: String, _ now: Int, _ fields: [(String, JSONValue)] = []) {
        events.emit(AdEvent(name, tMs: now, fields))
    }

    static func ceilSeconds(_ ms: Int) -> Int { (ms + 999) / 1000 }
}
