import Foundation

/// The Prometheus text exposition (version 0.0.4) a kiosk leaves for node_exporter's textfile
/// collector. Counters of plays and frames carry on from the file the previous run wrote (the
/// file is their state: deleting it restarts them, which Prometheus treats as a counter reset);
/// everything else is a gauge of the state at write time, or a counter the outbox keeps itself.
public struct FleetMetrics: Sendable {
    /// The launchad version, as `launchad_build_info{version=...}`.
    public var version: String
    /// When the file is written: ages (last prefetch, oldest outbox item) are measured to it.
    public var now: Date
    /// This run's play, added to the carried-on counters; nil for a run that played nothing (prefetch).
    public var run: PlayMetrics?
    /// The last time a refresh read the manifest successfully.
    public var lastPrefetch: Date?
    /// Bytes of creatives in the cache.
    public var cacheBytes: Int64?
    /// Ads whose creatives are cached.
    public var cacheAds: Int?
    /// Beacons and play records still owed.
    public var outboxPending: Int?
    /// How long, in seconds, the oldest owed item has waited.
    public var outboxOldestAgeSeconds: Double?
    /// The outbox's own totals of beacons (delivered, refused, expired).
    public var beacons: (delivered: Int, refused: Int, expired: Int)?
    /// The cache's manifest when it was verified with a trusted key: its version and expiry as
    /// gauges, and the refusal counter written from zero for every reason.
    public var signedManifest: ManifestSignatureRecord?

    /// Metrics with nothing measured yet: each field left nil is left out of the file.
    public init(version: String, now: Date) { self.version = version; self.now = now }

    /// The file's text, with the counters of `previous` (the file as the last run left it) carried on.
    public func text(previous: String?) -> String {
        var counters = FleetMetrics.counters(in: previous ?? "")
        if let run {
            if let outcome = run.outcome {
                counters[PrometheusText.series("launchad_plays_total", [("ad", run.adID), ("outcome", outcome)]), default: 0] += 1
            }
            counters["launchad_frames_shown_total", default: 0] += Double(run.framesShown)
            counters["launchad_frames_dropped_total", default: 0] += Double(run.framesDropped)
            for (reason, n) in run.manifestRejections { counters[Self.rejectedSeries(reason), default: 0] += Double(n) }
        }
        // With signing on, every reason's series exists from the first file (an alert on its
        // increase needs the zero before the first refusal).
        if signedManifest != nil { for reason in ManifestRejection.allCases { counters[Self.rejectedSeries(reason), default: 0] += 0 } }
        var out = ""
        func family(_ name: String, _ type: String, _ help: String, _ samples: [(String, Double)]) {
            guard !samples.isEmpty else { return }
            out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
            for (series, value) in samples { out += "\(series) \(FleetMetrics.number(value))\n" }
        }
        let owned = { (name: String) in
            counters.filter { $0.key == name || $0.key.hasPrefix(name + "{") }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        }
        family(
            "launchad_build_info", "gauge", "The launchad version that wrote this file.",
            [(PrometheusText.series("launchad_build_info", [("version", version)]), 1)])
        family("launchad_plays_total", "counter", "Ad runs on this screen by ad and outcome.", owned("launchad_plays_total"))
        family("launchad_frames_shown_total", "counter", "Video pictures presented.", owned("launchad_frames_shown_total"))
        family("launchad_frames_dropped_total", "counter", "Video pictures dropped as late.", owned("launchad_frames_dropped_total"))
        family(
            "launchad_manifest_rejected_total", "counter", "Manifests refused by --trust-key's checks, by reason.",
            owned("launchad_manifest_rejected_total"))
        if let ms = run?.firstFrameMs {
            family(
                "launchad_first_frame_seconds", "gauge", "Process start to the first picture on screen, last run.",
                [("launchad_first_frame_seconds", Double(ms) / 1000)])
        }
        family(
            "launchad_last_run_timestamp_seconds", "gauge", "When this file was written (Unix time).",
            [("launchad_last_run_timestamp_seconds", now.timeIntervalSince1970.rounded())])
        stateFamilies(family)
        return out
    }

    /// The gauges and counters of the screen's state: the manifest's last read, the cache, the
    /// outbox and the beacons; each left out when not measured.
    private func stateFamilies(_ family: (String, String, String, [(String, Double)]) -> Void) {
        if let lastPrefetch {
            family(
                "launchad_prefetch_last_success_timestamp_seconds", "gauge", "The last successful read of the manifest (Unix time).",
                [("launchad_prefetch_last_success_timestamp_seconds", lastPrefetch.timeIntervalSince1970.rounded())])
            family(
                "launchad_prefetch_last_success_age_seconds", "gauge",
                "Seconds since the last successful read of the manifest, at write time.",
                [("launchad_prefetch_last_success_age_seconds", max(0, now.timeIntervalSince(lastPrefetch)).rounded())])
        }
        if let signedManifest {
            family(
                "launchad_manifest_version", "gauge", "The version of the verified manifest the cache holds.",
                [("launchad_manifest_version", Double(signedManifest.version))])
            if let expires = signedManifest.expires {
                family(
                    "launchad_manifest_expires_timestamp_seconds", "gauge",
                    "When the cache's verified manifest expires (Unix time): past it, refreshes refuse it and its ads keep playing.",
                    [("launchad_manifest_expires_timestamp_seconds", expires.timeIntervalSince1970.rounded())])
            }
        }
        if let cacheBytes {
            family("launchad_cache_bytes", "gauge", "Bytes of creatives in the cache.", [("launchad_cache_bytes", Double(cacheBytes))])
        }
        if let cacheAds {
            family("launchad_cache_ads", "gauge", "Ads in the cache ready to show.", [("launchad_cache_ads", Double(cacheAds))])
        }
        if let outboxPending {
            family(
                "launchad_outbox_pending_items", "gauge", "Beacons and play records waiting to be delivered.",
                [("launchad_outbox_pending_items", Double(outboxPending))])
            family(
                "launchad_outbox_oldest_item_age_seconds", "gauge", "Age of the oldest item waiting (0 when none).",
                [("launchad_outbox_oldest_item_age_seconds", (outboxOldestAgeSeconds ?? 0).rounded())])
        }
        if let beacons {
            family(
                "launchad_beacons_total", "counter", "Tracking beacons by what became of them.",
                [("delivered", beacons.delivered), ("expired", beacons.expired), ("refused", beacons.refused)].map {
                    (PrometheusText.series("launchad_beacons_total", [("result", $0.0)]), Double($0.1))
                })
        }
    }

    /// The carried counters of a file this code wrote: `series value` lines of its own families.
    static func counters(in text: String) -> [String: Double] {
        var found: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]), value.isFinite, value >= 0
            else { continue }
            let series = String(line[..<space])
            let name = series.prefix { $0 != "{" }
            if carried.contains(String(name)) {
                found[series] = value
            }
        }
        return found
    }

    /// The counter families carried on from the previous file.
    static let carried: Set<String> = [
        "launchad_plays_total", "launchad_frames_shown_total", "launchad_frames_dropped_total", "launchad_manifest_rejected_total"
    ]

    static func rejectedSeries(_ reason: ManifestRejection) -> String {
        PrometheusText.series("launchad_manifest_rejected_total", [("reason", reason.rawValue)])
    }

    static func number(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15, let whole = Checked.int64(v) { return String(whole) }
        return String(v)
    }
}
