import Foundation
import LaunchAdCore
import LaunchAdMedia
import LaunchAdPlayer

/// `launchad play`: one ad, events to stdout or `--events FILE`, the outcome's exit code.
public enum PlayCommand {
    /// `durationGiven`: `--duration` was on the command line (said to be unused on a video).
    public static func run(_ options: PlayOptions, durationGiven: Bool = false) -> Int32 {
        var sink: EventSink
        do { sink = try eventSink(path: options.eventsPath) } catch {
            FileHandle.standardError.write(Data("launchad: \(error)\n".utf8))
            return ExitCode.usage
        }
        IgnoredOptions.notes(options).forEach(IgnoredOptions.print)
        if durationGiven && options.fallback == nil { sink = DurationNoteSink(sink) }
        return play(options, sink: sink).exitCode
    }

    /// Plays one ad (a file path or an http(s) URL) with its fallback; emits every event up to
    /// and including the single `end`, and returns the outcome. `launch` calls this too.
    public static func play(_ options: PlayOptions, sink: EventSink) -> Outcome {
        MediaLog.configure()
        return AdPlayer(options: options, events: sink).run()
    }

    /// stdout, or the file `--events` names.
    public static func eventSink(path: String?) throws -> EventSink {
        // `-` is stdout, as for most tools, not a file named `-`.
        guard let path, path != "-" else { return JSONLinesSink(handle: .standardOutput) }
        return try JSONLinesSink(path: path)
    }
}
