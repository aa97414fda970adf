import Foundation
import LaunchAdCore

/// The application's way in: one thread at a time inside an ad's calls (others wait their turn,
/// at most a picture's upload), and a call made from inside another on the same thread (the
/// event callback calling back in) is told apart, never deadlocked and never let at state the
/// outer call is using. `Value` is the state those calls share; it is reached only inside `run`,
/// by the thread holding the lock, which is checked.
final class EntryLock<Value>: @unchecked Sendable {
    // unchecked Sendable: `value` is reached only through `run`, by the one thread that `holder`
    // names, and `holder` only under its lock.
    private struct Holder: Sendable {
        var thread: pthread_t?
    }
    private let holder = Locked(Holder())
    private var value: Value

    init(_ value: Value) { self.value = value }

    /// Whether the calling thread is inside a call already (the event callback).
    var isReentrant: Bool { holder.withLock { $0.thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false } }

    /// Runs `body` holding the lock, after the thread inside (if any) leaves; nil without
    /// running it when the calling thread is inside already.
    func run<T>(_ body: (inout Value) -> T) -> T? {
        let me = pthread_self()
        let entered = holder.wait(
            until: { $0.thread == nil || pthread_equal($0.thread!, me) != 0 },
            then: { h, _ -> Bool in
                guard h.thread == nil else { return false }
                h.thread = me
                return true
            })
        guard entered else { return nil }
        defer { holder.change { $0.thread = nil } }
        return body(&value)
    }
}
