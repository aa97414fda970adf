import Foundation

/// An ad's `"tracking"` in the manifest: event name to beacon URLs, with VAST's meaning and
/// macros. It is turned into a resolved VAST ad so the same tracker (VASTTracker) decides what
/// fires when, and the same outbox delivers it.
public enum ManifestTracking {
    /// The events a manifest may name.
    public static let events = [
        "impression", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete",
        "skip", "click", "pause", "resume", "mute", "unmute", "error", "notUsed"
    ]

    /// Each event's URLs (http or https, at most 20 per event, 2,000 characters each).
    static func parse(_ json: ManifestJSON?) throws -> [String: [String]]? {
        guard let json, json != .null else { return nil }
        guard case .object(let o) = json else { throw ManifestError("\"tracking\" must be an object of event names to URL arrays") }
        var out: [String: [String]] = [:]
        for (event, value) in o.sorted(by: { $0.key < $1.key }) {
            guard events.contains(event) else {
                throw ManifestError("tracking.\(event) is not an event (use \(events.joined(separator: ", ")))")
            }
            guard case .array(let items) = value, items.count <= 20 else {
                throw ManifestError("tracking.\(event) must be an array of at most 20 URLs")
            }
            out[event] = try items.enumerated().map { i, item in
                guard case .string(let url) = item, url.count <= 2000, Link.isAllowed(url) else {
                    throw ManifestError("tracking.\(event)[\(i)] must be an http or https URL")
                }
                return url
            }
        }
        return out
    }

    /// A resolved VAST ad's merged tracking (every wrapper's and the InLine's) in the manifest's
    /// shape, for the cache index. Progress offsets are not kept.
    public static func from(_ ad: ResolvedAd) -> [String: [String]] {
        var out: [String: [String]] = [:]
        if !ad.impressions.isEmpty { out["impression"] = ad.impressions }
        if !ad.errors.isEmpty { out["error"] = ad.errors }
        if !ad.linear.clickTracking.isEmpty { out["click"] = ad.linear.clickTracking }
        for t in ad.linear.tracking where events.contains(t.event) || vastOnly.contains(t.event) {
            out[t.event, default: []].append(t.url)
        }
        return out
    }

    /// VAST events the index keeps beside the manifest's own.
    static let vastOnly = ["creativeView", "closeLinear", "close"]

    /// The ad's tracking as VAST would carry it: impressions, Error URIs, the linear's
    /// TrackingEvents and ClickTracking, held to `reach` (the manifest's). nil when the ad has none.
    public static func resolvedAd(_ ad: AdEntry, reach: Reach) -> ResolvedAd? {
        guard let tracking = ad.tracking, !tracking.isEmpty else { return nil }
        var linear = VASTLinear()
        linear.duration = ad.duration
        for event in events + vastOnly where !["impression", "error", "click"].contains(event) {
            linear.tracking += (tracking[event] ?? []).map { VASTTracking(event: event, url: $0) }
        }
        linear.clickTracking = tracking["click"] ?? []
        linear.clickThrough = ad.link
        return ResolvedAd(
            id: ad.id, linear: linear, impressions: tracking["impression"] ?? [],
            errors: tracking["error"] ?? [], wrapperDepth: 0, reach: reach)
    }
}
