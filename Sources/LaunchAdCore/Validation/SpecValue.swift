/// A value in a spec or a measurement: what a rule's `allowed` list holds and what it is compared with.
public enum SpecValue: Equatable, Sendable, Decodable, CustomStringConvertible {
    case number(Double)
    case string(String)
    case bool(Bool)

    /// Decodes a JSON true/false as `.bool`, a number as `.number`, a string as `.string`.
    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let b = try? c.decode(Bool.self) { self = .bool(b); return }
        if let d = try? c.decode(Double.self) { self = .number(d); return }
        self = .string(try c.decode(String.self))
    }

    /// The value as reports show it: numbers via `format`, booleans as "yes"/"no".
    public var description: String {
        switch self {
        case .number(let d): return SpecValue.format(d)
        case .string(let s): return s
        case .bool(let b): return b ? "yes" : "no"
        }
    }

    /// The value as JSON: a double, string or bool.
    public var json: JSONValue {
        switch self {
        case .number(let d): return .double(d)
        case .string(let s): return .string(s)
        case .bool(let b): return .bool(b)
        }
    }

    /// Whole numbers without a point; others to two places, trailing zeros dropped; small ones
    /// to two significant digits (a 3 kB file is 0.0031 MB, not 0).
    public static func format(_ d: Double) -> String {
        // Digital silence has a true peak of minus infinity.
        if !d.isFinite { return d.isNaN ? "unknown" : (d < 0 ? "-inf" : "inf") }
        if d == d.rounded(), abs(d) < 1e15, let whole = Checked.int(d) { return String(whole) }
        if abs(d) < 0.1 { return String(format: "%.2g", d) }
        var s = String((d * 100).rounded() / 100)
        if s.hasSuffix(".0") { s.removeLast(2) }
        return s
    }
}
