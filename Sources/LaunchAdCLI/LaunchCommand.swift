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
        let out: EventSink
        do { out = try PlayCommand.eventSink(path: o.play.eventsPath) } catch {
            return PrefetchCommand.fail("\(error)", ExitCode.usage)
        }
        // An unwritable --metrics is one event and one line: the ad still plays and the app starts.
        let metricsPath = MetricsReport.check(o.play.metricsPath, events: out)
        let sink = MetricsSink(out, adID: "")
        MediaLog.configure()
        let flow = LaunchFlow(o, sink: sink, context: PlayCommand.commandLineContext())
        let held = o.then.isEmpty ? nil : HeldPicture()
        let shown = flow.showAd(presenter: PlayCommand.windowPresenter(), held: held)
        // The app starts right after the ad; the refresh may go on meanwhile, but this process
        // does not end before it is over (or out of time), and `end` stays the last event.
        // The windows there before the app: a new one that names no owner is taken for the app's.
        let windowsBefore = held?.player?.windowsNow()
        let app = o.then.isEmpty ? nil : startApp(o.then, sink: sink)
        let keepAlive = app.flatMap { app in
            PlayCommand.serviceNotifier.map { notifier in
                notifier.notify(WatchdogPolicy.appStarted(o.then[0], pid: app.pid))
                return ServiceKeepAlive(notifier)
            }
        }
        defer { keepAlive?.stop() }
        handOff(held, to: app, hold: o.hold, windowsBefore: windowsBefore, sink: sink)
        // Counted for the frequency caps once the app is on screen (the cache lock may be busy).
        flow.countPlay(shown)
        flow.finishBackground()
        sink.emit(.end(LaunchRun.end(shown)))
        // After the `end` has passed the metrics sink.
        let run = sink.run
        if let path = flow.metricsPath(checked: metricsPath) {
            let cache = try? CacheStore(directory: o.cache.cacheDirectory())
            MetricsReport.write(path, run: run.outcome == nil ? nil : run, cache: cache, outbox: flow.outbox)
        }
        return LaunchRun.exitStatus(
            shown, appGiven: !o.then.isEmpty, appStatus: app.map(waitForApp), cacheRefused: flow.cacheRefused)
    }

    /// Keeps the ad's last picture until the app's window is there (or the hold runs out), then
    /// closes it; the `handoff` event says which.
    static func handOff(_ held: HeldPicture?, to app: AppProcess?, hold: Double, windowsBefore: Set<UInt32>?, sink: EventSink) {
        guard let player = held?.player else { return }
        guard let app else { return player.close() }
        guard let (ending, waited) = player.handOff(appPID: app.pid, holdSeconds: hold, windowsBefore: windowsBefore) else { return }
        sink.emit(.handoff(via: ending, appPID: Int(app.pid), waitedMs: waited))
    }

    /// Starts `CMD ARGS...` (looked up on PATH) with this process's stdin, stdout and stderr;
    /// from then on the launcher's SIGTERM, SIGINT and SIGHUP go to it. A SIGTERM or SIGINT that
    /// came before (and ended the ad) goes to it at once: it was meant for the whole run (systemd
    /// stopping the unit as it starts), and the app decides how to end.
    /// One that cannot be started is an `app_not_started` event and a line on stderr (exit 127).
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
        return app
    }

    // Set once on the main thread before the app is awaited; kept only so the handlers live on.
    nonisolated(unsafe) private static var signalForwarder: SignalForwarder?

    /// The app's exit status; 128+N when signal N ended it (as a shell reports it).
    static func waitForApp(_ app: AppProcess) -> Int32 { app.wait() }
}
