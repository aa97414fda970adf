import Foundation

/// The ad server's list of ads, after parsing and validation. Codable so the cache can keep the
/// entries whose creatives it holds.
public struct Manifest: Equatable, Sendable {
    /// The usable ads, in manifest order.
    public var ads: [AdEntry]
    /// Where play records go (`"report"`), if anywhere.
    public var report: ReportTarget?
    /// Where a local manifest asks launch to write its Prometheus textfile (`"metrics"`).
    public var metrics: String?
    /// A manifest of `ads`, with an optional report target and metrics file.
    public init(ads: [AdEntry], report: ReportTarget? = nil, metrics: String? = nil) {
        self.ads = ads; self.report = report; self.metrics = metrics
    }
}

/// What an ad's creatives are (the manifest's `"type"`; a `vast` ad becomes a video).
public enum AdKind: String, Codable, CaseIterable, Sendable {
    case video, image
}

/// One ad as the manifest describes it.
public struct AdEntry: Codable, Equatable, Sendable {
    /// The ad's unique id: one line, at most 200 characters.
    public var id: String
    /// Video or image.
    public var kind: AdKind
    /// Not shown before this time; nil: no start.
    public var start: Date?
    /// Not shown after this time; nil: no end.
    public var end: Date?
    /// False hides the ad without removing it from the manifest (`"show": false`).
    public var show: Bool
    /// Higher wins: only the ads of the highest eligible priority compete (default 0).
    public var priority: Int
    /// The http(s) click-through link, if any.
    public var link: String?
    /// Seconds an image ad is shown (a video lasts its own length unless this caps it).
    public var duration: Double?
    /// Seconds before the skip button can be used; nil leaves it to the command line.
    public var skipAfter: Double?
    /// A `LayoutMode` raw value (`fullscreen`, or `logo-bottom` when launch has a logo); nil leaves it to the command line.
    public var layout: String?
    /// The same creative in different sizes; the one that best fits the screen is shown.
    public var variants: [Creative]
    /// An image shown if the video cannot play or its first frame is late.
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

    /// An ad as the manifest would give it; `expiresAt` and `schedule` start unset.
    public init(
        id: String, kind: AdKind = .video, start: Date? = nil, end: Date? = nil, show: Bool = true,
        priority: Int = 0, link: String? = nil, duration: Double? = nil, skipAfter: Double? = nil,
        layout: String? = nil, variants: [Creative], fallback: Creative? = nil, tracking: [String: [String]]? = nil,
        vast: String? = nil
    ) {
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

    /// Past its `end` or its VAST response's `<Expires>` at `now`: it will not show again as it is.
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
    /// Where the file is: http(s), or file for a local manifest.
    public var url: URL
    /// Width in pixels, as the manifest states it.
    public var width: Int
    /// Height in pixels, as the manifest states it.
    public var height: Int
    /// The file's size in bytes; a download of any other length is refused.
    public var bytes: Int64
    /// Lowercase hex.
    public var sha256: String

    /// A creative at `url` of `width` x `height` pixels, `bytes` long, with digest `sha256`.
    public init(url: URL, width: Int, height: Int, bytes: Int64, sha256: String) {
        self.url = url; self.width = width; self.height = height; self.bytes = bytes; self.sha256 = sha256
    }

    /// Width and height as a `Size`.
    public var size: Size { Size(width: width, height: height) }
}
