import Foundation

/// A VAST response as LaunchAd reads it (2.0, 3.0, 4.0–4.3): only what a linear video ad needs.
public struct VASTDocument: Equatable, Sendable {
    /// The `<VAST version>` read as one of `VASTParser.supportedVersions`; empty when the tag gives none.
    public var version: String
    /// The `<Ad>` elements, in document order.
    public var ads: [VASTAd]
    /// Root-level `<Error>` URIs (VAST 3+): fired when the response holds no ad.
    public var errors: [String] = []
    /// What was read leniently at the document's level (no version, lower-case element names).
    public var notes: [VASTNote] = []

    /// A document as given; `errors` and `notes` default to none.
    public init(version: String, ads: [VASTAd], errors: [String] = [], notes: [VASTNote] = []) {
        self.version = version; self.ads = ads; self.errors = errors; self.notes = notes
    }
}

/// One `<Ad>`: an InLine (it has the media) or a Wrapper (it points at another tag).
public struct VASTAd: Equatable, Sendable {
    /// The `<Ad id>` attribute.
    public var id: String?
    /// Position in a pod; nil for a standalone ad (the buffet).
    public var sequence: Int?
    /// `<AdSystem>`: the ad server that returned the ad.
    public var adSystem: String?
    /// `<AdTitle>`.
    public var adTitle: String?
    /// `<Impression>` URIs, fired when the ad starts showing.
    public var impressions: [String] = []
    /// The ad's `<Error>` URIs, fired with `[ERRORCODE]` when it fails.
    public var errors: [String] = []
    /// The first `<Linear>` creative (an InLine's plays; a wrapper's carries tracking only); nil when there is none.
    public var linear: VASTLinear?
    /// `<UniversalAdId>` text (4.x).
    public var universalAdId: String?
    /// The `<Wrapper>` part; nil for an InLine.
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

    /// An ad with only `id` and `sequence`; the parser fills in the rest.
    public init(id: String? = nil, sequence: Int? = nil) { self.id = id; self.sequence = sequence }

    /// True for a `<Wrapper>` ad, false for an InLine.
    public var isWrapper: Bool { wrapper != nil }
}

/// A reading of a tag that is not what the spec says but whose intent is clear: accepted, and
/// reported by `validate --vast` as a warning under `rule`.
public struct VASTNote: Equatable, Sendable {
    /// The `validate --vast` rule the note is reported under, e.g. `vast_version`.
    public var rule: String
    /// What was read leniently, in words.
    public var message: String
    /// A note for `rule` saying `message`.
    public init(_ rule: String, _ message: String) { self.rule = rule; self.message = message }
}

/// The bounds a tag is read within: what VAST needs, far from what a hostile tag asks for.
public enum VASTLimits {
    /// Element nesting: VAST needs about 12; deeper is refused (VAST 100) before it can exhaust a stack.
    public static let depth = 64
    /// URIs kept per event per ad (impressions, each tracking event, clicks, errors); the rest are counted.
    public static let urisPerEvent = 200
    /// The largest document read.
    public static let maxBytes = 1_000_000

    /// The budget of one document parsed within `seconds` (`--vast-timeout`).
    public static func budget(seconds: Double) -> ParseBudget {
        ParseBudget(maxBytes: maxBytes, seconds: seconds, limitName: "--vast-timeout")
    }
}

/// One `<Verification>`: its vendor and its `verificationNotExecuted` tracking URIs.
public struct VASTVerification: Equatable, Sendable {
    /// The `vendor` attribute; nil when absent.
    public var vendor: String?
    /// `verificationNotExecuted` tracking URIs, fired since no verification script runs here.
    public var notExecuted: [String] = []
    /// A verification of `vendor` with its not-executed URIs.
    public init(vendor: String?, notExecuted: [String] = []) { self.vendor = vendor; self.notExecuted = notExecuted }
}

/// `<ViewableImpression>`'s three lists.
public struct VASTViewableImpression: Equatable, Sendable {
    /// `<Viewable>` URIs.
    public var viewable: [String] = []
    /// `<NotViewable>` URIs.
    public var notViewable: [String] = []
    /// `<ViewUndetermined>` URIs.
    public var undetermined: [String] = []
    /// Three empty lists.
    public init() {}
    /// True when none of the three lists holds a URI.
    public var isEmpty: Bool { viewable.isEmpty && notViewable.isEmpty && undetermined.isEmpty }
}

