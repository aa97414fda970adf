/// The Prometheus text exposition format's escaper (version 0.0.4), for the `--metrics` file: a
/// label value has its backslash, double quote and line feed escaped, so an ad id chosen by a
/// manifest or a file name cannot end the label, add a label or start a sample line of its own.
public enum PrometheusText {
    /// `value` as it goes between a label's quotes.
    public static func labelValue(_ value: String) -> String {
        value.replacingScalars { scalar in
            switch scalar {
            case "\\": return "\\\\"
            case "\"": return "\\\""
            case "\n": return "\\n"
            default: return nil
            }
        }
    }

    /// `name{k="v",...}`, every value escaped; `name` alone without labels. Names and label
    /// names are the code's own literals.
    public static func series(_ name: StaticString, _ labels: [(StaticString, String)]) -> String {
        guard !labels.isEmpty else { return name.description }
        return "\(name){" + labels.map { "\($0.0)=\"" + labelValue($0.1) + "\"" }.joined(separator: ",") + "}"
    }
}
