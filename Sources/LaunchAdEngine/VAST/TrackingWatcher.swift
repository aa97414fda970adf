import Foundation
import LaunchAdCore
import LaunchAdDelivery

/// Turns an ad's events into its tracking beacons (the core's VASTTracker decides which fire,
/// with their macros), queued durably in the order they happen. Queueing writes files
/// (fsync'd): it runs on a serial queue of its own, never on the thread that draws frames.
final class TrackingWatcher: AdWatcher, Sendable {
    /// The outbox behind the reach of the ad's document chain.
    private let queue: ReachQueue?
    /// The tracker, and the view tick already asked for (process ms), so one timer is pending at a time.
    private let state: Locked<(tracker: VASTTracker, tickAt: Int?)>
    private let writer = DispatchQueue(label: "launchad-beacon-writer")

    init(tracker: VASTTracker, queue: ReachQueue?) {
        self.state = Locked((tracker, nil)); self.queue = queue
    }

    func watch(_ event: AdEvent) {
        send { $0.batches(for: event, at: $1, cacheBuster: CacheBuster.next) }
    }

    func flush() { writer.sync {} }

    /// The batches the tracker gives, handed to the writer; a view tick asked for when one is due.
    private func send(_ decide: (inout VASTTracker, Date) -> [VASTTracker.Batch]) {
        guard let queue else { return }
        let now = Date()
        let (batches, due, schedule) = state.withLock { s in
            let batches = decide(&s.tracker, now)
            let due = s.tracker.viewableDueMs
            let schedule = due != nil && due != s.tickAt
            if schedule { s.tickAt = due }
            return (batches, due, schedule)
        }
        if !batches.isEmpty {
            writer.async { for b in batches { queue.enqueue(beacons: b.urls, event: b.event, at: now) } }
        }
        if schedule, let due {
            // `Viewable` is due then if nothing changes; no player event may come at that moment.
            let wait = Double(max(0, due - ProcessClock.nowMs())) / 1000
            DispatchQueue.global().asyncAfter(deadline: .now() + wait) { [weak self] in
                self?.send { $0.tick(atMs: ProcessClock.nowMs(), at: $1, cacheBuster: CacheBuster.next) }
            }
        }
    }
}
