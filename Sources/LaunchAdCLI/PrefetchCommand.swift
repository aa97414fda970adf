import Foundation
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdEngine
import LaunchAdMedia

/// `launchad prefetch`: refreshes the cache and exits (for cron or a systemd timer).
public enum PrefetchCommand {
    public static func run(_ o: PrefetchOptions) -> Int32 {
        let events: EventSink
        do { events = try PlayCommand.eventSink(path: o.eventsPath) } catch {
            return fail("\(error)", ExitCode.usage)
        }
        let metricsPath = MetricsReport.check(o.metricsPath, events: events)
        let store: CacheStore
        let config: PrefetchConfig
        do {
            store = try CacheStore(directory: o.cacheDirectory())
            config = try o.prefetchConfig(screen: o.screen)
        } catch {
            return CLIError.report(error)
        }
        // Each rejection also goes to stderr as one line, for logs and the journal; the metrics
        // count the manifests refused.
        let counted = MetricsSink(events, adID: "")
        let sink = TeeSink([counted, RejectionPrinter()])
        let bar = (o.progress ?? ProgressBar.isTerminal()) ? ProgressBar(total: 0, unit: .bytes) : nil
        // What earlier runs left in the outbox goes out meanwhile; a failed tag's errors and
        // an unshown ad's notUsed beacons go in.
        let outbox = o.delivery.openOutbox(events: sink, network: RunNetwork(o))
        outbox?.startSending()
        var onProgress: (@Sendable (PrefetchProgress) -> Void)?
        if let bar { onProgress = { bar.update($0.doneBytes, total: $0.totalBytes, label: $0.id) } }
        let prefetcher = Prefetcher(
            store: store, fetcher: RunNetwork(o).fetcher, sink: sink, config: config, beacons: outbox, onProgress: onProgress)
        let report = prefetcher.run()
        bar?.finish()
        outbox?.finish(waitingAtMost: o.delivery.beaconWait)
        // The cache's gauges, the refresh's age and its refusals for the fleet; the play counters
        // carry on untouched (this run has no outcome: it counts no play).
        if let path = LaunchRun.metricsPath(given: o.metricsPath, checked: metricsPath, manifest: store.readIndex().manifest?.metrics) {
            MetricsReport.write(path, run: counted.run, cache: store, outbox: outbox)
        }
        // Like every run, the stream ends with one `end`: completed (exit 0) or error (exit 1).
        let outcome: Outcome = report.ok ? .completed : .error
        events.emit(.end(RunEnd(outcome: outcome)))
        return outcome.exitCode
    }

    static func fail(_ message: String, _ code: Int32) -> Int32 {
        FileHandle.standardError.write(TerminalText.line(message))
        return code
    }
}

/// Prints `rejected` events as "launchad: ID: REASON" and `manifest_rejected` ones as "launchad:
/// manifest URL refused (REASON): ..." on stderr, control characters escaped.
final class RejectionPrinter: EventSink, Sendable {
    func emit(_ event: AdEvent) {
        if let note = event.event.refusalNote { FileHandle.standardError.write(TerminalText.line(note)) }
    }
}
