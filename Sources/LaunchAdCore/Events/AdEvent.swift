/// One line of the event stream: a typed event and when it happened,
/// written as `{"event": name, "t_ms": ..., fields...}`.
public struct AdEvent: Equatable, Sendable {
    /// Milliseconds since the process started.
    public var tMs: Int
    /// What happened.
    public var event: LaunchEvent

    /// `event` at `tMs` (milliseconds since the process started).
    public init(_ event: LaunchEvent, tMs: Int) {
        self.event = event
        self.tMs = tMs
    }

    /// The `event` key, for readers of the stream (tests, logs); code decides on `event`'s case.
    public var name: String { event.name }

    /// The line's other keys and values, in order, after `event` and `t_ms`.
    public var fields: [(String, JSONValue)] { event.fields }

    /// The value of the first field named `key`, as the line has it.
    public subscript(key: String) -> JSONValue? {
        fields.first { $0.0 == key }?.1
    }

    /// The event as one line of compact JSON, without a newline.
    public func jsonLine() -> String {
        JSONValue.object([("event", .string(name)), ("t_ms", .int(tMs))] + fields).serialized()
    }
}
