/// One line of the event stream: `{"event": name, "t_ms": ..., fields...}`.
public struct AdEvent: Equatable, Sendable {
    public var name: String
    /// Milliseconds since the process started.
    public var tMs: Int
    public var fields: [(String, JSONValue)]

    public init(_ name: String, tMs: Int, _ fields: [(String, JSONValue)] = []) {
        self.name = name
        self.tMs = tMs
        self.fields = fields
    }

    public static func == (a: AdEvent, b: AdEvent) -> Bool { a.jsonLine() == b.jsonLine() }

    public subscript(key: String) -> JSONValue? {
        fields.first { $0.0 == key }?.1
    }

    public func jsonLine() -> String {
        JSONValue.object([("event", .string(name)), ("t_ms", .int(tMs))] + fields).serialized()
    }
}
