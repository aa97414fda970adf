/// JSON's escaper (RFC 8259): the one way text becomes a JSON string in launchad's own
/// writers (the event lines, play records, reports); `JSONValue` and the ClickHouse rows use it.
public enum JSONText {
    /// `s` as a JSON string literal, quotes included: `"` and `\` escaped, control characters as
    /// `\n`, `\r`, `\t` or `\u00XX`.
    public static func quoted(_ s: String) -> String {
        "\""
            + s.replacingScalars { scalar in
                switch scalar {
                case "\"": return "\\\""
                case "\\": return "\\\\"
                case "\n": return "\\n"
                case "\r": return "\\r"
                case "\t": return "\\t"
                case _ where scalar.value < 0x20: return "\\u" + String(scalar.value, radix: 16).leftPadded(to: 4)
                default: return nil
                }
            } + "\""
    }
}
