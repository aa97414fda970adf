/// Text from outside (an ad's id, a server's reason) made safe to print on a terminal: control
/// characters (C0, DEL, C1) become visible escapes, so an id cannot move the cursor, clear the
/// screen or retitle the window.
public enum TerminalText {
    /// `text` with tab, newline and carriage return as `\t`, `\n`, `\r`, other control characters as `\xHH`,
    /// and a backslash doubled, so the escapes cannot be forged.
    public static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09: out += "\\t"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x00...0x1F, 0x7F...0x9F: out += "\\x" + String(scalar.value, radix: 16, uppercase: false).leftPadded(to: 2)
            case 0x5C: out += "\\\\"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
