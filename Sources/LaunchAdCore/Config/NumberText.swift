/// Numbers as people write them in messages: `3`, `0.5`, `any` for no limit.
public enum NumberText {
    /// `d` without a needless `.0`, or `any` for `.greatestFiniteMagnitude`.
    public static func plain(_ d: Double) -> String {
        d == .greatestFiniteMagnitude ? "any" : (d == d.rounded() ? String(Int(d)) : String(d))
    }
}
