import Foundation
import LaunchAdCore
import LaunchAdDelivery

/// Passes the player's events on and turns each into the ad's tracking beacons (the core's
/// VASTTracker decides which fire, with their macros), queued durably in the order they happen.
/// Queueing writes files (fsync'd): it runs on a serial queue of its own, never on the thread
/// that draws frames; the ad's `end` goes on only once everything before it is on disk.
final class TrackingSink: EventSink, Sendable {
    private let inner: EventSink
    /// The outbox behind the reach of the ad's document chain.
    private let queue: ReachQueue?
    /// The tracker, and the view tick already asked for (process ms), so one timer is pending at a time.
    private let state: Locked<(tracker: VASTTracker, tickAt: Int?)>
    private let writer = DispatchQueue(label: "launchad-beacon-writer")

    init(_ inner: EventSink, tracker: VASTTracker, queue: ReachQueue?) {
        self.inner = inner; self.state = Locked((tracker, nil)); self.queue = queue
    }

    func emit(_ event: AdEvent) {
        var event = event
        // A player error names its VAST code too, the one its Error URIs are sent with.
        if event.name == "error", event["vast_error"] == nil, case .string(let code)? = event["code"] {
            event.fields.append(("vast_error", .int(VASTError.code(forPlayerError: code))))
        }
        // A late first frame is a VAST error too (402), said as one like the others.
        if event.name == "wait_expired" {
            inner.emit(event)
            emit(
                AdEvent(
                    "error", tMs: event.tMs,
                    [
                        ("code", .string("first_frame_timeout")), ("vast_error", .int(VASTError.mediaTimeout)),
                        ("message", .string("the media file's first frame was not ready in time (--wait)"))
                    ]))
            return
        }
        if event.name != "end" { inner.emit(event) }
        track(event)
        if event.name == "end" {
            writer.sync {}
            inner.emit(event)
        }
    }

    /// The batches `event` fires, handed to the writer; a view tick asked for when one is due.
    private func track(_ event: AdEvent) {
        guard let queue else { return }
        let now = Date()
        let (batches, due, schedule) = state.withLock { s in
            let batches = s.tracker.batches(for: event, at: now, cacheBuster: CacheBuster.next)
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
                self?.track(AdEvent("view_tick", tMs: ProcessClock.nowMs()))
            }
        }
    }
}

/// One ad of a VAST run: its `end` becomes `ad_end` (with the ad's id); the run's single `end`
/// comes after the last ad. Remembers the ad's shown time and whether the window was closed.
final class AdEndSink: EventSink, Sendable {
    private let inner: EventSink
    private let adID: String?
    private let sequence: Int?
    private let seen = Locked<(shownMs: Int, closed: Bool)>((0, false))

    init(_ inner: EventSink, adID: String?, sequence: Int?) { self.inner = inner; self.adID = adID; self.sequence = sequence }

    var shownMs: Int { seen.withLock { $0.shownMs } }
    var closed: Bool { seen.withLock { $0.closed } }

    func emit(_ event: AdEvent) {
        guard event.name == "end" else {
            if event.name == "skip", event["via"] == .string("close") { seen.withLock { $0.closed = true } }
            inner.emit(event)
            return
        }
        if case .int(let ms)? = event["shown_ms"] { seen.withLock { $0.shownMs = ms } }
        var fields: [(String, JSONValue)] = [("ad_id", adID.map { .string($0) } ?? .null)]
        if let sequence { fields.append(("sequence", .int(sequence))) }
        inner.emit(AdEvent("ad_end", tMs: event.tMs, fields + event.fields))
    }
}
