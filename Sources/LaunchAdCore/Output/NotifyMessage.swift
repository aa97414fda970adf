/// One sd_notify(3) datagram: newline-separated `KEY=VALUE` assignments. It can be built only
/// from the code's own literals (`"READY=1"`) and from `status(_:)`, which escapes the text it
/// is given: a file or URL name (percent-decoded `clip%0AWATCHDOG%3Dtrigger`) can never add a
/// line, so it cannot trigger the watchdog or change its interval.
public struct NotifyMessage: Equatable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The datagram's text.
    public let text: String

    /// A message the code spells out itself.
    public init(stringLiteral value: StaticString) { text = value.description }

    private init(text: String) { self.text = text }

    /// `STATUS=` and `value` on one line: control characters (newlines included) made visible
    /// escapes, at most 200 characters.
    public static func status(_ value: String) -> NotifyMessage {
        NotifyMessage(text: "STATUS=" + String(TerminalText.escaped(value).prefix(200)))
    }

    /// The messages as one datagram, in order.
    public static func joined(_ parts: [NotifyMessage]) -> NotifyMessage {
        NotifyMessage(text: parts.map(\.text).joined(separator: "\n"))
    }

    /// The datagram's text.
    public var description: String { text }
}
