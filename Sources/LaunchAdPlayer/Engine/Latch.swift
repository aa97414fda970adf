import Foundation

/// A gate that opens once and stays open: threads wait at it until another opens it.
// unchecked Sendable: `isOpen` is read and written only under `condition`.
final class Latch: @unchecked Sendable {
    private let condition = NSCondition()
    private var isOpen = false

    func open() {
        condition.lock()
        isOpen = true
        condition.broadcast()
        condition.unlock()
    }

    /// Runs `body` once the latch is open.
    func wait<T>(_ body: () throws -> T) rethrows -> T {
        condition.lock()
        while !isOpen { condition.wait() }
        condition.unlock()
        return try body()
    }
}
