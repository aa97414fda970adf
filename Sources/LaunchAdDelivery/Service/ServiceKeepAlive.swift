import Foundation
import LaunchAdCore

/// `WATCHDOG=1` every `pingIntervalMs` on a timer thread, for as long as the `--then` app runs
/// (its exit ends launchad, and with it the unit's main process).
// unchecked Sendable: owns an OS resource (a Dispatch timer source, not Sendable), set in init
// and cancelled once.
public final class ServiceKeepAlive: @unchecked Sendable {
    private let timer: DispatchSourceTimer

    public init(_ notifier: ServiceNotifier) {
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "launchad-watchdog"))
        let interval = DispatchTimeInterval.milliseconds(notifier.pingIntervalMs)
        timer.schedule(deadline: .now(), repeating: interval)
        timer.setEventHandler { notifier.notify("WATCHDOG=1") }
        timer.resume()
    }

    public func stop() { timer.cancel() }
    deinit { timer.cancel() }
}
