import Foundation

/// Which tracking URIs fire for which player event, for one resolved ad (every wrapper's and
/// the InLine's): the impression, creativeView and start when the first frame is on screen; the
/// quartiles and complete on shown time; progress marks; pause/resume, mute/unmute, skip,
/// closeLinear (the window closed) and ClickTracking once the ad shows; the Error URIs with
/// `[ERRORCODE]` when it fails before showing. Each one-time event fires at most once.
public struct VASTTracker: Sendable {
    /// One beacon batch: the VAST event's name and its final URLs (macros filled).
    public struct Batch: Equatable, Sendable {
        /// The VAST event, such as `impression`, `firstQuartile` or `error`.
        public var event: String
        /// The URLs to request, macros filled.
        public var urls: [String]
        /// A batch of `urls` for `event`.
        public init(event: String, urls: [String]) { self.event = event; self.urls = urls }
    }

    /// The ad whose tracking URIs fire.
    public let ad: ResolvedAd
    /// The macro values; the player size and mute state follow the events as they come.
    public var context: MacroContext
    private var durationMs: Int?
    private var shown = false
    private var over = false
    private var fired: Set<String> = []
    private var view: ViewabilityClock

    /// `context` carries what stays the same for the ad (asset, UA, fullscreen, pod position);
    /// the time and cache-buster are set per beacon. `followsFocus`: whether the player pauses
    /// when the window loses focus (without it, focus cannot be known: viewability is undetermined).
    public init(ad: ResolvedAd, context: MacroContext, followsFocus: Bool = true) {
        self.ad = ad
        self.context = context
        durationMs = ad.linear.duration.flatMap(Checked.milliseconds)
        view = ViewabilityClock(determinable: followsFocus)
    }

    /// When (process ms) the ad will have been viewable long enough if nothing changes: the
    /// caller calls `tick(at:)` then, so `Viewable` fires on time without a frame event.
    public var viewableDueMs: Int? { ad.viewable.isEmpty ? nil : view.dueMs }

    /// The batches due at process time `tMs` with no event: `Viewable` once its time has passed.
    public mutating func tick(atMs tMs: Int, at date: Date, cacheBuster: () -> String) -> [Batch] {
        guard !ad.viewable.isEmpty, view.elapse(toMs: tMs) == .viewable else { return [] }
        return expand([("Viewable", ad.viewable.viewable, nil)], at: date, cacheBuster: cacheBuster)
    }

    /// What a VAST run's stream carries for one of the player's events: an `error` names its VAST
    /// code too (the one its Error URIs are sent with), and a late first frame is a VAST error
    /// (402), said as one like the others, after the `wait_expired`.
    public static func annotated(_ event: LaunchEvent) -> [LaunchEvent] {
        switch event {
        case .error(var e) where e.vastError == nil:
            e.vastError = e.code.vastCode
            return [.error(e)]
        case .waitExpired:
            let late = PlayError(
                .failure(.firstFrameTimeout), "the media file's first frame was not ready in time (--wait)",
                vastError: VASTError.mediaTimeout)
            return [event, .error(late)]
        default:
            return [event]
        }
    }

    /// The batches `event` fires. `cacheBuster` gives eight fresh random digits per batch.
    public mutating func batches(for event: AdEvent, at date: Date, cacheBuster: () -> String) -> [Batch] {
        var out: [(String, [String], Int?)] = []
        switch view.observe(event) {
        case .viewable?: out.append(("Viewable", ad.viewable.viewable, event.event.shownMs))
        case .notViewable?: out.append(("NotViewable", ad.viewable.notViewable, event.event.shownMs))
        case .undetermined?: out.append(("ViewUndetermined", ad.viewable.undetermined, event.event.shownMs))
        case nil: break
        }
        if let error = errorCode(for: event.event) {
            return errorBatch(code: error, at: date, cacheBuster: cacheBuster()).map { [$0] } ?? []
        }
        out += fired(by: event.event)
        return expand(out, at: date, cacheBuster: cacheBuster)
    }

    /// The batches of `out`'s tracking events, macros filled; a one-time event only once.
    private mutating func expand(_ out: [(String, [String], Int?)], at date: Date, cacheBuster: () -> String) -> [Batch] {
        var batches: [Batch] = []
        for (name, templates, playhead) in out where !templates.isEmpty {
            // The one-time events fire once; pause, mute and the like each time they happen.
            if !["pause", "resume", "mute", "unmute"].contains(name) {
                guard fired.insert(name).inserted else { continue }
            }
            var c = context
            c.timestamp = date
            c.cacheBusting = cacheBuster()
            c.adPlayheadMs = playhead
            if name == "verificationNotExecuted" { c.reason = 2 }
            batches.append(Batch(event: name, urls: templates.map { MacroExpander.expand($0, c) }))
        }
        return batches
    }

    /// The VAST code whose Error URIs `event` fires, if it is a failure they report: any error
    /// (or a late first frame) before the ad showed; after it showed, only a file that ended
    /// early or stalled (a problem displaying it, 405).
    private func errorCode(for event: LaunchEvent) -> Int? {
        switch event {
        case .error(let e) where !shown: return e.vastError ?? e.code.vastCode
        case .waitExpired where !shown: return VASTError.mediaTimeout
        case .error(let e) where shown && !over && (e.failure == .mediaTruncated || e.failure == .mediaStalled):
            return VASTError.mediaDisplay
        default: return nil
        }
    }

