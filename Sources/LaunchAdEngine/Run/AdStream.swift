import Foundation
import LaunchAdCore

/// Watches one ad's events for a core machine (its tracking beacons, its play record) and keeps
/// what that machine says durable; it never passes events on or steers the run.
protocol AdWatcher: Sendable {
    /// Takes one event of the ad, in order.
    func watch(_ event: AdEvent)
    /// Returns once everything the events so far caused is on disk.
    func flush()
}

/// The events of one ad on their way out: each one is watched (tracking, then the record) and
/// then written. With tracking, a player error names its VAST code and a late first frame is a
/// VAST error too (`VASTTracker.annotated`). The ad's own end is given by the run's owner through
/// `adEnded`, so a run decides what its stream says at the end (`ad_end`, or `launch`'s `end`
/// once the app is on screen).
final class AdStream: EventSink, Sendable {
    private let output: EventSink
    private let watchers: [AdWatcher]
    private let annotates: Bool

    /// `tracking` first (its beacons are queued before the record that counts them), then `record`.
    init(_ output: EventSink, tracking: TrackingWatcher? = nil, record: AdWatcher? = nil) {
        self.output = output
        watchers = [tracking as AdWatcher?, record].compactMap { $0 }
        annotates = tracking != nil
    }

    func emit(_ event: AdEvent) {
        let events = annotates ? VASTTracker.annotated(event.event).map { AdEvent($0, tMs: event.tMs) } : [event]
        for e in events {
            watchers.forEach { $0.watch(e) }
            output.emit(e)
        }
    }

    /// The ad is over: `end` (an `.end` or `.adEnd`) is watched, each watcher's work is on disk
    /// before the next sees it, and it is written only when `written`.
    func adEnded(_ end: LaunchEvent, written: Bool) {
        let e = AdEvent(end, tMs: ProcessClock.nowMs())
        for w in watchers {
            w.watch(e)
            w.flush()
        }
        if written { output.emit(e) }
    }
}
