/// Numbers as people write them in messages: `3`, `0.5`, `any` for no limit.
public enum NumberText {
    /// `d` without a needless `.0`, or `any` for `.greatestFiniteMagnitude`.
    public static func plain(_ d: Double) -> String {
        if d == .greatestFiniteMagnitude { return "any" }
        // A whole number too large for an Int (or an infinity) is written as Swift writes it.
        if d == d.rounded(), let whole = Checked.int(d) { return String(whole) }
        return String(d)
    }
}
