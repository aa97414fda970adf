import Foundation
import LaunchAdCore
import LaunchAdEngine
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
