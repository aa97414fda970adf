/// Everything a run reports, one case per event with its payload (libmpv's event ids and
/// payload structs are the model). Code decides by matching these cases; the JSON line a case
/// becomes is written in one place, `LaunchEvent.name` and `LaunchEvent.fields`
/// (EventJSON.swift), and documented in docs/playing.md#events.
public enum LaunchEvent: Equatable, Sendable {
    // MARK: The ad on screen (play, launch, each VAST ad)

    /// The creative opened (an image: once decoded).
    case start(CreativeStart)
    /// The window opened.
    case window(WindowOpened)
    /// The first picture is on screen; `fallback` when it is the fallback's.
    case firstFrame(fallback: Bool)
    /// The skip button works from now on (at the first frame, or once `--skip-after` has passed).
    case skipAvailable(shownMs: Int)
    /// 25, 50 or 75 % of the ad's length shown.
    case quartile(Int)
    /// A VAST progress offset reached (`mark` as the tag wrote it).
    case progress(mark: String, shownMs: Int)
    /// Playback paused for `reason`.
    case pause(reason: PauseReason, shownMs: Int)
    /// `reason` cleared and nothing else holds playback: it resumed.
    case resume(reason: PauseReason, shownMs: Int)
    case mute
    case unmute
    /// The viewer, the host or the window manager skipped the ad.
    case skip(via: SkipVia, shownMs: Int)
    /// The ad was clicked; `link` with `[ADPLAYHEAD]` filled in.
    case click(link: String, shownMs: Int)
    /// The ad played to its end.
    case complete(shownMs: Int, frames: FrameCounter?)
    /// The fallback image replaces the ad.
    case fallback(reason: FallbackReason)
    /// No first frame within `--wait`.
    case waitExpired(waitedMs: Int)
    /// The caption a cue put on screen, at the ad's time `atMs`.
    case caption(text: String, atMs: Int)
    /// A caption source was read.
    case captions(CaptionsRead)
    /// A caption source was refused, or some of its cues.
    case captionsError(CaptionsProblem)
    /// A VAST icon was drawn, clicked, refused or could not be had.
    case icon(IconEvent)
    /// Something went wrong; the run may go on (a fallback) or end.
    case error(PlayError)
    /// Sound is off for the run: the device could not be opened.
    case audioUnavailable(message: String)
    /// No font for the skip label (drawn without text).
    case fontMissing(message: String)
    case logoUnavailable(message: String)
    /// The file broke while reading; what was read still plays.
    case readError(message: String)
    case renderError(message: String)
    /// `--open-links`: the opener could not be started or failed.
    case linkOpenFailed(link: String, message: String)
    /// A control line that was not understood or could not act.
    case controlError(line: String, message: String)
    /// The run is over: always its last line.
    case end(RunEnd)
    /// Embedding only: the ad's first picture (or its fallback) is decoded, so presenting shows
    /// it at once. The command line never writes it.
    case ready

    // MARK: VAST

    /// The response was read.
    case vast(VASTResponse)
    /// One ad of it resolved and a media file chosen.
    case vastAd(VASTAdChosen)
    /// A media file did not open; the next candidate plays.
    case mediaFallback(media: String, code: FailureCode, message: String?)
    /// One ad of a VAST run ended (the run's own `end` comes after the last).
    case adEnd(adID: String?, sequence: Int?, end: RunEnd)

    // MARK: Launch and the cache

    case cacheHit(id: String, sha256: String, file: String)
    case cacheMiss(reason: CacheMissReason)
    /// A first launch plays the manifest's ad from the network.
    case stream(id: String, url: String)
    /// The ad's last picture gave way to the app.
    case handoff(via: HandOff.Ending, appPID: Int, waitedMs: Int)
    /// The `--then` app could not be started (not found, not executable): `launch` exits 127.
    case appNotStarted(app: String, message: String)
    case prefetchStart(manifest: String)
    case prefetchDone(PrefetchSummary)
    /// An ad (or the manifest, or the cache) refused by a refresh.
    case rejected(id: String, reason: String, field: String?)
    case download(Download)
    case evicted(id: String, sha256: String, bytes: Int, reason: String)
    case notModified(id: String, url: String)
    /// The screen trusts keys and the manifest did not pass (unsigned, a bad or unknown
    /// signature, older than what it has, expired): nothing of it is used or kept.
    case manifestRejected(ManifestRefusal, manifest: String)

