import Foundation
import LaunchAdCLI
import LaunchAdCore
import LaunchAdPlayer

/// Where a flow's players meet an application's loop. The flow (`play`, a VAST pod, `launch`)
/// runs on a thread of its own and hands each ad's player over with `present`, which starts its
/// media at once (the first picture decodes while the application prepares) and waits; the
/// application's thread takes the player, draws it turn by turn and hands its result back.
final class HostStage: AdPresenter, @unchecked Sendable {
    // unchecked Sendable: every field is read and written under `lock`; a player is used by one
    // thread at a time, handed over under it (the flow's thread starts it, the host's drives it).
    private let lock = NSCondition()
    private var waiting: AdPlayer?
    private var result: PlayResult?
    private var aborted = false
    private var flowEnded = false
    /// Called from any thread when the application should take a turn.
    let wake: @Sendable () -> Void

    init(wake: @escaping @Sendable () -> Void) { self.wake = wake }

    // MARK: The flow's side

    func present(_ player: AdPlayer) -> PlayResult {
        player.onWake = { [self] in
            lock.lock(); lock.broadcast(); lock.unlock()
            wake()
        }
        lock.lock()
        let stopped = aborted
        lock.unlock()
        if stopped { return Self.endedByHost }
        player.startMedia()
        lock.lock()
        defer { lock.unlock() }
        waiting = player
        result = nil
        lock.broadcast()
        wake()
        while result == nil && !aborted { lock.wait() }
        let done = result ?? Self.endedByHost
        result = nil
        return done
    }

    /// The flow is over (its `end` written).
    func flowFinished() {
        lock.lock(); flowEnded = true; lock.broadcast(); lock.unlock()
        wake()
    }

    // MARK: The application's side

    /// What `prepare` waits for.
    enum Preparation { case ready, ended, waiting }

    /// Waits until the next player's first picture is ready (or it failed), or the flow ended,
    /// at most until `deadline`.
    func waitUntilPrepared(deadline: Date) -> Preparation {
        lock.lock()
        defer { lock.unlock() }
        while true {
            if let w = waiting, w.readiness != .opening { return .ready }
            if flowEnded { return .ended }
            if !lock.wait(until: deadline) { return waiting == nil ? .waiting : (waiting!.readiness != .opening ? .ready : .waiting) }
        }
    }

    /// The player waiting to be shown, taken by the application's thread.
    func takePlayer() -> AdPlayer? {
        lock.lock()
        defer { lock.unlock() }
        let p = waiting
        waiting = nil
        return p
    }

    /// The player taken is over: its result goes back to the flow.
    func finished(_ r: PlayResult) {
        lock.lock(); result = r; lock.broadcast(); lock.unlock()
    }

    var hasEnded: Bool {
        lock.lock()
        defer { lock.unlock() }
        return flowEnded
    }

    /// Stops the flow: the player waiting (its media started) is returned for the caller to stop
    /// on its thread; every later `present` returns at once.
    func abort() -> AdPlayer? {
        lock.lock()
        defer { lock.unlock() }
        aborted = true
        let p = waiting
        waiting = nil
        lock.broadcast()
        return p
    }

    static let endedByHost = PlayResult(
        end: RunEnd(outcome: .endedByHost, shownMs: 0), error: nil, adShownAtMs: nil, closed: false, gaveWay: false)
}
