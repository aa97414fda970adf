import Foundation
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdEngine
import LaunchAdMedia

/// `launchad launch`: the engine's launch run (the cached ad at once, a background refresh for
/// next time) in a window of its own, then the app, handed the screen; metrics and the exit
/// status are the process's.
public enum LaunchCommand {
    public static func run(_ o: LaunchOptions) -> Int32 {
        // FFmpeg's ~30 ms of loading overlaps reading the cache and SDL's start-up.
        FFmpegLibraries.openInBackground()
        let out: JSONLinesSink
        do { out = try PlayCommand.eventSink(path: o.play.eventsPath) } catch {
            return PrefetchCommand.fail("\(error)", ExitCode.usage)
        }
        let sink = MetricsSink(out, adID: "")
        // The app starts once, from this thread after the ad or from the supervisor's when this
        // one is stuck: by --wait + 2 s at the latest when no first frame is on screen (RunGuard).
        let app = o.then.isEmpty ? nil : AppLaunch(o.then)
        let start: @Sendable () -> AppProcess? = { [command = o.then] in startApp(command, sink: sink) }
        let supervisor = RunGuard.supervise(stallTimeout: o.play.stallTimeout, out: out, app: app, startApp: start)
        let waitMs = Checked.milliseconds(o.play.wait) ?? 0
        supervisor.firstFrame(
            dueBy: ProcessClock.nowMs() + RunDeadline.firstFrameWithinMs(waitMs: waitMs, hasFallback: o.play.fallback != nil)
                + RunDeadline.Limits.defaultMarginMs)
        // An unwritable --metrics is one event and one line: the ad still plays and the app starts.
        let metricsPath = MetricsReport.check(o.play.metricsPath, events: out)
        MediaLog.configure()
        let flow = LaunchFlow(o, sink: sink, context: PlayCommand.commandLineContext(pulse: supervisor))
        let held = o.then.isEmpty ? nil : HeldPicture()
        let shown = flow.showAd(presenter: PlayCommand.windowPresenter(supervisor), held: held)
        supervisor.settle(LaunchRun.end(shown))
        // The app starts right after the ad; the refresh may go on meanwhile, but this process
        // does not end before it is over (or out of time), and `end` stays the last event.
        // The windows there before the app: a new one that names no owner is taken for the app's.
        let windowsBefore = supervisor.tookOver ? nil : held?.player?.windowsNow()
        let started = app?.start(start)
        defer { keepAlive.withLock { $0?.stop() } }
        handOff(held, to: started, hold: o.hold, windowsBefore: windowsBefore, sink: sink, stopWhen: { supervisor.tookOver })
        // Counted for the frequency caps once the app is on screen (the cache lock may be busy).
        flow.countPlay(shown)
        flow.finishBackground()
        // The supervisor wrote the end and waits for the app itself when it took the run over.
        guard supervisor.finish() else { RunGuard.leaveItToTheSupervisor() }
        sink.emit(.end(LaunchRun.end(shown)))
        // After the `end` has passed the metrics sink.
        let run = sink.run
        if let path = flow.metricsPath(checked: metricsPath) {
            let cache = try? CacheStore(directory: o.cache.cacheDirectory())
            MetricsReport.write(path, run: run.outcome == nil ? nil : run, cache: cache, outbox: flow.outbox)
        }
        return LaunchRun.exitStatus(
            shown, appGiven: !o.then.isEmpty, appStatus: started.map(waitForApp), cacheRefused: flow.cacheRefused)
    }

    /// Keeps the ad's last picture until the app's window is there (or the hold runs out), then
    /// closes it; the `handoff` event says which.
    /// `stopWhen` true: the picture goes at once (the supervisor ended the run).
    static func handOff(
        _ held: HeldPicture?, to app: AppProcess?, hold: Double, windowsBefore: Set<UInt32>?, sink: EventSink,
        stopWhen: @escaping () -> Bool
    ) {
        guard let player = held?.player else { return }
        guard let app, !stopWhen() else { return player.close() }
        guard let (ending, waited) = player.handOff(appPID: app.pid, holdSeconds: hold, windowsBefore: windowsBefore, stopWhen: stopWhen)
        else { return }
        sink.emit(.handoff(via: ending, appPID: Int(app.pid), waitedMs: waited))
    }

    /// Starts `CMD ARGS...` (looked up on PATH) with this process's stdin, stdout and stderr;
    /// from then on the launcher's SIGTERM, SIGINT and SIGHUP go to it. A SIGTERM or SIGINT that
    /// came before (and ended the ad) goes to it at once: it was meant for the whole run (systemd
    /// stopping the unit as it starts), and the app decides how to end.
    /// One that cannot be started is an `app_not_started` event and a line on stderr (exit 127).
    /// Under systemd, the service manager is told and kept pinged while the app runs.
    static func startApp(_ command: [String], sink: EventSink) -> AppProcess? {
        let early = QuitSignal.requested
        let forwarder = SignalForwarder()
        let app: AppProcess
        do { app = try AppProcess.spawn(command) } catch {
            sink.emit(.appNotStarted(app: command[0], message: "\(error)"))
            FileHandle.standardError.write(TerminalText.line("\(error)"))
            forwarder.cancel()
            return nil
        }
        forwarder.forward(to: app)
        if let early { app.signal(early) }
        signalForwarder = forwarder
        if let notifier = PlayCommand.serviceNotifier {
            notifier.notify(WatchdogPolicy.appStarted(command[0], pid: app.pid))
            keepAlive.withLock { $0 = ServiceKeepAlive(notifier) }
        }
        return app
    }

    // Set once, by whichever thread starts the app (AppLaunch's lock); kept only so the handlers live on.
    nonisolated(unsafe) private static var signalForwarder: SignalForwarder?
    /// The watchdog's pings while the app runs (systemd).
    private static let keepAlive = Locked<ServiceKeepAlive?>(nil)

    /// The app's exit status; 128+N when signal N ended it (as a shell reports it).
    static func waitForApp(_ app: AppProcess) -> Int32 { app.wait() }
}
