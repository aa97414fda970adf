/// How an ad run ended. Every run reports exactly one, in its final `end` event.
public enum Outcome: String, Sendable, CaseIterable {
    case completed
    case skipped
    case clicked
    case endedByHost = "ended_by_host"
    case noAd = "no_ad"
    case timeout
    case error

    /// Stable process exit codes, documented in the README.
    public var exitCode: Int32 {
        switch self {
        case .completed, .skipped, .clicked, .endedByHost: return ExitCode.success
        case .noAd, .timeout: return ExitCode.noAd
        case .error: return ExitCode.failure
        }
    }
}

public enum ExitCode {
    public static let success: Int32 = 0
    public static let failure: Int32 = 1
    public static let usage: Int32 = 2
    public static let noAd: Int32 = 3
}

/// A mistake in the command line: reported in one line, exit code 2.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
