import Foundation
import LaunchAdCore

/// The reach of creatives that will be streamed (`play` of a VAST media file, a first launch's
/// manifest creative), noted by whoever read the document naming them, and read by the byte
/// source that streams them: FFmpeg's open path carries only a URL string.
public enum StreamReach {
    private static let noted = Locked<[String: Reach]>([:])

    /// `url` was named by a document whose URLs have `reach`; the narrowest noting holds.
    public static func note(_ reach: Reach, for url: String) {
        noted.withLock { map in
            if map.count > 10_000 { map.removeAll() }
            map[url] = (map[url] ?? reach).narrowed(reach)
        }
    }

    /// `.any` for URLs nobody noted (the user named them).
    public static func reach(for url: String) -> Reach { noted.withLock { $0[url] } ?? .any }
}

/// A beacon queue for the URLs one document chain names: each enqueue carries the chain's reach,
/// changed as the caller moves from one chain to the next.
public final class ReachQueue: BeaconQueue, Sendable {
    /// The queue beacons go to (the Outbox, for what else it takes: play records).
    public let base: BeaconQueue
    private let current = Locked<Reach>(.any)

    public init(_ base: BeaconQueue) { self.base = base }

    /// `base` with a reach that does not change (nil without a queue).
    public static func fixed(_ base: BeaconQueue?, _ reach: Reach) -> ReachQueue? {
        base.map { base in
            let queue = ReachQueue(base)
            queue.reach = reach
            return queue
        }
    }

    public var reach: Reach {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }

    public func enqueue(beacons urls: [String], event: String, at: Date) {
        base.enqueue(beacons: urls, event: event, at: at, reach: reach)
    }

    public func enqueue(beacons urls: [String], event: String, at: Date, reach: Reach) {
        base.enqueue(beacons: urls, event: event, at: at, reach: reach.narrowed(self.reach))
    }
}
