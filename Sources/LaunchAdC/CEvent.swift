import CLaunchAd
import Foundation
import LaunchAdCore

/// A typed event as the C API hands it over: its group id and its own kind, the fields of its
/// JSON line typed, and the whole line. Its strings are copied into `strings`, freed when the
/// delivery is over. Every case of `LaunchEvent` is matched by name here (no default), so a new
/// event cannot reach a host as a catch-all.
struct CEvent {
    private var strings: [UnsafeMutablePointer<CChar>] = []
    private(set) var event = launchad_event()

    init(_ e: AdEvent) {
        event.t_ms = Int64(e.tMs)
        event.shown_ms = e.event.shownMs.map(Int64.init) ?? -1
        event.bytes = -1
        event.count = -1
        event.duration_ms = -1
        event.name = keep(e.name)
        event.json = keep(e.jsonLine())
        (event.id, event.kind) = Self.ids(e.event)
        fillPlayer(e.event)
        fillVAST(e.event)
        fillDelivery(e.event)
    }

    private mutating func keep(_ s: String) -> UnsafePointer<CChar> {
        let p = strdup(s)!
        strings.append(p)
        return UnsafePointer(p)
    }

    private mutating func keep(_ s: String?) -> UnsafePointer<CChar>? { s.map { keep($0) } }

    func free() { for p in strings { Foundation.free(p) } }

    /// The fields of the player's events.
    private mutating func fillPlayer(_ e: LaunchEvent) {
        switch e {
        case .start(let s):
            event.url = keep(s.file)
            (event.width, event.height) = (Int32(clamping: s.width), Int32(clamping: s.height))
            event.duration_ms = s.duration.flatMap { Checked.int(($0 * 1000).rounded()) }.map(Int64.init) ?? -1
            event.flag = s.hasAudio ? 1 : 0
        case .window(let w):
            (event.width, event.height) = (Int32(clamping: w.width), Int32(clamping: w.height))
            event.flag = w.fullscreen ? 1 : 0
        case .firstFrame(let fallback): event.flag = fallback ? 1 : 0
        case .quartile(let q): event.quartile = Int32(clamping: q)
        case .progress(let mark, _): event.reason = keep(mark)
        case .pause(let reason, _): event.reason = keep(reason.rawValue)
        case .resume(let reason, _): event.reason = keep(reason.clearedBy)
        case .skip(let via, _): event.reason = keep(via.rawValue)
        case .click(let link, _): event.link = keep(link)
        case .fallback(let reason): event.reason = keep(reason.text)
        case .waitExpired(let ms): event.duration_ms = Int64(ms)
        case .caption(let text, _): event.text = keep(text)
        case .captions(let c):
            event.url = keep(c.file)
            event.count = Int64(c.cues)
        case .captionsError(let c):
            event.url = keep(c.file)
            event.message = keep(c.message)
            event.count = c.skipped.map(Int64.init) ?? -1
        case .icon(let i):
            event.count = Int64(i.index)
            switch i.kind {
            case .view: break
            case .click(let link): event.link = keep(link)
            case .refused(let m), .error(let m): event.message = keep(m)
            }
        case .error(let err):
            event.error_code = keep(err.code.text)
            event.message = keep(err.message)
            event.ad_id = keep(err.adID)
        case .audioUnavailable(let m), .fontMissing(let m), .logoUnavailable(let m), .readError(let m), .renderError(let m):
            event.message = keep(m)
        case .linkOpenFailed(let link, let m):
            event.link = keep(link)
            event.url = keep(link)
            event.message = keep(m)
        case .controlError(let line, let m):
            event.text = keep(line)
            event.message = keep(m)
        case .end(let end): fill(end)
        case .skipAvailable, .mute, .unmute, .complete, .ready: break
        case .vast, .vastAd, .mediaFallback, .adEnd, .cacheHit, .cacheMiss, .stream, .handoff, .appNotStarted, .prefetchStart,
            .prefetchDone, .rejected, .download, .evicted, .notModified, .manifestRejected, .outboxError, .outboxUnavailable,
            .reportRefused, .metricsUnavailable:
            break
        }
    }

