import Foundation
import LaunchAdCore
import LaunchAdEngine
import LaunchAdMedia

/// `launchad snapshot FILE --out sheet.png`: writes the PNG and says what it holds.
public enum SnapshotCommand {
    public static func run(_ options: SnapshotOptions) -> Int32 {
        MediaLog.configure()
        do {
            let r = try ContactSheet.write(options.file, options)
            let times = r.times.map { SpecValue.format($0) }.joined(separator: ", ")
            print(
                "wrote \(TerminalText.escaped(options.out)): \(r.width)x\(r.height), \(r.times.count) picture\(r.times.count == 1 ? "" : "s") at \(times) s"
            )
            return ExitCode.success
        } catch {
            return CLIError.report(error)
        }
    }
}
