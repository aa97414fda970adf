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
        durationMs = ad.linear.duration.map { Int(($0 * 1000).rounded()) }
        view = ViewabilityClock(determinable: followsFocus)
    }

    /// When (process ms) the ad will have been viewable long enough if nothing changes: the
    /// caller sends a `view_tick` event then, so `Viewable` fires on time without a frame event.
    public var viewableDueMs: Int? { ad.viewable.isEmpty ? nil : view.dueMs }

    /// The batches `event` fires. `cacheBuster` gives eight fresh random digits per batch.
    public mutating func batches(for event: AdEvent, at date: Date, cacheBuster: () -> String) -> [Batch] {
        var out: [(String, [String], Int?)] = []
        let shownMs = event["shown_ms"].flatMap(Self.int)
        switch view.observe(event) {
        case .viewable?: out.append(("Viewable", ad.viewable.viewable, shownMs))
        case .notViewable?: out.append(("NotViewable", ad.viewable.notViewable, shownMs))
        case .undetermined?: out.append(("ViewUndetermined", ad.viewable.undetermined, shownMs))
        case nil: break
        }
        switch event.name {
        case "window":
            if let w = event["width"].flatMap(Self.int), let h = event["height"].flatMap(Self.int) {
                context.playerSize = Size(width: w, height: h)
            }
        case "start":
            // The media's own length wins over <Duration>.
            if case .double(let d)? = event["duration"], d > 0 { durationMs = Int((d * 1000).rounded()) }
            if case .int(let d)? = event["duration"], d > 0 { durationMs = d * 1000 }
        case "first_frame":
            guard event["fallback"] != .bool(true), !shown, !over else { break }
            shown = true
            out.append(("impression", ad.impressions, 0))
            out.append(("creativeView", urls("creativeView"), 0))
            out.append(("start", urls("start"), 0))
            // Verification scripts cannot run here: each vendor is told so ([REASON] 2, not supported).
            out.append(("verificationNotExecuted", ad.verifications.flatMap(\.notExecuted), 0))
        case "quartile" where shown:
            let q = event["quartile"].flatMap(Self.int) ?? 0
            let name = q == 25 ? "firstQuartile" : q == 50 ? "midpoint" : "thirdQuartile"
            out.append((name, urls(name), durationMs.map { $0 * q / 100 }))
        case "progress" where shown:
            guard case .string(let mark)? = event["mark"] else { break }
            let list = ad.linear.tracking.filter { $0.event == "progress" && $0.offset?.label == mark }.map(\.url)
            out.append(("progress " + mark, list, shownMs))
        case "complete" where shown:
            out.append(("complete", urls("complete"), shownMs))
        case "pause" where shown && !over, "resume" where shown && !over, "mute" where shown, "unmute" where shown:
            out.append((event.name, urls(event.name), shownMs))
        case "skip" where shown:
            if event["via"] == .string("close") {
                out.append(("closeLinear", urls("closeLinear") + urls("close"), shownMs))
            } else {
                out.append(("skip", urls("skip"), shownMs))
            }
        case "click" where shown:
            out.append(("clickTracking", ad.linear.clickTracking, shownMs))
        case "icon_view" where shown, "icon_click" where shown:
            if let b = IconTracking.beacons(event, ad: ad) { out.append((b.name, b.urls, shownMs)) }  // Icons/IconTracking.swift
        case "error" where shown && !over && (event["code"] == .string("media_truncated") || event["code"] == .string("media_stalled")):
            // The file ended early, or stalled, after it was shown: a problem displaying the media file (405).
            return errorBatch(code: VASTError.mediaDisplay, at: date, cacheBuster: cacheBuster()).map { [$0] } ?? []
        case "error" where !shown, "wait_expired" where !shown:
            let code: Int
            if case .int(let c)? = event["vast_error"] {
                code = c
            } else if event.name == "wait_expired" {
                code = VASTError.mediaTimeout
            } else {
                guard case .string(let c)? = event["code"] else { break }
                code = VASTError.code(forPlayerError: c)
            }
            return errorBatch(code: code, at: date, cacheBuster: cacheBuster()).map { [$0] } ?? []
        case "end":
            over = true
        default:
            break
        }
        if event.name == "mute" { context.muted = true }
        if event.name == "unmute" { context.muted = false }
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

    private static func int(_ v: JSONValue) -> Int? {
        switch v {
        case .int(let i): return i
        case .double(let d): return Int(d)
        default: return nil
        }
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

    mutating func observe(_ event: AdEvent) -> Verdict? {
        guard !decided else { return nil }
        // Time already passed counts before whatever this event changes.
        if let s = since, event.tMs - s >= Self.continuousMs { return decide(.viewable) }
        switch event.name {
        case "window":
            if case .string(let driver)? = event["video_driver"], Self.blindDrivers.contains(driver) { determinable = false }
        case "first_frame":
            guard event["fallback"] != .bool(true), !shown else { break }
            shown = true
            if !determinable { return decide(.undetermined) }
            since = event.tMs
        case "pause": since = nil
        case "resume": if shown { since = event.tMs }
        case "end": if shown { return decide(.notViewable) }
        default: break
        }
        return nil
    }

    private mutating func decide(_ v: Verdict) -> Verdict { decided = true; since = nil; return v }
}
