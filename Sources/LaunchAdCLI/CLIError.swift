import Foundation
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdEngine
import LaunchAdMedia

/// One line on stderr for a failure, and its exit code, the same for the same mistake in every
/// command: a usage mistake, or an output file named on the command line (`--out`, `--output`,
/// `--events`) that cannot be written, is 2; a file to read that is missing or unreadable, and
/// anything else, 1. File-system errors are said by ``FileProblem`` (path and plain reason).
enum CLIError {
    static func report(_ error: Error) -> Int32 {
        let (line, code) = judged(error)
        FileHandle.standardError.write(TerminalText.line(line))
        return code
    }

    /// The line and exit code for `error`.
    static func judged(_ error: Error) -> (String, Int32) {
        switch error {
        case is UsageError, is SpecError: return ("\(error)", ExitCode.usage)
        // A folder that is not launchad's to use is the user's mistake, not a failure.
        case let e as CacheError: return (e.message, e.isRefusal ? ExitCode.usage : ExitCode.failure)
        case let e as MediaError where e.code == .writeFailed: return ("--out: \(e.message)", ExitCode.usage)
        case let e as MediaError: return (e.message, ExitCode.failure)
        case let p as FileProblem: return ("\(p)", p.access == .write ? ExitCode.usage : ExitCode.failure)
        default:
            let ns = error as NSError
            // Foundation's own errors print as `Error Domain=…`: their plain words instead.
            guard ns.domain == NSCocoaErrorDomain || ns.domain == NSPOSIXErrorDomain else { return ("\(error)", ExitCode.failure) }
            let path = ns.userInfo[NSFilePathErrorKey] as? String ?? (ns.userInfo[NSURLErrorKey] as? URL)?.path ?? "a file"
            return ("\(FileProblem(error, path: path, access: .read))", ExitCode.failure)
        }
    }
}
