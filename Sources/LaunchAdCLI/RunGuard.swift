import Foundation
import LaunchAdCore
import LaunchAdEngine

/// The command line's side of a run's deadlines: the engine's `RunSupervisor` watches the
/// player's thread (LaunchAdCore's `RunDeadline` decides), the quit signals reach it from the
/// signal thread the moment they come, and when a deadline passes it does what the process owns,
/// on its own thread, whatever the player's thread is doing: starts the `--then` app (once: the
/// main thread may have), takes the ad off the screen as far as it can, writes the run's single
/// `end` (a claim on the events: whoever writes the end first wins, nothing follows it), and
/// ends the process, with the app's status when there is an app (after waiting for it, as
/// exec would), else the outcome's exit code. No metrics file is written for such a run.
enum RunGuard {
    /// A supervisor for this process's run, its takeover writing to `out`; `app`: `launch --then`'s.
    static func supervise(stallTimeout: Double, out: JSONLinesSink, app: AppLaunch? = nil, startApp: (@Sendable () -> AppProcess?)? = nil)
        -> RunSupervisor
    {
        let limits = RunDeadline.Limits(stallLimitMs: Checked.milliseconds(stallTimeout) ?? 3000)
        let owner = Locked<RunSupervisor?>(nil)
        let supervisor = RunSupervisor(limits: limits) { takeover in
            guard let supervisor = owner.withLock({ $0 }) else { return }
            takeOver(takeover, out: out, app: app, startApp: startApp, supervisor: supervisor)
        }
        owner.withLock { $0 = supervisor }
        QuitSignal.listen { [weak supervisor] sig in supervisor?.quitRequested(signal: sig) }
        return supervisor
    }

    /// The main thread after the supervisor took its run over: the supervisor ends the process.
    static func leaveItToTheSupervisor() -> Never {
        while true { pause() }
    }

    private static func takeOver(
        _ t: RunDeadline.Takeover, out: JSONLinesSink, app: AppLaunch?, startApp: (@Sendable () -> AppProcess?)?,
        supervisor: RunSupervisor
    ) -> Never {
        // The app first: it is what the screen is for.
        let started = app.flatMap { launch in startApp.flatMap { start in launch.start(start) } ?? launch.started }
        // Its window may be held by a call that never returns (a display server): on a thread of
        // its own, not waited for.
        let stopping = Thread { supervisor.stopTheAd() }
        stopping.name = "launchad-stop-ad"
        stopping.start()
        let wrote = writeEnd(t, to: out)
        if app != nil {
            // As exec: the app's status when it ends (127: it could not be started).
            _exit(started?.wait() ?? 127)
        }
        _exit((wrote == false ? out.writtenEnd ?? t.end.outcome : t.end.outcome).exitCode)
    }

    /// The note on stderr and the claim of the run's end, on a thread of their own, waited for at
    /// most a second: the stuck thread may be the one writing events, to a pipe nobody reads,
    /// holding the sink's lock. Whether the end was this one (nil: not known in time).
    private static func writeEnd(_ t: RunDeadline.Takeover, to out: JSONLinesSink) -> Bool? {
        let result = Locked<Bool?>(nil)
        let writer = Thread {
            FileHandle.standardError.write(TerminalText.line(t.note))
            let events: [LaunchEvent] = (t.error.map { [LaunchEvent.error($0)] } ?? []) + [.end(t.end)]
            let now = ProcessClock.nowMs()
            let wrote = out.endRun(with: events.map { AdEvent($0, tMs: now) })
            result.change { $0 = wrote }
        }
        writer.name = "launchad-end"
        writer.start()
        return result.wait(until: { $0 != nil }, deadline: Date().addingTimeInterval(1), then: { r, _ in r })
    }
}
