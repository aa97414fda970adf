import LaunchAdCore
/// A cache or download failure, worded as the one line a user reads.
public struct CacheError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
