import Foundation
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdEngine
import LaunchAdMedia
import LaunchAdPlayer

/// `launchad play`: the engine's play run in a window of its own, events to stdout or
/// `--events FILE`, the outcome's exit code; what the process owns (signals, stderr, metrics,
/// FFmpeg's log level, systemd) is set up here.
public enum PlayCommand {
    /// `durationGiven`: `--duration` was on the command line (said to be unused on a video).
    public static func run(_ options: PlayOptions, delivery: DeliveryOptions = DeliveryOptions(), durationGiven: Bool = false) -> Int32 {
        // FFmpeg's ~30 ms of loading overlaps the outbox, the sniff and SDL's start-up.
        FFmpegLibraries.openInBackground()
        let out: JSONLinesSink
        do { out = try eventSink(path: options.eventsPath) } catch {
            FileHandle.standardError.write(TerminalText.line("\(error)"))
            return ExitCode.usage
        }
        var sink: EventSink = out
        // From here the run ends on time whatever its player's thread does (RunGuard).
        let supervisor = RunGuard.supervise(stallTimeout: options.stallTimeout, out: out)
        let metricsPath = MetricsReport.check(options.metricsPath, events: sink)
        // Asked before anything plays, so a missing library ends the run with its `end`.
        if let problem = LibraryCheck.player() {
            sink.emit(.error(PlayError(.libraryMissing, problem)))
            sink.emit(.end(RunEnd(outcome: .error)))
            guard supervisor.finish() else { RunGuard.leaveItToTheSupervisor() }
            return ExitCode.libraryMissing
        }
        MediaLog.configure()
        IgnoredOptions.notes(options).forEach(IgnoredOptions.print)
        let metrics = metricsPath.map { _ in MetricsSink(sink, adID: (options.file as NSString).lastPathComponent) }
        if let metrics { sink = metrics }
        if durationGiven && options.fallback == nil { sink = DurationNoteSink(sink) }
        let context = commandLineContext(pulse: supervisor)
        let (outcome, outbox) = PlayFlow.run(
            options, delivery: delivery, sink: sink, presenter: windowPresenter(supervisor), context: context)
        if let path = metricsPath { MetricsReport.write(path, run: metrics?.run, cache: nil, outbox: outbox) }
        guard supervisor.finish() else { RunGuard.leaveItToTheSupervisor() }
        return outcome.exitCode
    }

    /// The command line's side of a run: quit signals cancel it, notes go to stderr, systemd
    /// hears from it when it runs as a `Type=notify` service, the supervisor from its players.
    static func commandLineContext(pulse: RunSupervisor) -> RunContext {
        let cancellation = Cancellation()
        QuitSignal.cancels(cancellation)
        return RunContext(
            cancellation: cancellation, note: { FileHandle.standardError.write(TerminalText.line($0)) }, notifier: serviceNotifier,
            pulse: pulse)
    }

    /// The player's own window, ended by a quit signal as by its close button, and at once when
    /// the supervisor ended the run without the player's thread (should that thread wake).
    static func windowPresenter(_ supervisor: RunSupervisor) -> WindowPresenter {
        WindowPresenter(quitRequested: { QuitSignal.take() != nil || supervisor.tookOver })
    }

    /// systemd's notify socket when run as a `Type=notify` service; one for the whole process.
    static let serviceNotifier = SystemdNotifier.fromEnvironment()

    /// stdout, or the file `--events` names.
    public static func eventSink(path: String?) throws -> JSONLinesSink {
        // `-` is stdout, as for most tools, not a file named `-`.
        guard let path, path != "-" else { return JSONLinesSink(handle: .standardOutput) }
        return try JSONLinesSink(path: path)
    }
}
