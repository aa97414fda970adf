import Foundation
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdEngine

/// The `launchad` command: parse, dispatch, return the exit code.
public enum LaunchAdCLI {
    public static func main(_ args: [String]) -> Int32 {
        let command: Command
        do {
            command = try Command.parse(args)
        } catch let e as UsageError {
            FileHandle.standardError.write(TerminalText.line(e.message))
            return ExitCode.usage
        } catch {
            FileHandle.standardError.write(TerminalText.line("\(error)"))
            return ExitCode.usage
        }
        if LibraryCheck.problem(for: command) != nil { return ExitCode.libraryMissing }
        switch command {
        case .help(let text):
            print(text)
            return ExitCode.success
        case .version:
            print(VersionText.full)
            return ExitCode.success
        case .play(let options, let delivery):
            return PlayCommand.run(
                options, delivery: delivery, durationGiven: args.contains { $0 == "--duration" || $0.hasPrefix("--duration=") })
        case .probe(let options):
            return ProbeCommand.run(options)
        case .validate(let options):
            return ValidateCommand.run(options)
        case .snapshot(let options):
            return SnapshotCommand.run(options)
        case .preview(let options):
            return PreviewCommand.run(options)
        case .launch(let options):
            return LaunchCommand.run(options)
        case .prefetch(let options):
            return PrefetchCommand.run(options)
        case .outbox(let options):
            return OutboxCommand.run(options)
        case .schedule(let options):
            return ScheduleCommand.run(options)
        case .fleet(let options):
            return FleetCommand.run(options)
        case .manifest(let options):
            return ManifestCommand.run(options)
        }
    }
}
