import Foundation
import LaunchAdCore
import LaunchAdDelivery

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
enum MetricsReport {
    /// nil when the file can be written; else the one-line error already printed and exit 2.
    static func check(_ path: String?) -> Int32? {
        guard let path else { return nil }
        do { try MetricsFile(path: path).checkWritable() } catch {
            return PrefetchCommand.fail("--metrics \(path): \(error)", ExitCode.usage)
        }
        return nil
    }

    /// Writes the file from the run, the cache and the outbox as they are now; a failure is one line on stderr.
    static func write(_ path: String, run: PlayMetrics?, cache: CacheStore?, outbox: Outbox?) {
        var m = FleetMetrics(version: Command.versionString, now: Date())
        m.run = run
        if let cache {
            let index = cache.readIndex()
            m.lastPrefetch = index.manifest?.checkedAt
            m.cacheBytes = index.totalBytes
            m.cacheAds = index.ads.count
        }
        if let outbox {
            let s = outbox.status()
            m.outboxPending = s.pending
            m.outboxOldestAgeSeconds = s.oldestAge
            m.beacons = (s.counts.beacons.delivered, s.counts.beacons.refused, s.counts.beacons.expired)
        }
        let file = MetricsFile(path: path)
        do { try file.write(m.text(previous: file.previous())) } catch {
            FileHandle.standardError.write(Data("launchad: metrics: \(error)\n".utf8))
        }
    }
}
