import Foundation

/// Where the service manager's messages go: systemd's notify socket in the product, a list in tests.
/// `notify` never blocks and never fails the caller: a dead socket must not stop playback.
public protocol ServiceNotifier: AnyObject, Sendable {
    /// One sd_notify datagram (newline-separated `KEY=VALUE` assignments), text escaped by its type.
    func notify(_ message: NotifyMessage)
    /// How often the watchdog wants `WATCHDOG=1` (half of systemd's WatchdogSec=), in ms.
    var pingIntervalMs: Int { get }
}

/// What to tell the service manager as an ad plays (systemd's sd_notify protocol): `READY=1`
/// once the first picture is on screen; `WATCHDOG=1` every `pingIntervalMs`, but only while
/// pictures are presented on schedule (a stalled stream or a hung display stops the pings, so
/// systemd restarts the unit); `STATUS=` whenever what the screen shows changes.
public struct WatchdogPolicy: Sendable {
    /// What the screen shows now, as far as the service manager cares.
    public enum State: Equatable, Sendable {
        /// Nothing on screen yet.
        case waiting
        /// The ad is on screen; `lateMs` is how overdue its next picture is.
        case showing(onSchedule: Bool, lateMs: Int)
        case ended(Outcome)
    }

    /// Least ms between two `WATCHDOG=1` pings (at least 50).
    public let pingIntervalMs: Int
    /// The ad as the status names it.
    public let what: String
    private var readySent = false
    private var lastPingAt: Int?
    private var lastStatus: String?

    /// A policy pinging at most every `pingIntervalMs` (raised to 50) and naming the ad `what` in its status.
    public init(pingIntervalMs: Int, what: String) { self.pingIntervalMs = max(50, pingIntervalMs); self.what = what }

    /// systemd's `WATCHDOG_USEC` (microseconds) as a ping interval: half of it, as sd_notify(3)
    /// advises, at least 50 ms; one second when there is no watchdog (pings are then only news).
    public static func pingInterval(watchdogUsec: String?) -> Int {
        guard let text = watchdogUsec, let usec = Int(text), usec > 0 else { return 1000 }
        return max(50, usec / 2000)
    }

    /// The datagram to send now for `state`, or nil when there is no news.
    public mutating func message(_ state: State, now: Int) -> NotifyMessage? {
        var lines: [NotifyMessage] = []
        switch state {
        case .showing(let onSchedule, _):
            if !readySent { readySent = true; lines.append("READY=1") }
            if onSchedule, lastPingAt.map({ now - $0 >= pingIntervalMs }) ?? true {
                lastPingAt = now
                lines.append("WATCHDOG=1")
            }
        case .waiting, .ended:
            break
        }
        let status = WatchdogPolicy.status(state, what: what)
        if status != lastStatus {
            lastStatus = status
            lines.append(.status(status))
        }
        return lines.isEmpty ? nil : .joined(lines)
    }

    /// The ad as `systemctl status` names it: the manifest's id when `launch` chose it (the cache
    /// file's hash name says nothing to an operator), else the file's name, not a long URL.
    public static func adName(id: String?, source: String) -> String {
        if let id, !id.isEmpty { return id }
        let name = URL(string: source)?.lastPathComponent ?? source
        return name.isEmpty ? source : name
    }

    /// One line for `systemctl status`; whole seconds, so a stall does not send a status per frame.
    static func status(_ state: State, what: String) -> String {
        switch state {
        case .waiting: return "starting \(what)"
        case .showing(true, _): return "showing \(what)"
        case .showing(false, let late): return "stalled: no new picture of \(what) for \(late / 1000) s"
        case .ended(let outcome): return "\(what) ended: \(outcome.rawValue)"
        }
    }
}

extension WatchdogPolicy {
    /// What systemd hears once the `--then` app has started: ready (also after a run with no ad,
    /// so a `Type=notify` unit starts either way) and what runs. From then on the app owns the
    /// screen; launchad pings while it lives, and its exit ends the unit's main process.
    public static func appStarted(_ command: String, pid: Int32) -> NotifyMessage {
        .joined(["READY=1", .status("running \(command) (pid \(pid))")])
    }
}