    /// The fields of VAST's events.
    private mutating func fillVAST(_ e: LaunchEvent) {
        switch e {
        case .vast(let v):
            event.text = keep(v.version)
            event.count = Int64(v.ads)
        case .vastAd(let a):
            event.ad_id = keep(a.adID)
            event.url = keep(a.media)
            event.reason = keep(a.reason)
            event.count = a.sequence.map(Int64.init) ?? -1
        case .mediaFallback(let media, let code, let message):
            event.url = keep(media)
            event.error_code = keep(code.rawValue)
            event.message = keep(message)
        case .adEnd(let id, let sequence, let end):
            event.ad_id = keep(id)
            fill(end)
            event.count = sequence.map(Int64.init) ?? -1
        case .start, .window, .firstFrame, .skipAvailable, .quartile, .progress, .pause, .resume, .mute, .unmute, .skip, .click,
            .complete, .fallback, .waitExpired, .caption, .captions, .captionsError, .icon, .error, .audioUnavailable, .fontMissing,
            .logoUnavailable, .readError, .renderError, .linkOpenFailed, .controlError, .end, .ready, .cacheHit, .cacheMiss, .stream,
            .handoff, .appNotStarted, .prefetchStart,
            .prefetchDone, .rejected, .download, .evicted, .notModified, .manifestRejected, .outboxError, .outboxUnavailable,
            .reportRefused, .metricsUnavailable:
            break
        }
    }

    /// The fields of the cache's and delivery's events.
    private mutating func fillDelivery(_ e: LaunchEvent) {
        switch e {
        case .cacheHit(let id, let sha, let file):
            event.ad_id = keep(id)
            event.sha256 = keep(sha)
            event.url = keep(file)
        case .cacheMiss(let reason): event.reason = keep(reason.rawValue)
        case .stream(let id, let url), .notModified(let id, let url):
            event.ad_id = keep(id)
            event.url = keep(url)
        case .handoff(let via, let pid, let ms):
            event.reason = keep(via.rawValue)
            event.count = Int64(pid)
            event.duration_ms = Int64(ms)
        case .appNotStarted(let app, let m):
            event.url = keep(app)
            event.message = keep(m)
        case .prefetchStart(let manifest): event.url = keep(manifest)
        case .prefetchDone(let p):
            event.bytes = Int64(p.bytes)
            event.count = Int64(p.downloads)
            event.flag = p.ok ? 1 : 0
        case .rejected(let id, let reason, _):
            event.ad_id = keep(id)
            event.reason = keep(reason)
        case .download(let d):
            event.ad_id = keep(d.id)
            event.bytes = Int64(d.bytes)
            event.sha256 = keep(d.sha256)
        case .evicted(let id, let sha, let bytes, let reason):
            event.ad_id = keep(id)
            event.sha256 = keep(sha)
            event.bytes = Int64(bytes)
            event.reason = keep(reason)
        case .manifestRejected(let refusal, let manifest):
            event.reason = keep(refusal.reason.rawValue)
            event.url = keep(manifest)
            event.message = keep(refusal.message)
        case .outboxError(let r), .outboxUnavailable(let r), .reportRefused(let r), .metricsUnavailable(let r):
            event.reason = keep(r)
        case .start, .window, .firstFrame, .skipAvailable, .quartile, .progress, .pause, .resume, .mute, .unmute, .skip, .click,
            .complete, .fallback, .waitExpired, .caption, .captions, .captionsError, .icon, .error, .audioUnavailable, .fontMissing,
            .logoUnavailable, .readError, .renderError, .linkOpenFailed, .controlError, .end, .ready, .vast, .vastAd, .mediaFallback,
            .adEnd:
            break
        }
    }

    private mutating func fill(_ end: RunEnd) {
        event.outcome = Self.outcome(end.outcome)
        event.outcome_name = keep(end.outcome.rawValue)
        event.reason = keep(end.reason?.rawValue)
        event.count = end.adsPlayed.map(Int64.init) ?? -1
    }

