import Foundation

/// A stop signal a waiting thread can sleep on: `cancel` wakes every `sleep` at once, so a
/// refresh told to stop never sits out a retry's backoff (up to 30 s) first.
// unchecked Sendable: `cancelled` is guarded by `cond`.
public final class Cancellation: @unchecked Sendable {
    private let cond = NSCondition()
    private var cancelled = false

    public init() {}

    public func cancel() {
        cond.lock(); cancelled = true; cond.broadcast(); cond.unlock()
    }

    public var isCancelled: Bool { cond.lock(); defer { cond.unlock() }; return cancelled }

    /// Waits `seconds`, or less if cancelled meanwhile; false when cancelled.
    public func sleep(_ seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        cond.lock(); defer { cond.unlock() }
        while !cancelled && cond.wait(until: deadline) {}
        return !cancelled
    }
}
