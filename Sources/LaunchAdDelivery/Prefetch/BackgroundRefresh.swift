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
    public func waitForManifest(timeout: Double, cancellation: Cancellation = Cancellation()) -> Manifest? {
        _ = BackgroundRefresh.wait(manifestReady, seconds: timeout, cancellation: cancellation)
        return outcome.withLock { $0.manifest }
    }

    /// Waits up to `timeout` seconds for the refresh; past that it is cancelled (it stops before
    /// its next download; everything installed so far is consistent) and given a moment more.
    /// `cancellation`: the run's; when it is cancelled (a service being stopped) the wait ends at once.
    @discardableResult
    public func finish(timeout: Double, cancellation: Cancellation = Cancellation()) -> PrefetchReport? {
        if BackgroundRefresh.wait(finished, seconds: timeout, cancellation: cancellation) {
            finished.signal()
        } else {
            prefetcher.cancel()
            _ = finished.wait(timeout: .now() + 1)
        }
        return outcome.withLock { $0.report }
    }

    /// Waits for `semaphore` up to `seconds`, in short turns so that the run's cancellation (a
    /// service being stopped) ends the wait at once; true when it was signalled.
    private static func wait(_ semaphore: DispatchSemaphore, seconds: Double, cancellation: Cancellation) -> Bool {
        let deadline = ProcessClock.uptimeSeconds() + max(0, seconds)
        while true {
            let left = deadline - ProcessClock.uptimeSeconds()
            if semaphore.wait(timeout: .now() + max(0, min(left, 0.05))) == .success { return true }
            if left <= 0.05 || cancellation.isCancelled { return false }
        }
    }
}
