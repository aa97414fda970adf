import Foundation

/// A JSON value that keeps object keys in the order they were given, so event lines read naturally.
public enum JSONValue: Equatable, Sendable {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([(String, JSONValue)])

    /// Equal when both serialize to the same text (so object key order matters).
    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        a.serialized() == b.serialized()
    }

    /// Compact JSON text; a double has at most three decimals, a whole one prints as an integer, and NaN or infinity is `null`.
    public func serialized() -> String {
        switch self {
        case .string(let s): return JSONText.quoted(s)
        case .int(let i): return String(i)
        case .double(let d):
            guard d.isFinite else { return "null" }
            if d == d.rounded(), abs(d) < 1e15, let whole = Checked.int(d) { return String(whole) }
            // Three decimals, trailing zeros dropped; never a bare "0." or "-0" (not JSON numbers).
            var text = String(format: "%.3f", d)
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
            return text == "-0" ? "0" : text
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        case .array(let items): return "[" + items.map { $0.serialized() }.joined(separator: ",") + "]"
        case .object(let pairs):
            return "{" + pairs.map { JSONText.quoted($0.0) + ":" + $0.1.serialized() }.joined(separator: ",") + "}"
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral, ExpressibleByFloatLiteral {
    /// A JSON string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// A JSON integer.
    public init(integerLiteral value: Int) { self = .int(value) }
    /// A JSON boolean.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// A JSON number from a floating-point literal.
    public init(floatLiteral value: Double) { self = .double(value) }
}
