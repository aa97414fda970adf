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

    /// A value the user (or a document, a server) gave, as every message that quotes one quotes
    /// it: escaped, and cut in its middle to `maxQuoted` scalars (`cut`). A 120 KB `--trust-key`
    /// or file name was repeated whole in a refusal, on stderr and in its event, at every refresh.
    public static func quoted(_ value: String) -> String { cut(escaped(value), to: maxQuoted) }

    /// The most of a value a message quotes, in Unicode scalars: a path, a URL or a key with room to spare.
    public static let maxQuoted = 200

    /// `text` when it has at most `max` Unicode scalars; else cut in its middle with an ellipsis,
    /// its first four fifths and its end kept (where a usage error's option and rule, and a path's
    /// file name, are), `max` scalars in all. The one cut of the usage error and of every quoted value.
    public static func cut(_ text: String, to max: Int) -> String {
        let scalars = text.unicodeScalars
        guard scalars.count > max, max >= 2 else { return text }
        let head = max * 4 / 5
        var cut = String.UnicodeScalarView()
        cut.append(contentsOf: scalars.prefix(head))
        cut.append("…")
        cut.append(contentsOf: scalars.suffix(max - head - 1))
        return String(cut)
    }

    /// One line for stderr, the only form in which launchad writes there: `launchad: `, `text`
    /// with its control characters made visible (newlines included, so it stays one line), and a
    /// newline. Backslashes are left as they are, so text a caller escaped already (a server's
    /// reason, a report's cell) is not escaped twice; no terminal control reaches the screen.
    /// Cut to `maxLine` scalars (`cut`) whatever a caller quoted.
    public static func line(_ text: String) -> Data {
        Data(("launchad: " + cut(visible(text, doublingBackslashes: false), to: maxLine) + "\n").utf8)
    }

    /// The most a stderr line says after `launchad: `, in Unicode scalars.
    public static let maxLine = 2000

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
