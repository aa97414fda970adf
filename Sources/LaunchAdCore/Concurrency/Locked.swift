import Foundation

/// A value that threads share, read and written only inside ``withLock(_:)``, and that threads can
/// wait on until it reaches a state another thread brings it to (``wait(until:deadline:then:)``).
///
/// The project's one lock type, in place of Synchronization's `Mutex` and of bare `NSLock`s and
/// `NSCondition`s: on Linux `Mutex` waits on the futex system call directly, which
/// ThreadSanitizer does not see, so it reports accesses the lock orders as races (a counter under
/// a `Mutex` on four threads is reported; the same counter here is not). `NSCondition` is a
/// pthread mutex with its condition variable, which ThreadSanitizer follows. Types built on
/// `Locked` are `Sendable` without `@unchecked`: this is the one place that promises it.
public final class Locked<Value: Sendable>: @unchecked Sendable {
    // unchecked Sendable: `value` is read and written only while `condition` is locked, and is
    // itself Sendable (as swift-nio's NIOLockedValueBox asks): a lock does not make a value that
    // holds unshared state, or a non-Sendable class, safe to reach from two threads.
    private let condition = NSCondition()
    private var value: Value

    /// Shares `value`.
    public init(_ value: Value) { self.value = value }

    /// Runs `body` with the value while holding the lock, and returns what it returns.
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        condition.lock()
        defer { condition.unlock() }
        return try body(&value)
    }

    /// Runs `body` with the value while holding the lock, then wakes every thread waiting in
    /// ``wait(until:deadline:then:)`` to look at the value again.
    public func change<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        return try body(&value)
    }

    /// Waits until `ready` holds for the value (checked under the lock, so no change is missed) or
    /// `deadline` passes, then runs `body` under the same lock with whether it was ready.
    public func wait<Result>(
        until ready: (Value) -> Bool, deadline: Date? = nil, then body: (inout Value, Bool) -> Result
    ) -> Result {
        condition.lock()
        defer { condition.unlock() }
        while !ready(value) {
            if let deadline {
                if !condition.wait(until: deadline) && !ready(value) { return body(&value, false) }
            } else {
                condition.wait()
            }
        }
        return body(&value, true)
    }

    /// Waits until `ready` holds or `deadline` passes; whether it holds.
    @discardableResult
    public func wait(until ready: (Value) -> Bool, deadline: Date? = nil) -> Bool {
        wait(until: ready, deadline: deadline, then: { _, isReady in isReady })
    }

    /// Wakes every waiting thread to look at the value again (a change made outside the value,
    /// such as a wake-up that only a deadline would otherwise notice).
    public func wakeAll() {
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }
}
