import Foundation

/// A VAST response as LaunchAd reads it (2.0, 3.0, 4.0–4.3): only what a linear video ad needs.
public struct VASTDocument: Equatable, Sendable {
    public var version: String
    public var ads: [VASTAd]
    /// Root-level `<Error>` URIs (VAST 3+): fired when the response holds no ad.
    public var errors: [String] = []
    /// What was read leniently at the document's level (no version, lower-case element names).
    public var notes: [VASTNote] = []

    public init(version: String, ads: [VASTAd], errors: [String] = [], notes: [VASTNote] = []) {
        self.version = version; self.ads = ads; self.errors = errors; self.notes = notes
    }
}

/// One `<Ad>`: an InLine (it has the media) or a Wrapper (it points at another tag).
public struct VASTAd: Equatable, Sendable {
    public var id: String?
    /// Position in a pod; nil for a standalone ad (the buffet).
    public var sequence: Int?
    public var adSystem: String?
    public var adTitle: String?
    public var impressions: [String] = []
    public var errors: [String] = []
    public var linear: VASTLinear?
    /// `<UniversalAdId>` text (4.x).
    public var universalAdId: String?
    public var wrapper: VASTWrapper?
    /// `<Expires>` (VAST 4.x): seconds the response stays valid after it was received; nil when
    /// absent or not a whole number of seconds.
    public var expires: Int?
    /// `<AdVerifications>` (VAST 4.1+, or 4.0's `AdVerifications` extension): never run here.
    public var verifications: [VASTVerification] = []
    /// `<ViewableImpression>`: the URIs told whether the ad was viewable.
    public var viewable = VASTViewableImpression()
    /// Whether the ad has a `<NonLinearAds>` creative (an overlay this player does not show).
    public var hasNonLinear = false
    /// Why this ad alone cannot play (a malformed duration, offset, skipoffset or wrapper): it
    /// fails with this code and its own Error URIs while the rest of the response carries on.
    public var problem: VASTError?
    /// What was read leniently in this ad (plain-seconds duration, whitespace), for `validate --vast`.
    public var notes: [VASTNote] = []
    /// URIs left out by the per-event cap (`VASTLimits.urisPerEvent`), by event.
    public var urisDropped: [String: Int] = [:]

    public init(id: String? = nil, sequence: Int? = nil) { self.id = id; self.sequence = sequence }

    public var isWrapper: Bool { wrapper != nil }
}

/// A reading of a tag that is not what the spec says but whose intent is clear: accepted, and
/// reported by `validate --vast` as a warning under `rule`.
public struct VASTNote: Equatable, Sendable {
    public var rule: String
    public var message: String
    public init(_ rule: String, _ message: String) { self.rule = rule; self.message = message }
}

/// The bounds a tag is read within: what VAST needs, far from what a hostile tag asks for.
public enum VASTLimits {
    /// Element nesting: VAST needs about 12; deeper is refused (VAST 100) before it can exhaust a stack.
    public static let depth = 64
    /// URIs kept per event per ad (impressions, each tracking event, clicks, errors); the rest are counted.
    public static let urisPerEvent = 200
}

/// One `<Verification>`: its vendor and its `verificationNotExecuted` tracking URIs.
public struct VASTVerification: Equatable, Sendable {
    public var vendor: String?
    public var notExecuted: [String] = []
    public init(vendor: String?, notExecuted: [String] = []) { self.vendor = vendor; self.notExecuted = notExecuted }
}

/// `<ViewableImpression>`'s three lists.
public struct VASTViewableImpression: Equatable, Sendable {
    public var viewable: [String] = []
    public var notViewable: [String] = []
    public var undetermined: [String] = []
    public init() {}
    public var isEmpty: Bool { viewable.isEmpty && notViewable.isEmpty && undetermined.isEmpty }
}

