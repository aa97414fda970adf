import Foundation
import LaunchAdCore
import LaunchAdMedia

/// `launchad probe FILE`: the facts as one JSON object on stdout.
public enum ProbeCommand {
    public static func run(_ options: ProbeOptions) -> Int32 {
        MediaLog.configure()
        do {
            let facts = try MediaProbe.probe(options.file)
            print(facts.json.serialized())
            return ExitCode.success
        } catch {
            return CLIError.report(error)
        }
    }
}

/// One line on stderr for a failure, and its exit code: a usage mistake is 2, anything else 1.
enum CLIError {
    static func report(_ error: Error) -> Int32 {
        let usage = error is UsageError || error is SpecError
        FileHandle.standardError.write(TerminalText.line("\(error)"))
        return usage ? ExitCode.usage : ExitCode.failure
    }
}
