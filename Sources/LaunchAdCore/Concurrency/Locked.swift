import Foundation

/// A value that threads share, read and written only inside ``withLock(_:)``.
///
/// The project's one lock type, in place of Synchronization's `Mutex`: on Linux that `Mutex`
/// waits on the futex system call directly, which ThreadSanitizer does not see, so it reports
/// accesses the lock orders as races (a counter under a `Mutex` on four threads is reported; the
/// same counter here is not). `NSLock` is a pthread mutex, which ThreadSanitizer follows.
public final class Locked<Value>: @unchecked Sendable {
    // unchecked Sendable: `value` is read and written only while `lock` is held.
    private let lock = NSLock()
    private var value: Value

    /// Shares `value`.
    public init(_ value: Value) { self.value = value }

    /// Runs `body` with the value while holding the lock, and returns what it returns.
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
