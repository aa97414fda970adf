import Foundation
import LaunchAdCore

/// Calls the application's wake-up hook from a thread of its own. Decoders, network threads and
/// the run only mark a wake-up as due, so a hook that is slow or blocks (the header forbids it;
/// a host may still do it) delays the next wake-ups, never a decoded picture or a download.
/// Wake-ups that come while the hook runs are folded into one call after it.
final class Waker: Sendable {
    private struct State: Sendable {
        var hook: (@Sendable () -> Void)?
        var due = false
        var calling = false
        var closed = false
        var started = false
    }
    private let state = Locked(State())

    /// The hook to call (nil: none). Takes effect for the next wake-up.
    func setHook(_ hook: (@Sendable () -> Void)?) {
        let start = state.change { s -> Bool in
            s.hook = hook
            defer { if hook != nil { s.started = true } }
            return hook != nil && !s.started && !s.closed
        }
        guard start else { return }
        let thread = Thread { [state] in Self.run(state) }
        thread.name = "launchad-wakeup"
        thread.start()
    }

    /// A wake-up is due: the hook is called soon, from the waker's thread. Never blocks.
    func wake() { state.change { $0.due = true } }

    /// No hook is called after this returns, unless one is running: that one is waited for at
    /// most `seconds` (the host's own hook holding its own destroy).
    func close(waitingAtMost seconds: Double = 1) {
        state.change { s in
            s.closed = true
            s.hook = nil
        }
        state.wait(until: { !$0.calling }, deadline: Date(timeIntervalSinceNow: seconds))
    }

    private static func run(_ state: Locked<State>) {
        while true {
            let hook = state.wait(
                until: { ($0.due && $0.hook != nil) || $0.closed },
                then: { s, _ -> (@Sendable () -> Void)? in
                    guard !s.closed, let hook = s.hook else { return nil }
                    s.due = false
                    s.calling = true
                    return hook
                })
            guard let hook else { return }
            hook()
            state.change { $0.calling = false }
        }
    }
}
