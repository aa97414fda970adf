/// One line of the event stream: `{"event": name, "t_ms": ..., fields...}`.
public struct AdEvent: Equatable, Sendable {
    /// The event's name, the `event` key (for example `shown`, `skipped`, `error`).
    public var name: String
    /// Milliseconds since the process started.
    public var tMs: Int
    /// The event's other keys and values, written in this order after `event` and `t_ms`.
    public var fields: [(String, JSONValue)]

    /// An event called `name` at `tMs` (milliseconds since the process started) with `fields`.
    public init(_ name: String, tMs: Int, _ fields: [(String, JSONValue)] = []) {
        self.name = name
        self.tMs = tMs
        self.fields = fields
    }

    /// Equal when both serialize to the same JSON line (field order included).
    public static func == (a: AdEvent, b: AdEvent) -> Bool { a.jsonLine() == b.jsonLine() }

    /// The value of the first field named `key`, if any.
    public subscript(key: String) -> JSONValue? {
        fields.first { $0.0 == key }?.1
    }

    /// The event as one line of compact JSON, without a newline.
    public func jsonLine() -> String {
        JSONValue.object([("event", .string(name)), ("t_ms", .int(tMs))] + fields).serialized()
    }
}
