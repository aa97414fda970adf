/// A caption source that cannot be used at all (refused or unreadable): the ad plays on
/// without it, and a `captions_error` event says why.
public struct CaptionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Why, in one line.
    public let message: String
    /// An error saying `message`.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}