/// The `<Wrapper>` part of an ad: where the next document is and how to treat it.
public struct VASTWrapper: Equatable, Sendable {
    /// `<VASTAdTagURI>`: where the next document is (made absolute by `VASTChain.step`).
    public var tagURI: String
    /// `followAdditionalWrappers` (default true): false refuses a further wrapper below this one (300).
    public var followAdditionalWrappers = true
    /// `allowMultipleAds` (default false): true lets the ad be taken from the wrapped response's pod (its first in sequence).
    public var allowMultipleAds = false
    /// `fallbackOnNoAd` (default true): false ends the run when the wrapped response holds no ad.
    public var fallbackOnNoAd = true

    /// A wrapper pointing at `tagURI`, with the attributes' defaults.
    public init(tagURI: String) { self.tagURI = tagURI }
}

/// A `<Linear>` creative (the only kind LaunchAd plays). A wrapper's carries tracking only.
public struct VASTLinear: Equatable, Sendable {
    /// `<Duration>` in seconds (the media's own length wins when known).
    public var duration: Double?
    /// `skipoffset`: when the ad may be skipped; nil when it is not skippable by the tag.
    public var skipOffset: VASTOffset?
    /// The `<MediaFile>` renditions to choose from.
    public var mediaFiles: [VASTMediaFile] = []
    /// `<Tracking>` events, in document order.
    public var tracking: [VASTTracking] = []
    /// `<ClickThrough>`: the landing page a click opens.
    public var clickThrough: String?
    /// `<ClickTracking>` URIs, fired on a click.
    public var clickTracking: [String] = []
    /// `<ClosedCaptionFiles>` and `<Icons>` (VASTCaptionsAndIcons.swift).
    public var captionFiles: [VASTCaptionFile] = []
    /// `<Icons>` (VASTCaptionsAndIcons.swift).
    public var icons: [VASTIcon] = []

    /// An empty creative; the parser fills it in.
    public init() {}
}

/// One `<MediaFile>`: a rendition of the ad's video and the attributes the chooser reads.
public struct VASTMediaFile: Equatable, Sendable {
    /// The media file's URI.
    public var url: String
    /// `delivery`, lower-cased: "progressive" (the default) or "streaming".
    public var delivery: String = "progressive"
    /// The MIME `type`, e.g. "video/mp4"; empty when absent.
    public var type: String = ""
    /// `width` in pixels; 0 when absent or unreadable.
    public var width: Int = 0
    /// `height` in pixels; 0 when absent or unreadable.
    public var height: Int = 0
    /// RFC 6381 codecs (`avc1.42E01E, mp4a.40.2`) or plain names (`h264`).
    public var codec: String?
    /// kbit/s: `bitrate`, else `maxBitrate`.
    public var bitrate: Int?
    /// `apiFramework` (VPAID, SIMID, ...); interactive ones are never played.
    public var apiFramework: String?
    /// The attributes the tag wrote (for `validate --vast`'s required-attribute lint).
    public var declared: Set<String> = ["delivery", "type", "width", "height"]

    /// A progressive media file at `url` with no other attributes.
    public init(url: String) { self.url = url }
}

/// One `<Tracking event="..." offset="...">URI</Tracking>`.
public struct VASTTracking: Equatable, Sendable {
    /// The `event` attribute, e.g. "start", "firstQuartile", "progress".
    public var event: String
    /// `offset` (progress events): when it fires.
    public var offset: VASTOffset?
    /// The URI fired.
    public var url: String

    /// A tracking URI for `event`, with `offset` for progress events.
    public init(event: String, offset: VASTOffset? = nil, url: String) {
        self.event = event; self.offset = offset; self.url = url
    }
}

/// A time into the ad: `HH:MM:SS(.mmm)` or `n%`.
public enum VASTOffset: Hashable, Sendable {
    case seconds(Double)
    case percent(Double)

    /// Parses `HH:MM:SS(.mmm)` or `n%` (0-100), whitespace trimmed; nil for anything else.
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
            parts[2].first?.isNumber == true
        else { return nil }
        return Double(h * 3600 + m * 60) + sec
    }

    /// Milliseconds into an ad of `durationMs` (percentages need it).
    public func milliseconds(of durationMs: Int?) -> Int? {
        switch self {
        case .seconds(let s): return Checked.milliseconds(s)
        case .percent(let p): return durationMs.flatMap { Checked.rounded(Double($0) * p / 100) }
        }
    }

    /// How the offset was written, as a stable key: `00:00:05.000` or `10%`.
    public var label: String {
        switch self {
        case .seconds(let s): return VASTClock.text(ms: Checked.milliseconds(s) ?? 0)
        case .percent(let p): return NumberText.plain(p) + "%"
        }
    }
}

/// `HH:MM:SS.mmm`, the form VAST writes times in (macros, offsets).
public enum VASTClock {
    /// `ms` milliseconds as `HH:MM:SS.mmm`; negative values as zero.
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
