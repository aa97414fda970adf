import Foundation
import LaunchAdEngine
import LaunchAdCore
import LaunchAdPlayer

/// Where a flow's players meet an application's loop. The flow (`play`, a VAST pod, `launch`)
/// runs on a thread of its own and hands each ad's player over with `present`, which starts its
/// media at once (the first picture decodes while the application prepares) and waits; the
/// application's thread takes the player, draws it turn by turn and hands its result back.
final class HostStage: AdPresenter, Sendable {
    /// A player is used by one thread at a time, handed over under the lock (the flow's thread
    /// starts it, the host's drives it).
    private struct State {
        var waiting: AdPlayer?
        var result: PlayResult?
        var aborted = false
        var flowEnded = false
        /// Counts the players' wake-ups, so a waiter looks at their readiness again.
        var wakes = 0
    }
    private let state = Locked(State())
    /// Called from any thread when the application should take a turn.
    let wake: @Sendable () -> Void

    init(wake: @escaping @Sendable () -> Void) { self.wake = wake }

    // MARK: The flow's side

    func present(_ player: AdPlayer) -> PlayResult {
        player.onWake = { [state, wake] in
            state.change { $0.wakes &+= 1 }
            wake()
        }
        if state.withLock({ $0.aborted }) { return Self.endedByHost }
        player.startMedia()
        state.change {
            $0.waiting = player
            $0.result = nil
        }
        wake()
        return state.wait(
            until: { $0.result != nil || $0.aborted },
            then: { s, _ in
                defer { s.result = nil }
                return s.result ?? Self.endedByHost
            })
    }

    /// The flow is over (its `end` written).
    func flowFinished() {
        state.change { $0.flowEnded = true }
        wake()
    }

    // MARK: The application's side

    /// What `prepare` waits for.
    enum Preparation { case ready, ended, waiting }

    /// Waits until the next player's first picture is ready (or it failed), or the flow ended,
    /// at most until `deadline`.
    func waitUntilPrepared(deadline: Date) -> Preparation {
        func isReady(_ s: State) -> Bool { s.waiting.map { $0.readiness != .opening } ?? false }
        return state.wait(
            until: { isReady($0) || $0.flowEnded }, deadline: deadline,
            then: { s, _ in
                if isReady(s) { return .ready }
                return s.flowEnded ? .ended : .waiting
            })
    }

    /// The player waiting to be shown, taken by the application's thread.
    func takePlayer() -> AdPlayer? {
        state.withLock { s in
            defer { s.waiting = nil }
            return s.waiting
        }
    }

    /// The player taken is over: its result goes back to the flow.
    func finished(_ r: PlayResult) { state.change { $0.result = r } }

    var hasEnded: Bool { state.withLock { $0.flowEnded } }

    /// Stops the flow: the player waiting (its media started) is returned for the caller to stop
    /// on its thread; every later `present` returns at once.
    func abort() -> AdPlayer? {
        state.change { s in
            s.aborted = true
            defer { s.waiting = nil }
            return s.waiting
        }
    }

    static let endedByHost = PlayResult(
        end: RunEnd(outcome: .endedByHost, shownMs: 0), error: nil, adShownAtMs: nil, closed: false, gaveWay: false)
}
