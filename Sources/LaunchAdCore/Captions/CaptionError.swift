/// A caption source that cannot be used at all (refused or unreadable): the ad plays on
/// without it, and a `captions_error` event says why.
public struct CaptionError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
