import Foundation
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdPlayer

/// What a front end gives one run in place of process state: how the run learns it must stop,
/// where its one-line notes go, and the service manager it reports to. The command line fills it
/// from its signals, stderr and systemd; the library from its handle (close, nothing printed,
/// no service). Nothing in the engine reads a process global.
public struct RunContext: Sendable {
    /// Whether the run was asked to stop (the command line: a quit signal; the library: close).
    /// The waits after the ad (beacons, the refresh, a slow tag) end on it.
    public let cancellation: Cancellation
    /// A line a person should read (a refused creative, a cache that cannot be used): stderr for
    /// the command line; the library has its events and prints nothing.
    public let note: @Sendable (String) -> Void
    /// systemd's notify socket when the command line runs as a `Type=notify` service.
    public let notifier: ServiceNotifier?
    /// The run's supervisor (`RunSupervisor`), which each player's thread tells it is alive; nil: none.
    public let pulse: PlayerPulse?

    public init(
        cancellation: Cancellation = Cancellation(), note: @escaping @Sendable (String) -> Void, notifier: ServiceNotifier? = nil,
        pulse: PlayerPulse? = nil
    ) {
        self.cancellation = cancellation; self.note = note; self.notifier = notifier; self.pulse = pulse
    }

    /// A run that prints nothing and reports to no service (the library, tests).
    public static func quiet(_ cancellation: Cancellation = Cancellation()) -> RunContext {
        RunContext(cancellation: cancellation, note: { _ in })
    }
}
