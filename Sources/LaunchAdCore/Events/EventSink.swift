import Foundation

/// Where events go. Implementations must be safe to call from any thread; a sink writes its
/// events somewhere or hands them to a core machine, and never steers a run.
public protocol EventSink: AnyObject, Sendable {
    func emit(_ event: AdEvent)
}

extension EventSink {
    /// Emits `event` stamped at `tMs` (now, by default).
    public func emit(_ event: LaunchEvent, at tMs: Int = ProcessClock.nowMs()) {
        emit(AdEvent(event, tMs: tMs))
    }
}
