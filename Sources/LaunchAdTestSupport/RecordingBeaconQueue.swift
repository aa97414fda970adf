import Foundation
import LaunchAdCore

/// A BeaconQueue that keeps what was enqueued, in order, for tests of the tracking decisions.
public final class RecordingBeaconQueue: BeaconQueue, @unchecked Sendable { // `stored` is guarded by `lock`
    public struct Entry: Equatable, Sendable {
        public var event: String
        public var urls: [String]
        public var at: Date
    }

    private let lock = NSLock()
    private var stored: [Entry] = []

    public init() {}

    public func enqueue(beacons urls: [String], event: String, at: Date) {
        lock.lock(); defer { lock.unlock() }
        stored.append(Entry(event: event, urls: urls, at: at))
    }

    public var entries: [Entry] {
        lock.lock(); defer { lock.unlock() }
        return stored
    }
}
