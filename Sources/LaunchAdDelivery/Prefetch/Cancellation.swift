import Foundation
import LaunchAdCore

/// A stop signal a waiting thread can sleep on: `cancel` wakes every `sleep` at once, so a
/// refresh told to stop never sits out a retry's backoff (up to 30 s) first.
public final class Cancellation: Sendable {
    private let cancelled = Locked(false)

    public init() {}

    public func cancel() { cancelled.change { $0 = true } }

    public var isCancelled: Bool { cancelled.withLock { $0 } }

    /// Waits `seconds`, or less if cancelled meanwhile; false when cancelled.
    public func sleep(_ seconds: Double) -> Bool {
        !cancelled.wait(until: { $0 }, deadline: Date().addingTimeInterval(seconds))
    }
}
