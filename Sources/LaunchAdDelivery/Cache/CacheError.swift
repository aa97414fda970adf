import LaunchAdCore

/// A cache or download failure, worded as the one line a user reads.
public struct CacheError: Error, Equatable, CustomStringConvertible {
    public let message: String
    /// A folder launchad refuses to use as its cache (not its own, not marked, unsafe): the
    /// user named the wrong folder, a usage error (exit 2).
    public let isRefusal: Bool
    public init(_ message: String, refusal: Bool = false) { self.message = message; self.isRefusal = refusal }
    public var description: String { message }
}
