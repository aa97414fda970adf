import Foundation

/// Where tracking beacons go once decided: the durable outbox in LaunchAdDelivery in the product,
/// a recording fake in tests. `enqueue` returns once the beacons are recorded (for the outbox: on
/// disk), never after sending them, so the playback path never waits on the network.
public protocol BeaconQueue: AnyObject, Sendable {
    /// `urls` are final (macros already expanded); `event` names why they fire (`impression`,
    /// `firstQuartile`, `error`, ...); `at` is the event's time, kept for expiry and for order;
    /// `reach` the addresses they may reach (`.publicOnly` when a remote document named them).
    /// The reach has no default: a beacon whose origin nobody stated cannot be queued.
    func enqueue(beacons urls: [String], event: String, at: Date, reach: Reach)
}
