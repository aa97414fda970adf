import CLaunchAd
import Foundation
import LaunchAdCore

/// A typed event as the C API hands it over: its id, the fields hosts read most, and the whole
/// JSON line. Its strings are copied into `strings`, freed when the delivery is over.
struct CEvent {
    private var strings: [UnsafeMutablePointer<CChar>] = []
    private(set) var event = launchad_event()

    init(_ e: AdEvent) {
        event.id = Self.id(e.event)
        event.t_ms = Int64(e.tMs)
        event.shown_ms = e.event.shownMs.map(Int64.init) ?? -1
        event.name = keep(e.name)
        event.json = keep(e.jsonLine())
        switch e.event {
        case .quartile(let q): event.quartile = Int32(q)
        case .end(let end), .adEnd(_, _, let end):
            event.outcome = Self.outcome(end.outcome)
            event.outcome_name = keep(end.outcome.rawValue)
        case .click(let link, _): event.link = keep(link)
        case .error(let err):
            event.error_code = keep(err.code.text)
            event.message = keep(err.message)
        case .captionsError(let c): event.message = keep(c.message)
        case .audioUnavailable(let m), .fontMissing(let m), .logoUnavailable(let m), .readError(let m), .renderError(let m),
            .linkOpenFailed(_, let m), .controlError(_, let m), .appNotStarted(_, let m):
            event.message = keep(m)
        default: break
        }
    }

    private mutating func keep(_ s: String) -> UnsafePointer<CChar> {
        let p = strdup(s)!
        strings.append(p)
        return UnsafePointer(p)
    }

    func free() { for p in strings { Foundation.free(p) } }

    static func id(_ e: LaunchEvent) -> launchad_event_id {
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
        case .icon: return LAUNCHAD_EVENT_ICON
        case .error: return LAUNCHAD_EVENT_ERROR
        case .audioUnavailable, .fontMissing, .logoUnavailable, .readError, .renderError, .linkOpenFailed, .controlError:
            return LAUNCHAD_EVENT_WARNING
        case .vast: return LAUNCHAD_EVENT_VAST
        case .vastAd: return LAUNCHAD_EVENT_VAST_AD
        case .mediaFallback: return LAUNCHAD_EVENT_MEDIA_FALLBACK
        case .adEnd: return LAUNCHAD_EVENT_AD_END
        case .cacheHit, .cacheMiss, .stream, .handoff, .appNotStarted, .prefetchStart, .prefetchDone, .rejected, .download, .evicted,
            .notModified, .manifestRejected:
            return LAUNCHAD_EVENT_CACHE
        case .outboxError, .outboxUnavailable, .reportRefused, .metricsUnavailable: return LAUNCHAD_EVENT_DELIVERY
        case .end: return LAUNCHAD_EVENT_END
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
