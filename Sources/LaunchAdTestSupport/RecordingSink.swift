import Foundation
import LaunchAdCore

/// Keeps events in memory; for tests and for callers that inspect a run afterwards.
// unchecked Sendable: `stored` is read and written only under `lock`.
public final class RecordingSink: EventSink, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [AdEvent] = []

    public init() {}

    public func emit(_ event: AdEvent) {
        lock.lock(); defer { lock.unlock() }
        stored.append(event)
    }

    public var events: [AdEvent] {
        lock.lock(); defer { lock.unlock() }
        return stored
    }
}
