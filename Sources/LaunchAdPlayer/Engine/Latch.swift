import LaunchAdCore

/// A gate that opens once and stays open: threads wait at it until another opens it.
final class Latch: Sendable {
    private let isOpen = Locked(false)

    func open() { isOpen.change { $0 = true } }

    /// Runs `body` once the latch is open.
    func wait<T>(_ body: () throws -> T) rethrows -> T {
        isOpen.wait(until: { $0 })
        return try body()
    }
}