    /// The event's group id (API 0.2's) and its own id.
    static func ids(_ e: LaunchEvent) -> (id: launchad_event_id, kind: launchad_event_id) {
        if let (group, kind) = groupedIDs(e) { return (group, kind) }
        let own = ownID(e)
        return (own, own)
    }

    /// The events API 0.2 delivered under a group id: the group and the event's own id.
    private static func groupedIDs(_ e: LaunchEvent) -> (launchad_event_id, launchad_event_id)? {
        switch e {
        case .audioUnavailable: return (LAUNCHAD_EVENT_WARNING, LAUNCHAD_EVENT_AUDIO_UNAVAILABLE)
        case .fontMissing: return (LAUNCHAD_EVENT_WARNING, LAUNCHAD_EVENT_FONT_MISSING)
        case .logoUnavailable: return (LAUNCHAD_EVENT_WARNING, LAUNCHAD_EVENT_LOGO_UNAVAILABLE)
        case .readError: return (LAUNCHAD_EVENT_WARNING, LAUNCHAD_EVENT_READ_ERROR)
        case .renderError: return (LAUNCHAD_EVENT_WARNING, LAUNCHAD_EVENT_RENDER_ERROR)
        case .linkOpenFailed: return (LAUNCHAD_EVENT_WARNING, LAUNCHAD_EVENT_LINK_OPEN_FAILED)
        case .controlError: return (LAUNCHAD_EVENT_WARNING, LAUNCHAD_EVENT_CONTROL_ERROR)
        case .cacheHit: return (LAUNCHAD_EVENT_CACHE, LAUNCHAD_EVENT_CACHE_HIT)
        case .cacheMiss: return (LAUNCHAD_EVENT_CACHE, LAUNCHAD_EVENT_CACHE_MISS)
        case .stream: return (LAUNCHAD_EVENT_CACHE, LAUNCHAD_EVENT_STREAM)
        case .handoff: return (LAUNCHAD_EVENT_CACHE, LAUNCHAD_EVENT_HANDOFF)
        case .appNotStarted: return (LAUNCHAD_EVENT_CACHE, LAUNCHAD_EVENT_APP_NOT_STARTED)
        case .prefetchStart: return (LAUNCHAD_EVENT_CACHE, LAUNCHAD_EVENT_PREFETCH_START)
        case .prefetchDone: return (LAUNCHAD_EVENT_CACHE, LAUNCHAD_EVENT_PREFETCH_DONE)
        case .rejected: return (LAUNCHAD_EVENT_CACHE, LAUNCHAD_EVENT_REJECTED)
        case .download: return (LAUNCHAD_EVENT_CACHE, LAUNCHAD_EVENT_DOWNLOAD)
        case .evicted: return (LAUNCHAD_EVENT_CACHE, LAUNCHAD_EVENT_EVICTED)
        case .notModified: return (LAUNCHAD_EVENT_CACHE, LAUNCHAD_EVENT_NOT_MODIFIED)
        case .manifestRejected: return (LAUNCHAD_EVENT_CACHE, LAUNCHAD_EVENT_MANIFEST_REJECTED)
        case .outboxError: return (LAUNCHAD_EVENT_DELIVERY, LAUNCHAD_EVENT_OUTBOX_ERROR)
        case .outboxUnavailable: return (LAUNCHAD_EVENT_DELIVERY, LAUNCHAD_EVENT_OUTBOX_UNAVAILABLE)
        case .reportRefused: return (LAUNCHAD_EVENT_DELIVERY, LAUNCHAD_EVENT_REPORT_REFUSED)
        case .metricsUnavailable: return (LAUNCHAD_EVENT_DELIVERY, LAUNCHAD_EVENT_METRICS_UNAVAILABLE)
        case .icon(let i):
            switch i.kind {
            case .view: return (LAUNCHAD_EVENT_ICON, LAUNCHAD_EVENT_ICON_VIEW)
            case .click: return (LAUNCHAD_EVENT_ICON, LAUNCHAD_EVENT_ICON_CLICK)
            case .refused: return (LAUNCHAD_EVENT_ICON, LAUNCHAD_EVENT_ICON_REFUSED)
            case .error: return (LAUNCHAD_EVENT_ICON, LAUNCHAD_EVENT_ICON_ERROR)
            }
        case .start, .window, .firstFrame, .skipAvailable, .quartile, .progress, .pause, .resume, .mute, .unmute, .skip, .click,
            .complete, .fallback, .waitExpired, .caption, .captions, .captionsError, .error, .end, .ready, .vast, .vastAd,
            .mediaFallback, .adEnd:
            return nil
        }
    }

