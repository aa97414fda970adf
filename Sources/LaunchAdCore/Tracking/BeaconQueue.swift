import Foundation

/// Where tracking beacons go once decided: the durable outbox in LaunchAdDelivery in the product,
/// a recording fake in tests. `enqueue` returns once the beacons are recorded (for the outbox: on
/// disk), never after sending them, so the playback path never waits on the network.
public protocol BeaconQueue: AnyObject, Sendable {
    /// `urls` are final (macros already expanded); `event` names why they fire (`impression`,
    /// `firstQuartile`, `error`, ...); `at` is the event's time, kept for expiry and for order.
    func enqueue(beacons urls: [String], event: String, at: Date)
    /// The same, for URLs that may reach only the addresses `reach` allows (named by a remote document).
    func enqueue(beacons urls: [String], event: String, at: Date, reach: Reach)
}

extension BeaconQueue {
    /// A queue that sends nothing itself (a test's recording fake) has no addresses to guard.
    public func enqueue(beacons urls: [String], event: String, at: Date, reach: Reach) {
        enqueue(beacons: urls, event: event, at: at)
    }
}