    // MARK: Delivery

    case outboxError(reason: String)
    case outboxUnavailable(reason: String)
    case reportRefused(reason: String)
    /// `--metrics` (or a manifest's `metrics`) cannot be written: said once, the run goes on.
    case metricsUnavailable(reason: String)
}

/// How a skip came about.
public enum SkipVia: String, Sendable, CaseIterable {
    /// A click or tap on the button.
    case pointer
    /// The Escape key.
    case key
    /// A `skip` control line.
    case host
    /// The window was closed (or the process asked to quit).
    case close
}

/// Why the fallback image replaced the ad.
public enum FallbackReason: Equatable, Sendable {
    /// The ad failed with this code.
    case error(ErrorCode)
    /// A VAST tag yielded no ad and no error.
    case noAd

    /// The `reason` field's text.
    public var text: String {
        switch self {
        case .error(let code): return code.text
        case .noAd: return "no_ad"
        }
    }
}

/// Why `launch` had no cached ad to show at once.
public enum CacheMissReason: String, Sendable {
    /// Nothing was ever cached.
    case empty
    /// Ads are cached, none is due now or fully there.
    case nothingReady = "nothing_ready"
    /// Ads are cached, but none was written from the cache's current manifest as signed by a
    /// key `--trust-key` names (`ManifestTrustCheck.mayPlay`).
    case unverified
}

extension LaunchEvent {
    /// A refresh's refusal as the one line said on stderr: `ID: REASON` for `rejected`, `manifest
    /// URL refused (REASON): ...` for `manifest_rejected`; nil for any other event.
    public var refusalNote: String? {
        switch self {
        case .rejected(let id, let reason, _): return "\(id): \(reason)"
        case .manifestRejected(let refusal, let manifest): return refusal.note(manifest: manifest)
        case .start, .window, .firstFrame, .skipAvailable, .quartile, .progress, .pause, .resume, .mute, .unmute, .skip, .click,
            .complete, .fallback, .waitExpired, .caption, .captions, .captionsError, .icon, .error, .audioUnavailable, .fontMissing,
            .logoUnavailable, .readError, .renderError, .linkOpenFailed, .controlError, .end, .ready, .vast, .vastAd, .mediaFallback,
            .adEnd, .cacheHit, .cacheMiss, .stream, .handoff, .appNotStarted, .prefetchStart, .prefetchDone, .download, .evicted,
            .notModified, .outboxError, .outboxUnavailable, .reportRefused, .metricsUnavailable:
            return nil
        }
    }

    /// The ad's shown time the event carries, if it carries one.
    public var shownMs: Int? {
        switch self {
        case .pause(_, let ms), .resume(_, let ms), .skip(_, let ms), .click(_, let ms), .complete(let ms, _), .progress(_, let ms),
            .skipAvailable(let ms):
            return ms
        case .icon(let e): return e.shownMs
        case .end(let e), .adEnd(_, _, let e): return e.shownMs
        case .error(let e):
            switch e.detail {
            case .truncated(let ms, _), .stalled(let ms, _, _): return ms
            case .none: return nil
            }
        case .start, .window, .firstFrame, .quartile, .mute, .unmute, .fallback, .waitExpired, .caption, .captions, .captionsError,
            .audioUnavailable, .fontMissing, .logoUnavailable, .readError, .renderError, .linkOpenFailed, .controlError, .ready, .vast,
            .vastAd, .mediaFallback, .cacheHit, .cacheMiss, .stream, .handoff, .appNotStarted, .prefetchStart, .prefetchDone,
            .rejected, .download, .evicted, .notModified, .manifestRejected, .outboxError, .outboxUnavailable, .reportRefused,
            .metricsUnavailable:
            return nil
        }
    }
}
