import Foundation
import LaunchAdCore
import LaunchAdPlayer

/// The owner of a run's deadlines, on a thread of its own: the player's thread tells it it is
/// alive (it is the player's `PlayerPulse`), the front end tells it of a quit signal and of the
/// run's end, and when a deadline of LaunchAdCore's `RunDeadline` passes it calls the front end's
/// `takeOver` once, on its thread, whatever the player's thread is doing. It waits on a condition
/// until the next deadline or news; it never polls.
///
/// What a takeover does is the front end's: the command line starts the app, writes the run's
/// single `end` and ends the process; a library would end the run and tell its host. Nothing of
/// the process is touched here.
public final class RunSupervisor: PlayerPulse, Sendable {
    private struct State {
        var deadline: RunDeadline
        /// Bumped by news that can bring a deadline nearer (a quit, a new player, the end).
        var news = 0
        /// How to end the ad from another thread, as the player last offered.
        var stop: (@Sendable () -> Void)?
    }
    private let state: Locked<State>
    private let takeOver: @Sendable (RunDeadline.Takeover) -> Void

    /// Starts watching now. `takeOver` is called at most once, on the supervisor's thread.
    public init(limits: RunDeadline.Limits, takeOver: @escaping @Sendable (RunDeadline.Takeover) -> Void) {
        state = Locked(State(deadline: RunDeadline(limits: limits)))
        self.takeOver = takeOver
        let thread = Thread { [self] in watch() }
        thread.name = "launchad-deadline"
        thread.start()
    }

    private static func now() -> Int { ProcessClock.nowMs() }

    private func watch() {
        var seen = -1
        while true {
            let (verdict, news) = state.withLock { s in (s.deadline.verdict(now: Self.now()), s.news) }
            switch verdict {
            case .finished:
                return
            case .takeOver(let t):
                takeOver(t)
                return
            case .wait(let until):
                seen = news
                guard let until else {
                    state.wait(until: { $0.news != seen })
                    continue
                }
                // NSCondition's deadlines are on the wall clock: a clock stepped back (NTP at a
                // kiosk's boot) would stretch a wait by the step, so at most a second of it is
                // trusted at a time and the monotonic clock decides.
                let waitMs = max(0, min(until - Self.now(), 1000))
                state.wait(until: { $0.news != seen }, deadline: Date().addingTimeInterval(Double(waitMs) / 1000))
            }
        }
    }

    private func tell(_ change: (inout RunDeadline) -> Void) {
        state.change { s in
            change(&s.deadline)
            s.news += 1
        }
    }

    // MARK: The front end

    /// The whole run's first frame is due by `ms` (process milliseconds), until a player says when its own is.
    public func firstFrame(dueBy ms: Int) { tell { $0.firstFrame(dueBy: ms) } }

    /// A quit signal came: the run ends within the grace, answered or not.
    public func quitRequested(signal: Int32) { tell { $0.quitRequested(signal: signal, now: Self.now()) } }

    /// The ad is over and its end is settled: a takeover from now on writes it.
    public func settle(_ end: RunEnd) { tell { $0.settle(end) } }

    /// The front end ends the run itself; false when the supervisor took it over first (the
    /// front end then leaves the ending to it).
    public func finish() -> Bool { state.change { s in s.deadline.finish() } }

    /// Whether the run was taken over (the ad's own thread, if it wakes, ends the ad at once).
    public var tookOver: Bool { state.withLock { $0.deadline.tookOver } }

    /// Ends the ad from this thread as far as it can (its sound, its window), for a takeover.
    public func stopTheAd() { state.withLock { $0.stop }?() }

    // MARK: PlayerPulse (the player's thread)

    public func playerStarted(firstFrameWithinMs: Int) {
        tell { $0.playerStarted(now: Self.now(), firstFrameWithinMs: firstFrameWithinMs) }
    }

    // A beat only moves a deadline later: the thread, woken at the old one, looks again.
    public func beat(_ step: RunDeadline.Step, waitPaused: Bool) {
        state.withLock { $0.deadline.beat(step, now: Self.now(), waitPaused: waitPaused) }
    }

    public func firstFrameShown() { state.withLock { $0.deadline.firstFrameShown() } }

    // The last way to stop the ad stays: a held window (launch's hand-off) outlives the loop.
    public func playerReturned() { state.withLock { $0.deadline.playerReturned() } }

    public func stoppable(by stop: @escaping @Sendable () -> Void) { state.withLock { $0.stop = stop } }
}
