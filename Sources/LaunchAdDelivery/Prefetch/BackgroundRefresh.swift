import Foundation
import LaunchAdCore

/// Runs a refresh on its own thread so the ad never waits for it. The launcher can wait for
/// the manifest (first launch) and, after the ad, for the end of the refresh, both bounded.
// Sendable, checked: the manifest and report are under a lock; `before` is fixed at construction.
public final class BackgroundRefresh: Sendable {
    public let prefetcher: Prefetcher
    private let finished = DispatchSemaphore(value: 0)
    private let manifestReady = DispatchSemaphore(value: 0)
    private let outcome = Locked<(manifest: Manifest?, report: PrefetchReport?)>((nil, nil))
    /// Runs on the refresh thread before the refresh (e.g. marking the shown ad in the index).
    private let before: (@Sendable () -> Void)?

    public init(_ prefetcher: Prefetcher, before: (@Sendable () -> Void)? = nil) {
        self.prefetcher = prefetcher
        self.before = before
    }

    public func start() {
        let thread = Thread { [self] in
            before?()
            let r = prefetcher.run(onManifest: { m in
                self.outcome.withLock { $0.manifest = m }
                self.manifestReady.signal()
            })
            outcome.withLock { $0.report = r }
            manifestReady.signal()  // in case the refresh ended before reading a manifest
            finished.signal()
        }
        thread.name = "launchad-refresh"
        thread.start()
    }

    /// The parsed manifest, if it arrives within `timeout` seconds.
    public func waitForManifest(timeout: Double) -> Manifest? {
        _ = manifestReady.wait(timeout: .now() + max(0, timeout))
        return outcome.withLock { $0.manifest }
    }

    /// Waits up to `timeout` seconds for the refresh; past that it is cancelled (it stops before
    /// its next download; everything installed so far is consistent) and given a moment more.
    @discardableResult
    public func finish(timeout: Double) -> PrefetchReport? {
        if finished.wait(timeout: .now() + max(0, timeout)) == .timedOut {
            prefetcher.cancel()
            _ = finished.wait(timeout: .now() + 1)
        } else {
            finished.signal()
        }
        return outcome.withLock { $0.report }
    }
}

/// Passes events through but holds back `end` until `release()`, so `end` stays the stream's
/// last line even when the refresh reports after the ad is over.
public final class HeldEndSink: EventSink, Sendable {
    private let base: EventSink
    private let held = Locked<AdEvent?>(nil)

    public init(_ base: EventSink) { self.base = base }

    public func emit(_ event: AdEvent) {
        if event.name == "end" {
            held.withLock { $0 = event }
        } else {
            base.emit(event)
        }
    }

    /// Changes the held `end`'s outcome (keeping its time and other fields) and adds a reason.
    public func rewriteOutcome(to outcome: Outcome, reason: String) {
        held.withLock { held in
            guard var e = held else { return }
            e.fields =
                e.fields.map { $0.0 == "outcome" ? ("outcome", .string(outcome.rawValue)) : $0 }
                .filter { $0.0 != "reason" } + [("reason", .string(reason))]
            held = e
        }
    }

    /// Sends the held `end`, stamped now: the stream ends when it is written, after everything
    /// the refresh said, so times only go forward (`shown_ms` still tells the ad's own time).
    public func release() {
        var e = held.withLock { held in
            defer { held = nil }; return held
        }
        e?.tMs = ProcessClock.nowMs()
        if let e { base.emit(e) }
    }
}