    /// The tracking events `event` fires, with their playhead; what it changes in the macros.
    private mutating func fired(by event: LaunchEvent) -> [(String, [String], Int?)] {
        switch event {
        case .window(let w): context.playerSize = Size(width: w.width, height: w.height)
        case .start(let s):
            // The media's own length wins over <Duration>.
            // (a file's header may say anything: only a plausible length becomes a number)
            if let d = s.duration, d > 0, d < 1e7, let ms = Checked.milliseconds(d) { durationMs = ms }
        case .firstFrame(let fallback):
            guard !fallback, !shown, !over else { break }
            shown = true
            // Verification scripts cannot run here: each vendor is told so ([REASON] 2, not supported).
            return [
                ("impression", ad.impressions, 0), ("creativeView", urls("creativeView"), 0), ("start", urls("start"), 0),
                ("verificationNotExecuted", ad.verifications.flatMap(\.notExecuted), 0)
            ]
        case .quartile(let q) where shown:
            let name = q == 25 ? "firstQuartile" : q == 50 ? "midpoint" : "thirdQuartile"
            return [(name, urls(name), durationMs.map { $0 * q / 100 })]
        case .progress(let mark, let ms) where shown:
            let list = ad.linear.tracking.filter { $0.event == "progress" && $0.offset?.label == mark }.map(\.url)
            return [("progress " + mark, list, ms)]
        case .complete(let ms, _) where shown: return [("complete", urls("complete"), ms)]
        case .pause(_, let ms) where shown && !over: return [("pause", urls("pause"), ms)]
        case .resume(_, let ms) where shown && !over: return [("resume", urls("resume"), ms)]
        case .mute:
            context.muted = true
            if shown { return [("mute", urls("mute"), nil)] }
        case .unmute:
            context.muted = false
            if shown { return [("unmute", urls("unmute"), nil)] }
        case .skip(let via, let ms) where shown:
            return via == .close ? [("closeLinear", urls("closeLinear") + urls("close"), ms)] : [("skip", urls("skip"), ms)]
        case .click(_, let ms) where shown: return [("clickTracking", ad.linear.clickTracking, ms)]
        case .icon(let icon) where shown:
            if let b = IconTracking.beacons(icon, ad: ad) { return [(b.name, b.urls, icon.shownMs)] }  // Icons/IconTracking.swift
        case .end, .adEnd: over = true
        default: break
        }
        return []
    }

    /// The Error URIs with `code`, once per ad (the first failure is the one reported).
    public mutating func errorBatch(code: Int, at date: Date, cacheBuster: String) -> Batch? {
        guard !ad.errors.isEmpty, fired.insert("error").inserted else { return nil }
        return VASTTracker.errorBatch(ad.errors, code: code, context: context, at: date, cacheBuster: cacheBuster)
    }

    /// Error URIs outside a resolved ad (a chain that failed, a response with no ad).
    public static func errorBatch(_ uris: [String], code: Int, context: MacroContext, at date: Date, cacheBuster: String) -> Batch? {
        let safe = uris.filter(Link.isAllowed)
        guard !safe.isEmpty else { return nil }
        var c = context
        c.timestamp = date
        c.cacheBusting = cacheBuster
        c.errorCode = code
        return Batch(event: "error", urls: safe.map { MacroExpander.expand($0, c) })
    }

    private func urls(_ name: String) -> [String] {
        ad.linear.tracking.filter { $0.event == name }.map(\.url)
    }
}

/// The MRC video rule, decided from the player's events: `Viewable` once the ad has been on
/// screen, focused and unpaused for 2 continuous seconds; `NotViewable` if it ends first;
/// `ViewUndetermined` when the display cannot tell (no real display: SDL's dummy or offscreen
/// driver; or focus not followed, `--no-pause-on-blur`). Decided once per ad.
struct ViewabilityClock: Sendable {
    enum Verdict { case viewable, notViewable, undetermined }
    static let continuousMs = 2000
    static let blindDrivers: Set<String> = ["dummy", "offscreen", "evdev", "none"]

    private var determinable: Bool
    private var shown = false
    private var decided = false
    /// When the current unbroken view began (first frame or resume); nil while paused.
    private var since: Int?

    init(determinable: Bool) { self.determinable = determinable }

    var dueMs: Int? { decided ? nil : since.map { $0 + Self.continuousMs } }

    /// Time passes to `tMs` with no event: viewable once the unbroken view is long enough.
    mutating func elapse(toMs tMs: Int) -> Verdict? {
        guard !decided, let s = since, tMs - s >= Self.continuousMs else { return nil }
        return decide(.viewable)
    }

    mutating func observe(_ event: AdEvent) -> Verdict? {
        guard !decided else { return nil }
        // Time already passed counts before whatever this event changes.
        if let s = since, event.tMs - s >= Self.continuousMs { return decide(.viewable) }
        switch event.event {
        case .window(let w): if Self.blindDrivers.contains(w.videoDriver) { determinable = false }
        case .firstFrame(let fallback):
            guard !fallback, !shown else { break }
            shown = true
            if !determinable { return decide(.undetermined) }
            since = event.tMs
        case .pause: since = nil
        case .resume: if shown { since = event.tMs }
        case .end, .adEnd: if shown { return decide(.notViewable) }
        default: break
        }
        return nil
    }

    private mutating func decide(_ v: Verdict) -> Verdict { decided = true; since = nil; return v }
}
