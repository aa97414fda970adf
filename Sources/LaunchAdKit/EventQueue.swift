import Foundation
import LaunchAdCore

/// The run's events, kept until the application's thread takes them (`drain`), so that they
/// reach it on its own thread, between its calls, never from a decoder's. The stream ends with
/// its `end`: anything reported after it is dropped, as the command line keeps it off the stream.
final class EventQueue: EventSink, Sendable {
    private let state = Locked<(events: [AdEvent], ended: Bool)>(([], false))
    private let wake: @Sendable () -> Void

    init(wake: @escaping @Sendable () -> Void) { self.wake = wake }

    func emit(_ event: AdEvent) {
        let kept = state.withLock { s -> Bool in
            guard !s.ended else { return false }
            s.events.append(event)
            if case .end = event.event { s.ended = true }
            return true
        }
        if kept { wake() }
    }

    /// The events waiting, oldest first.
    func drain() -> [AdEvent] {
        state.withLock { s in
            defer { s.events = [] }
            return s.events
        }
    }
}
