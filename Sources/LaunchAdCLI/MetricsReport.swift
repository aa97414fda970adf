import Foundation
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdEngine

/// Watches a run's events for its metrics, passing every event on unchanged.
// The player's thread and `launch`'s background refresh emit at once.
final class MetricsSink: EventSink, Sendable {
    private let inner: EventSink
    private let metrics: Locked<PlayMetrics>

    init(_ inner: EventSink, adID: String) { self.inner = inner; metrics = Locked(PlayMetrics(adID: adID)) }

    func emit(_ event: AdEvent) {
        metrics.withLock { $0.observe(event) }
        inner.emit(event)
    }

    var run: PlayMetrics { metrics.withLock { $0 } }
}

/// `--metrics FILE` (or a local manifest's `metrics`): checked at start, written at the end.
/// A metrics problem never stops a run: a kiosk under `Restart=always` must not loop on a blank
/// screen because its textfile folder is missing; the ad plays and the app starts.
enum MetricsReport {
    /// `path` when it can be written; else nil after one `metrics_unavailable` event and one
    /// line on stderr, and the run goes on without metrics.
    static func check(_ path: String?, events: EventSink) -> String? {
        guard let path else { return nil }
        do { try MetricsFile(path: path).checkWritable() } catch {
            let reason = "--metrics: \(error)"
            events.emit(.metricsUnavailable(reason: reason))
            say("metrics_unavailable: \(reason)")
            return nil
        }
        return path
    }

    /// Writes the file from the run, the cache and the outbox as they are now; a failure is one line on stderr.
    static func write(_ path: String, run: PlayMetrics?, cache: CacheStore?, outbox: Outbox?) {
        var m = FleetMetrics(version: Command.versionString, now: Date())
        m.run = run
        if let cache {
            let index = cache.readIndex()
            m.lastPrefetch = index.manifest?.checkedAt
            m.signedManifest = index.manifest?.signature
            m.cacheBytes = index.totalBytes
            m.cacheAds = AdSelector.inWindow(index.ads.map(\.ad), now: m.now).count
        }
        if let outbox {
            let s = outbox.status()
            m.outboxPending = s.pending
            m.outboxOldestAgeSeconds = s.oldestAge
            m.beacons = (s.counts.beacons.delivered, s.counts.beacons.refused, s.counts.beacons.expired)
        }
        let file = MetricsFile(path: path)
        let previous: String?
        do { previous = try file.previous() } catch {
            say("metrics: \(error)")
            previous = nil
        }
        do { try file.write(m.text(previous: previous)) } catch {
            say("metrics: \(error)")
        }
    }

    /// One line on stderr, the path and reason escaped for the terminal.
    private static func say(_ text: String) {
        FileHandle.standardError.write(TerminalText.line(text))
    }
}
