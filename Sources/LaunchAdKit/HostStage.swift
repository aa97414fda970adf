import Foundation
import LaunchAdCore
import LaunchAdEngine
import LaunchAdPlayer

/// Where a run's players meet an application's calls. The run (`play`, a VAST pod, `launch`)
/// goes on a thread of its own and hands each ad's player over with `present`, which starts its
/// media at once and judges it until it is ready (a creative that fails gives way to its
/// fallback or the next media file, as the session decides), says `ready` once, and then hands
/// it to the application's side, which draws it turn by turn and hands its result back. The
/// player is held by one side at a time (`Confined`): never by two threads at once.
final class HostStage: AdPresenter, Sendable {
    private struct State: Sendable {
        /// The player the application's side may take.
        var waiting: Confined<AdPlayer>?
        var result: PlayResult?
        var aborted = false
        var flowEnded = false
        /// The application presented (or dismissed): a player is handed over as it is, ready or
        /// not, so that `--wait` and the fallback play out in its loop.
        var presented = false
        /// `ready` was said for this run.
        var readySaid = false
        /// Counts the players' wake-ups, so the run looks at their readiness again.
        var wakes = 0
    }
    private let state = Locked(State())
    /// Called from any thread when the application should take a turn.
    private let wake: @Sendable () -> Void
    /// Where `ready` goes (the run's events).
    private let events: EventSink

    init(events: EventSink, wake: @escaping @Sendable () -> Void) {
        self.events = events
        self.wake = wake
    }

    // MARK: The run's side

    func present(_ player: AdPlayer) -> PlayResult {
        player.onWake = { [state, wake] in
            state.change { $0.wakes &+= 1 }
            wake()
        }
        if state.withLock({ $0.aborted }) { return Self.endedByHost }
        player.startMedia()
        if let over = judge(player) { return over }
        let held = Confined(player, heldBy: .run)
        held.release(from: .run)
        let aborted = state.change { s -> Bool in
            guard !s.aborted else { return true }
            s.waiting = held
            s.result = nil
            return false
        }
        if aborted {
            held.take(as: .run).stop()
            return Self.endedByHost
        }
        wake()
        return state.wait(
            until: { $0.result != nil || $0.aborted },
            then: { s, _ in
                defer { s.result = nil }
                return s.result ?? Self.endedByHost
            })
    }

    /// Holds the player on the run's thread until it is ready (saying `ready` once a run), the
    /// application presents, or the run is aborted; a creative that fails is stepped here, so
    /// the session decides (its fallback, or an end that lets the run go on) without waiting
    /// for the application to draw. Its result when the session ended it.
    private func judge(_ player: AdPlayer) -> PlayResult? {
        var seen = -1
        while true {
            let (go, wakes) = state.wait(
                until: { $0.aborted || $0.presented || $0.wakes != seen },
                then: { s, _ in (s.aborted || s.presented, s.wakes) })
            seen = wakes
            switch player.readiness {
            case .failed:
                if let over = player.step() { return over }
                continue
            case .ready:
                if sayReady() { events.emit(.ready) }
                return nil
            case .opening:
                if go { return nil }
            }
        }
    }

    /// Whether `ready` is still to be said for this run; from now on it has been.
    func sayReady() -> Bool {
        state.change { s -> Bool in
            defer { s.readySaid = true }
            return !s.readySaid
        }
    }

    /// The run is over (its `end` written).
    func flowFinished() {
        state.change { $0.flowEnded = true }
        wake()
    }

    // MARK: The application's side

    /// What `prepare` waits for.
    enum Preparation: Equatable { case ready, ended, waiting }

    /// Waits until `ready` was said or the run ended, at most until `deadline`.
    func waitUntilPrepared(deadline: Date) -> Preparation {
        state.wait(
            until: { $0.readySaid || $0.flowEnded }, deadline: deadline,
            then: { s, _ in s.readySaid ? .ready : s.flowEnded ? .ended : .waiting })
    }

    /// From now on players are handed over as they are (the application presented or dismissed).
    func presented() { state.change { $0.presented = true } }

    /// The player waiting to be shown, taken by the application's side.
    func takePlayer() -> AdPlayer? {
        state.withLock { s in
            defer { s.waiting = nil }
            return s.waiting?.take(as: .host)
        }
    }

    /// The player taken is over: its result goes back to the run.
    func finished(_ r: PlayResult) { state.change { $0.result = r } }

    var hasEnded: Bool { state.withLock { $0.flowEnded } }

    /// Stops the run: the player waiting (its media started) is returned for the caller to stop;
    /// every later `present` returns at once.
    func abort() -> AdPlayer? {
        state.change { s in
            s.aborted = true
            defer { s.waiting = nil }
            return s.waiting?.take(as: .host)
        }
    }

    static let endedByHost = PlayResult(
        end: RunEnd(outcome: .endedByHost, shownMs: 0), error: nil, adShownAtMs: nil, closed: false, gaveWay: false)
}