/// The `<Wrapper>` part of an ad: where the next document is and how to treat it.
public struct VASTWrapper: Equatable, Sendable {
    public var tagURI: String
    public var followAdditionalWrappers = true
    public var allowMultipleAds = false
    public var fallbackOnNoAd = true

    public init(tagURI: String) { self.tagURI = tagURI }
}

/// A `<Linear>` creative (the only kind LaunchAd plays). A wrapper's carries tracking only.
public struct VASTLinear: Equatable, Sendable {
    /// `<Duration>` in seconds (the media's own length wins when known).
    public var duration: Double?
    public var skipOffset: VASTOffset?
    public var mediaFiles: [VASTMediaFile] = []
    public var tracking: [VASTTracking] = []
    public var clickThrough: String?
    public var clickTracking: [String] = []

    public init() {}
}

public struct VASTMediaFile: Equatable, Sendable {
    public var url: String
    public var delivery: String = "progressive"
    public var type: String = ""
    public var width: Int = 0
    public var height: Int = 0
    /// RFC 6381 codecs (`avc1.42E01E, mp4a.40.2`) or plain names (`h264`).
    public var codec: String?
    /// kbit/s: `bitrate`, else `maxBitrate`.
    public var bitrate: Int?
    public var apiFramework: String?
    /// The attributes the tag wrote (for `validate --vast`'s required-attribute lint).
    public var declared: Set<String> = ["delivery", "type", "width", "height"]

    public init(url: String) { self.url = url }
}

/// One `<Tracking event="..." offset="...">URI</Tracking>`.
public struct VASTTracking: Equatable, Sendable {
    public var event: String
    public var offset: VASTOffset?
    public var url: String

    public init(event: String, offset: VASTOffset? = nil, url: String) {
        self.event = event; self.offset = offset; self.url = url
    }
}

/// A time into the ad: `HH:MM:SS(.mmm)` or `n%`.
public enum VASTOffset: Hashable, Sendable {
    case seconds(Double)
    case percent(Double)

    public init?(parsing raw: String) {
        let s = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if s.hasSuffix("%") {
            guard let p = Double(s.dropLast()), p.isFinite, p >= 0, p <= 100 else { return nil }
            self = .percent(p)
            return
        }
        guard let t = VASTOffset.clockSeconds(s) else { return nil }
        self = .seconds(t)
    }

    /// `HH:MM:SS` or `HH:MM:SS.mmm` in seconds.
    public static func clockSeconds(_ s: String) -> Double? {
        let parts = s.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let h = Int(parts[0]), let m = Int(parts[1]), let sec = Double(parts[2]),
              (0...99_999).contains(h), (0..<60).contains(m), sec >= 0, sec < 60, sec.isFinite,
              parts[2].first?.isNumber == true else { return nil }
        return Double(h * 3600 + m * 60) + sec
    }

    /// Milliseconds into an ad of `durationMs` (percentages need it).
    public func milliseconds(of durationMs: Int?) -> Int? {
        switch self {
        case .seconds(let s): return Int((s * 1000).rounded())
        case .percent(let p): return durationMs.map { Int((Double($0) * p / 100).rounded()) }
        }
    }

    /// How the offset was written, as a stable key: `00:00:05.000` or `10%`.
    public var label: String {
        switch self {
        case .seconds(let s): return VASTClock.text(ms: Int((s * 1000).rounded()))
        case .percent(let p): return NumberText.plain(p) + "%"
        }
    }
}

/// `HH:MM:SS.mmm`, the form VAST writes times in (macros, offsets).
public enum VASTClock {
    public static func text(ms: Int) -> String {
        let v = max(0, ms)
        let h = v / 3_600_000, m = v / 60_000 % 60, s = v / 1000 % 60, milli = v % 1000
        return pad(h, 2) + ":" + pad(m, 2) + ":" + pad(s, 2) + "." + pad(milli, 3)
    }

    static func pad(_ n: Int, _ width: Int) -> String {
        let t = String(n)
        return String(repeating: "0", count: max(0, width - t.count)) + t
    }
}
