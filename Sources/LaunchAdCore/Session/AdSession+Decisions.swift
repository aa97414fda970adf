/// The session's decisions: pauses, mute, host commands, skip and click, how the ad ends, and
/// the quartile and progress marks on shown time.
extension AdSession {
    mutating func pause(_ reason: PauseReason, now: Int) -> [SessionAction] {
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
        emit(.pause(reason: reason, shownMs: shownMs(now: now)), now)
        return [.setPaused(true)]
    }

    mutating func resume(_ reason: PauseReason, now: Int) -> [SessionAction] {
        guard phase == .waiting || phase == .showing else { return [] }
        guard pauseReasons.remove(reason) != nil, !isPaused else { return [] }
        if phase == .showing { runningSince = now }
        watch.resume(now: now)
        // The first-frame deadline does not run while paused.
        if phase == .waiting, let since = pausedSince { waitStartedAt += max(0, now - since) }
        pausedSince = nil
        emit(.resume(reason: reason, shownMs: shownMs(now: now)), now)
        return [.setPaused(false)]
    }

    mutating func setMuted(_ value: Bool, now: Int) -> [SessionAction] {
        guard value != muted else { return [] }
        muted = value
        emit(value ? .mute : .unmute, now)
        return [.setMuted(value)]
    }

    mutating func control(_ command: ControlCommand, now: Int) -> [SessionAction] {
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
            return skip(now: now, via: .host)
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
    func refuse(_ command: ControlCommand, _ why: String, now: Int) -> [SessionAction] {
        emit(.controlError(line: command.rawValue, message: "\(command.rawValue) ignored: \(why)"), now)
        return []
    }

    func refuse(_ command: ControlCommand, notOnScreen now: Int) -> [SessionAction] {
        refuse(
            command, phase == .waiting ? "the ad is not on screen yet (it acts once the first frame is shown)" : "the ad is already ending",
            now: now)
    }

    mutating func skip(now: Int, via: SkipVia) -> [SessionAction] {
        if via == .close { closed = true }
        emit(.skip(via: via, shownMs: shownMs(now: now)), now)
        return leave(.skipped, now: now)
    }

    mutating func click(now: Int) -> [SessionAction] {
        guard var link = config.link else { return [] }
        if config.linkPlayhead {
            link = link.replacingOccurrences(of: "[ADPLAYHEAD]", with: MacroExpander.encode(VASTClock.text(ms: shownMs(now: now))))
        }
        emit(.click(link: link, shownMs: shownMs(now: now)), now)
        // The ad waits (paused, at most linkWaitMs) for the opener's verdict before it ends.
        if config.openLinks { linkOpening = link }
        var actions = leave(.clicked, now: now)
        if config.openLinks { actions.insert(.openLink(link), at: 0) }
        return actions
    }

    /// The opener is done: its failure is said before the `end`, which follows once the leave
    /// transition (if any) has run.
    mutating func linkOpened(failure: String?, now: Int) -> [SessionAction] {
        guard let link = linkOpening else { return [] }
        linkOpening = nil
        if let failure { emit(.linkOpenFailed(link: link, message: failure), now) }
        guard case .leaving(let outcome, let since) = phase, now - since >= config.transition.leaveMs else { return [] }
        return end(outcome, now: now)
    }

    mutating func complete(now: Int) -> [SessionAction] {
        sendQuartiles(shown: Int.max, now: now)
        sendProgress(shown: Int.max, now: now)
        emit(.complete(shownMs: shownMs(now: now), frames: frames), now)
        return leave(.completed, now: now)
    }

    /// The ad reached the end of what it was to show (its time limit, or its stream's end): it
    /// completed, unless a cap (`--max-duration`) cut a video short of its own length; then there
    /// is no `complete` and no quartile past what was shown (quartiles are fractions of the
    /// ad's own length), and the outcome is `capped`.
    mutating func reachedItsEnd(now: Int) -> [SessionAction] {
        guard !usingFallback, let declared = config.declaredMs, let limit = config.limitMs,
            limit + AdSession.truncationToleranceMs < declared
        else { return complete(now: now) }
        let shown = shownMs(now: now)
        sendQuartiles(shown: shown, now: now)
        sendProgress(shown: shown, now: now)
        return leave(.capped, now: now)
    }

    /// The stream ended well before its declared length (a truncated file or download): no
    /// `complete` and no quartile the viewer did not reach; an `error` saying how much was shown.
    mutating func truncated(expectedMs: Int, now: Int) -> [SessionAction] {
        let shown = shownMs(now: now)
        sendQuartiles(shown: shown, now: now)
        report(
            PlayError(
                .mediaTruncated, "the video ended after \(shown) ms of its declared \(expectedMs) ms",
                detail: .truncated(shownMs: shown, declaredMs: expectedMs)), now: now)
        return leave(.error, now: now)
    }

    /// The next picture is later than `--stall-timeout`: the stream stalled. No `complete`, no
    /// quartile the viewer did not see; an `error` saying so (VAST 405); outcome `error`.
    mutating func stalled(now: Int) -> [SessionAction] {
        let late = watch.lateMs(now: now)
        let shown = shownMs(now: now)
        sendQuartiles(shown: shown, now: now)
        sendProgress(shown: shown, now: now)
        report(
            PlayError(
                .mediaStalled, "no new picture for \(late) ms (--stall-timeout \(watch.stallLimitMs) ms): the stream stalled",
                detail: .stalled(shownMs: shown, stalledMs: late, frames: frames)), now: now)
        return leave(.error, now: now)
    }

    mutating func fallbackOrEnd(reason: FailureCode, otherwise outcome: Outcome, now: Int) -> [SessionAction] {
        if config.hasFallback && !usingFallback {
            usingFallback = true
            // The fallback is a still picture: no video picture is due any more.
            watch = PresentationWatch(stallLimitMs: config.stallLimitMs)
            emit(.fallback(reason: .error(.failure(reason))), now)
            waitStartedAt = now
            waitLimitMs = max(config.waitMs, AdSession.fallbackMinWaitMs)
            if isPaused { pausedSince = now }
            return [.showFallback]
        }
        return end(outcome, now: now)
    }

    /// Starts the leave transition; the outcome is final from here on.
    mutating func leave(_ outcome: Outcome, now: Int) -> [SessionAction] {
        if let since = runningSince { bankedMs += max(0, now - since); runningSince = nil }
        watch.pause(now: now)
        guard phase == .showing, config.transition != .none || linkOpening != nil else { return end(outcome, now: now) }
        phase = .leaving(outcome, since: now)
        return [.setPaused(true)]
    }

    mutating func end(_ outcome: Outcome, now: Int) -> [SessionAction] {
        if let since = runningSince { bankedMs += max(0, now - since); runningSince = nil }
        watch.pause(now: now)
        phase = .ended(outcome)
        let end = RunEnd(outcome: outcome, shownMs: shownMs(now: now), frames: frames)
        result = PlayResult(end: end, error: lastError, adShownAtMs: adShownAtMs, closed: closed, gaveWay: false)
        if config.reportsEnd { emit(.end(end), now) }
        return [.finish(outcome)]
    }

    /// A VAST media file that did not open: the ad gives way to its next one, said by the run.
    mutating func giveWay(_ error: PlayError, now: Int) -> [SessionAction] {
        phase = .ended(.noAd)
        lastError = error
        result = PlayResult(
            end: RunEnd(outcome: .noAd, shownMs: 0, frames: frames), error: error, adShownAtMs: nil, closed: false, gaveWay: true)
        return [.finish(.noAd)]
    }

    /// `skip_available`, once, when the button first works.
    mutating func announceSkip(now: Int) {
        guard !skipAnnounced, phase == .showing, skipButton(now: now).enabled else { return }
        skipAnnounced = true
        emit(.skipAvailable(shownMs: shownMs(now: now)), now)
    }

    /// An `error` event, remembered as the run's failure.
    mutating func report(_ error: PlayError, now: Int) {
        lastError = error
        emit(.error(error), now)
    }

    /// The ad's own length: the video's declared length (a cap does not shorten it), else the countdown's.
    var ownLengthMs: Int { config.declaredMs.flatMap { usingFallback ? nil : $0 } ?? config.countdownMs }

    mutating func sendQuartiles(shown: Int, now: Int) {
        let length = ownLengthMs
        guard length > 0 else { return }
        while quartilesSent < 3, shown >= length * (quartilesSent + 1) / 4 {
            quartilesSent += 1
            emit(.quartile(quartilesSent * 25), now)
        }
    }

    /// A `progress` event as shown time passes each mark (percentages of the ad's own length).
    mutating func sendProgress(shown: Int, now: Int) {
        let length = ownLengthMs
        for mark in config.progressOffsets where !progressSent.contains(mark) {
            guard let ms = mark.milliseconds(of: length), shown >= ms else { continue }
            progressSent.insert(mark)
            emit(.progress(mark: mark.label, shownMs: ms), now)
        }
    }

    func emit(_ event: LaunchEvent, _ now: Int) {
        events.emit(AdEvent(event, tMs: now))
    }

    static func ceilSeconds(_ ms: Int) -> Int { (ms + 999) / 1000 }
}
