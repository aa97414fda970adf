import Foundation

/// The ad server's list of ads, after parsing and validation. Codable so the cache can keep the
/// entries whose creatives it holds.
public struct Manifest: Equatable, Sendable {
    public var ads: [AdEntry]
    /// Where play records go (`"report"`), if anywhere.
    public var report: ReportTarget?
    /// Where a local manifest asks launch to write its Prometheus textfile (`"metrics"`).
    public var metrics: String?
    public init(ads: [AdEntry], report: ReportTarget? = nil, metrics: String? = nil) { self.ads = ads; self.report = report; self.metrics = metrics }
}

public enum AdKind: String, Codable, CaseIterable, Sendable {
    case video, image
}

/// One ad as the manifest describes it.
public struct AdEntry: Codable, Equatable, Sendable {
    public var id: String
    public var kind: AdKind
    public var start: Date?
    public var end: Date?
    public var show: Bool
    public var priority: Int
    public var link: String?
    /// Seconds an image ad is shown (a video lasts its own length unless this caps it).
    public var duration: Double?
    public var skipAfter: Double?
    public var layout: String?
    public var variants: [Creative]
    public var fallback: Creative?
    /// A caption file (WebVTT, SRT, TTML) cached with the creative; no width or height.
    public var captions: Creative?
    /// Beacon URLs per event (`impression`, `start`, ..., `notUsed`), as in `ManifestTracking`.
    public var tracking: [String: [String]]?
    /// `"type": "vast"`: the tag the refresh resolves into a cached video (no variants until then).
    public var vast: String?
    /// A VAST ad's `<Expires>` as a time (tag fetched + seconds), set by the refresh that resolved
    /// it, never by the manifest: past it the cached ad is not shown and the next refresh evicts it.
    public var expiresAt: Date?
    /// Days, hours, time zone, weight and frequency caps; nil: any time, as often as chosen.
    public var schedule: AdSchedule?

    enum CodingKeys: String, CodingKey {
        case id, kind = "type", start, end, show, priority, link, duration, skipAfter = "skip_after",
             layout, variants, fallback, captions, tracking, vast, expiresAt = "expires_at", schedule
    }

    public init(id: String, kind: AdKind = .video, start: Date? = nil, end: Date? = nil, show: Bool = true,
                priority: Int = 0, link: String? = nil, duration: Double? = nil, skipAfter: Double? = nil,
                layout: String? = nil, variants: [Creative], fallback: Creative? = nil, tracking: [String: [String]]? = nil,
                vast: String? = nil) {
        self.id = id; self.kind = kind; self.start = start; self.end = end; self.show = show
        self.priority = priority; self.link = link; self.duration = duration; self.skipAfter = skipAfter
        self.layout = layout; self.variants = variants; self.fallback = fallback; self.tracking = tracking
        self.vast = vast
    }

    /// Inside its time window at `now` (both ends inclusive).
    public func isActive(at now: Date) -> Bool {
        if let start, now < start { return false }
        if let end, now > end { return false }
        return !isResponseExpired(at: now)
    }

    public func isExpired(at now: Date) -> Bool {
        if let end, now > end { return true }
        return isResponseExpired(at: now)
    }

    /// Past the VAST response's `<Expires>` (the tag must be fetched again to show the ad).
    public func isResponseExpired(at now: Date) -> Bool {
        if let expiresAt { return now >= expiresAt }
        return false
    }

    /// All creatives this ad refers to.
    public var creatives: [Creative] { variants + (fallback.map { [$0] } ?? []) + (captions.map { [$0] } ?? []) }
}

/// One media file of an ad, identified by its content.
public struct Creative: Codable, Equatable, Hashable, Sendable {
    public var url: URL
    public var width: Int
    public var height: Int
    public var bytes: Int64
    /// Lowercase hex.
    public var sha256: String

    public init(url: URL, width: Int, height: Int, bytes: Int64, sha256: String) {
        self.url = url; self.width = width; self.height = height; self.bytes = bytes; self.sha256 = sha256
    }

    public var size: Size { Size(width: width, height: height) }
}
