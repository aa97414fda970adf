import Foundation
import LaunchAdCore

/// The service manager's view of the run (systemd's watchdog): the session's own judgement of
/// whether pictures are on schedule decides the pings; the player only carries them out.
extension AdPlayer {
    /// Sends what the watchdog policy says for the run's state at `now` (nothing without a notifier).
    func tellService(now: Int) {
        guard let notifier else { return }
        if watchdog == nil {
            watchdog = WatchdogPolicy(
                pingIntervalMs: notifier.pingIntervalMs, what: WatchdogPolicy.adName(id: config.adID, source: config.source))
        }
        let state: WatchdogPolicy.State
        switch session.phase {
        case .waiting: state = .waiting
        case .showing, .leaving: state = .showing(onSchedule: session.watch.isOnSchedule(now: now), lateMs: session.watch.lateMs(now: now))
        case .ended(let outcome): state = .ended(outcome)
        }
        if let message = watchdog?.message(state, now: now) { notifier.notify(message) }
    }
}
