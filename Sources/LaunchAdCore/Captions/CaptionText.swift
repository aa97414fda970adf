import Foundation

/// Caption text as it is drawn: markup removed, lines trimmed, empty lines dropped.
public enum CaptionText {
    /// The most text one cue may hold; a longer one is cut (a screen cannot show more).
    static let maxCharacters = 500

    /// WebVTT and SRT payload: `<b>`, `<i>`, `<c.x>`, `<v Name>`, `<font ...>` and timestamps
    /// removed, the usual entities decoded, ASS-style `{\an8}` overrides dropped.
    static func plain(_ raw: String) -> String {
        var out = ""
        var inTag = false, inBrace = false
        for ch in raw {
            switch ch {
            case "<" where !inBrace: inTag = true
            case ">" where inTag: inTag = false
            case "{" where !inTag && !inBrace: inBrace = true
            case "}" where inBrace: inBrace = false
            default: if !inTag && !inBrace { out.append(ch) }
            }
        }
        let entities = [
            ("&lt;", "<"), ("&gt;", ">"), ("&nbsp;", "\u{00A0}"), ("&lrm;", "\u{200E}"), ("&rlm;", "\u{200F}"),
            ("&quot;", "\""), ("&apos;", "'"), ("&amp;", "&")
        ]
        for (e, c) in entities { out = out.replacingOccurrences(of: e, with: c) }
        return tidy(out)
    }

    /// The text of an ASS dialogue event as libavcodec's text decoders write it
    /// (`ReadOrder,Layer,Style,Name,MarginL,MarginR,MarginV,Effect,Text`, or with `Dialogue:` and
    /// a start and end): `\N` breaks lines, `{...}` overrides are dropped.
    public static func ass(_ event: String) -> String {
        var line = Substring(event)
        if line.hasPrefix("Dialogue:") { line = line.dropFirst("Dialogue:".count) }
        // The text is everything after the eighth comma (or the ninth, with start and end).
        let commas = event.hasPrefix("Dialogue:") ? 9 : 8
        var seen = 0
        var start = line.startIndex
        for i in line.indices where line[i] == "," {
            seen += 1
            if seen == commas { start = line.index(after: i); break }
        }
        let text = seen >= commas ? line[start...] : line
        let broken = text.replacingOccurrences(of: "\\N", with: "\n").replacingOccurrences(of: "\\n", with: "\n")
            .replacingOccurrences(of: "\\h", with: "\u{00A0}")
        return plain(broken)
    }

    static func tidy(_ s: String) -> String {
        let lines = s.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r" }
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let joined = lines.joined(separator: "\n")
        return joined.count > maxCharacters ? String(joined.prefix(maxCharacters)) : joined
    }
}
