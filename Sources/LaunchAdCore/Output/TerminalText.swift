import Foundation

/// Text from outside (an ad's id, a server's reason) made safe to print on a terminal: control
/// characters (C0, DEL, C1) become visible escapes, so an id cannot move the cursor, clear the
/// screen or retitle the window; so do the invisible Unicode controls that reorder or break a
/// line (bidirectional marks, embeddings, overrides and isolates, the line and paragraph
/// separators), so a tag's `<AdTitle>` cannot turn the rest of a report line around on a
/// terminal that shapes bidirectional text. The terminal's escaper (see `OutputProtocol`).
public enum TerminalText {
    /// `text` with tab, newline and carriage return as `\t`, `\n`, `\r`, other control characters as `\xHH`,
    /// and a backslash doubled, so the escapes cannot be forged.
    public static func escaped(_ text: String) -> String { visible(text, doublingBackslashes: true) }

    /// One line for stderr, the only form in which launchad writes there: `launchad: `, `text`
    /// with its control characters made visible (newlines included, so it stays one line), and a
    /// newline. Backslashes are left as they are, so text a caller escaped already (a server's
    /// reason, a report's cell) is not escaped twice; no terminal control reaches the screen.
    public static func line(_ text: String) -> Data { Data(("launchad: " + visible(text, doublingBackslashes: false) + "\n").utf8) }

    private static func visible(_ text: String, doublingBackslashes: Bool) -> String {
        text.replacingScalars { scalar in
            switch scalar.value {
            case 0x09: return "\\t"
            case 0x0A: return "\\n"
            case 0x0D: return "\\r"
            case 0x00...0x1F, 0x7F...0x9F: return "\\x" + String(scalar.value, radix: 16, uppercase: false).leftPadded(to: 2)
            case 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069:
                return "\\u{" + String(scalar.value, radix: 16, uppercase: false) + "}"
            case 0x5C where doublingBackslashes: return "\\\\"
            default: return nil
            }
        }
    }
}
