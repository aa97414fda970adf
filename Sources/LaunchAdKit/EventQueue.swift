import Foundation
import LaunchAdCore

/// The run's events, kept until the application's side takes them (`drain`), so that they
/// reach it between its calls, never from a decoder's thread. The stream ends with its `end`:
/// anything reported after it is dropped, as the command line keeps it off the stream.
final class EventQueue: EventSink, Sendable {
    private struct State: Sendable {
        var events: [AdEvent] = []
        var ended = false
        /// The first error's code, for `prepare`'s answer (a library that cannot be loaded).
        var firstError: ErrorCode?
    }
    private let state = Locked(State())
    private let wake: @Sendable () -> Void

    init(wake: @escaping @Sendable () -> Void) { self.wake = wake }

    func emit(_ event: AdEvent) {
        let kept = state.withLock { s -> Bool in
            guard !s.ended else { return false }
            s.events.append(event)
            if case .error(let e) = event.event, s.firstError == nil { s.firstError = e.code }
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

    /// The first error the run reported, if any.
    var firstError: ErrorCode? { state.withLock { $0.firstError } }
}