    /// The id of an event that has always had its own.
    private static func ownID(_ e: LaunchEvent) -> launchad_event_id {
        switch e {
        case .start: return LAUNCHAD_EVENT_START
        case .window: return LAUNCHAD_EVENT_WINDOW
        case .firstFrame: return LAUNCHAD_EVENT_FIRST_FRAME
        case .skipAvailable: return LAUNCHAD_EVENT_SKIP_AVAILABLE
        case .quartile: return LAUNCHAD_EVENT_QUARTILE
        case .progress: return LAUNCHAD_EVENT_PROGRESS
        case .pause: return LAUNCHAD_EVENT_PAUSE
        case .resume: return LAUNCHAD_EVENT_RESUME
        case .mute: return LAUNCHAD_EVENT_MUTE
        case .unmute: return LAUNCHAD_EVENT_UNMUTE
        case .skip: return LAUNCHAD_EVENT_SKIP
        case .click: return LAUNCHAD_EVENT_CLICK
        case .complete: return LAUNCHAD_EVENT_COMPLETE
        case .fallback: return LAUNCHAD_EVENT_FALLBACK
        case .waitExpired: return LAUNCHAD_EVENT_WAIT_EXPIRED
        case .caption: return LAUNCHAD_EVENT_CAPTION
        case .captions: return LAUNCHAD_EVENT_CAPTIONS
        case .captionsError: return LAUNCHAD_EVENT_CAPTIONS_ERROR
        case .error: return LAUNCHAD_EVENT_ERROR
        case .vast: return LAUNCHAD_EVENT_VAST
        case .vastAd: return LAUNCHAD_EVENT_VAST_AD
        case .mediaFallback: return LAUNCHAD_EVENT_MEDIA_FALLBACK
        case .adEnd: return LAUNCHAD_EVENT_AD_END
        case .end: return LAUNCHAD_EVENT_END
        case .ready: return LAUNCHAD_EVENT_READY
        case .icon: return LAUNCHAD_EVENT_ICON
        case .audioUnavailable, .fontMissing, .logoUnavailable, .readError, .renderError, .linkOpenFailed, .controlError:
            return LAUNCHAD_EVENT_WARNING
        case .cacheHit, .cacheMiss, .stream, .handoff, .appNotStarted, .prefetchStart, .prefetchDone, .rejected, .download, .evicted,
            .notModified, .manifestRejected:
            return LAUNCHAD_EVENT_CACHE
        case .outboxError, .outboxUnavailable, .reportRefused, .metricsUnavailable: return LAUNCHAD_EVENT_DELIVERY
        }
    }

    static func outcome(_ o: Outcome) -> launchad_outcome {
        switch o {
        case .completed: return LAUNCHAD_OUTCOME_COMPLETED
        case .capped: return LAUNCHAD_OUTCOME_CAPPED
        case .skipped: return LAUNCHAD_OUTCOME_SKIPPED
        case .clicked: return LAUNCHAD_OUTCOME_CLICKED
        case .endedByHost: return LAUNCHAD_OUTCOME_ENDED_BY_HOST
        case .noAd: return LAUNCHAD_OUTCOME_NO_AD
        case .timeout: return LAUNCHAD_OUTCOME_TIMEOUT
        case .error: return LAUNCHAD_OUTCOME_ERROR
        }
    }
}
