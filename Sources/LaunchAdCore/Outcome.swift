/// How an ad run ended. Every run reports exactly one, in its final `end` event.
public enum Outcome: String, Sendable, CaseIterable {
    case completed
    /// A video cut short of its own length by `--max-duration` (or a manifest's `duration`).
    case capped
    case skipped
    case clicked
    case endedByHost = "ended_by_host"
    case noAd = "no_ad"
    case timeout
    case error

    /// Stable process exit codes, documented in the README.
    public var exitCode: Int32 {
        switch self {
        case .completed, .capped, .skipped, .clicked, .endedByHost: return ExitCode.success
        case .noAd, .timeout: return ExitCode.noAd
        case .error: return ExitCode.failure
        }
    }
}

/// The process exit codes launchad uses.
public enum ExitCode {
    /// The ad ran: completed, skipped, clicked or ended by the host (or the command succeeded).
    public static let success: Int32 = 0
    /// An error.
    public static let failure: Int32 = 1
    /// A mistake in the command line.
    public static let usage: Int32 = 2
    /// No ad to show, or its first frame was too late.
    public static let noAd: Int32 = 3
    /// A C library (FFmpeg, SDL2) that cannot be loaded: the dynamic loader's own status for a
    /// missing library at start-up.
    public static let libraryMissing: Int32 = 127
}

/// A mistake in the command line: reported in one line, exit code 2.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    /// The one-line explanation.
    public let message: String

    /// The most a usage error says, in Unicode scalars. A longer one (a 16 MB argument quoted
    /// whole) is cut in its middle with an ellipsis: its first 400 and last 99 scalars are kept,
    /// the option and its rule at the start, the quoted value's end and any hint at the end.
    public static let maxLength = 500

    /// A usage error saying `message`, cut to `maxLength` (`TerminalText.cut`, the cut of every
    /// quoted value): whatever it quotes of the user's values, every usage error is made here.
    public init(_ message: String) { self.message = TerminalText.cut(message, to: Self.maxLength) }
    /// The message.
    public var description: String { message }
}
