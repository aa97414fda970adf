import Foundation
import LaunchAdCore

/// A beacon queue for the URLs one document chain names: each enqueue carries the chain's reach,
/// changed as the caller moves from one chain to the next. Made with a reach (no default), so
/// the tracking code, which only knows URLs, cannot queue a beacon whose origin nobody stated.
public final class ReachQueue: BeaconQueue, Sendable {
    /// The queue beacons go to (the Outbox, for what else it takes: play records).
    public let base: BeaconQueue
    private let current: Locked<Reach>

    /// `base`, each beacon held to `reach` until the caller says otherwise.
    public init(_ base: BeaconQueue, reach: Reach) {
        self.base = base
        current = Locked(reach)
    }

    /// `base` with a reach that does not change (nil without a queue).
    public static func fixed(_ base: BeaconQueue?, _ reach: Reach) -> ReachQueue? { base.map { ReachQueue($0, reach: reach) } }

    public var reach: Reach {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }

    /// Beacons of the chain this queue stands for, at its reach.
    public func enqueue(beacons urls: [String], event: String, at: Date) {
        base.enqueue(beacons: urls, event: event, at: at, reach: reach)
    }

    public func enqueue(beacons urls: [String], event: String, at: Date, reach: Reach) {
        base.enqueue(beacons: urls, event: event, at: at, reach: reach.narrowed(self.reach))
    }
}
