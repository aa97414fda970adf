import Foundation
import LaunchAdCore

/// A BeaconQueue that keeps what was enqueued, in order, for tests of the tracking decisions.
public final class RecordingBeaconQueue: BeaconQueue, Sendable {
    public struct Entry: Equatable, Sendable {
        public var event: String
        public var urls: [String]
        public var at: Date
        public var reach: Reach
    }

    private let stored = Locked<[Entry]>([])

    public init() {}

    public func enqueue(beacons urls: [String], event: String, at: Date, reach: Reach) {
        stored.withLock { $0.append(Entry(event: event, urls: urls, at: at, reach: reach)) }
    }

    public var entries: [Entry] {
        stored.withLock { $0 }
    }
}
