import Foundation

/// Caption text as it is drawn: markup removed, lines trimmed, empty lines dropped.
public enum CaptionText {
    /// The most text one cue may hold; a longer one is cut (a screen cannot show more).
    static let maxCharacters = 500
    /// The most Unicode scalars one character keeps: a letter with its accents, an emoji
    /// sequence. Characters are counted as the reader sees them, so one letter with 400,000
    /// combining marks (700 KB of "Zalgo" text) was one character of the 500: it passed every
    /// bound, was measured again at each frame and dropped 45% of the ad's pictures.
    static let maxScalarsPerCharacter = 8

    /// `text` as one cue may hold it: at most `CaptionTrack.maxShownCharacters` characters (no
    /// screen shows more), each of at most `maxScalarsPerCharacter` scalars (the rest of its
    /// combining marks dropped).
    static func screenful(_ text: String) -> String {
        var out = ""
        var characters = 0
        for c in text {
            guard characters < CaptionTrack.maxShownCharacters else { break }
            let scalars = c.unicodeScalars
            if scalars.count <= maxScalarsPerCharacter {
                out.append(c)
            } else {
                out.unicodeScalars.append(contentsOf: scalars.prefix(maxScalarsPerCharacter))
            }
            characters += 1
        }
        return out
    }

    /// How a `<` with no `>` after it reads.
    enum TagRule {
        /// As the WebVTT cue-text tokenizer: a `<` opens a tag that runs to the next `>` or the
        /// end of the cue, across lines (a browser shows nothing of `x < 5 then`'s end). Braces
        /// are text, as in a browser, except an ASS override `{\an8}` closed on its line (files
        /// converted from SubRip carry them; a browser would show them).
        case webVTT
        /// As FFmpeg's subrip decoder and libass show it: a tag is `<...>` within a line, any
        /// `{...}` within a line is hidden; a `<` or `{` with no closing `>` or `}` on its line
        /// is text (`x < 5 then` shows whole).
        case subRip
    }

    /// WebVTT and SRT payload: tags (`<b>`, `<i>`, `<c.x>`, `<v Name>`, `<font ...>`, timestamps)
    /// removed, braces as `tags` says, the usual named entities and numeric character
    /// references decoded. Linear in the payload's length,
    /// whatever markup it holds.
    static func plain(_ raw: String, tags: TagRule = .subRip) -> String {
        let s = Array(raw.unicodeScalars)
        var out = String.UnicodeScalarView()
        // Where the search for a closing `>` or `}` last failed: a later opener before that
        // point cannot find one either (keeps a line of a million `<` linear).
        var noTagClose = -1, noBraceClose = -1
        var i = 0
        while i < s.count {
            let c = s[i]
            if c == "<" {
                if tags == .webVTT {
                    while i < s.count, s[i] != ">" { i += 1 }
                    i += 1
                    continue
                }
                if i > noTagClose {
                    switch closing(">", in: s, from: i + 1) {
                    case .found(let close):
                        i = close + 1
                        continue
                    case .lineEnd(let end): noTagClose = end
                    }
                }
            } else if c == "{", tags == .subRip || (i + 1 < s.count && s[i + 1] == "\\"), i > noBraceClose {
                switch closing("}", in: s, from: i + 1) {
                case .found(let close):
                    i = close + 1
                    continue
                case .lineEnd(let end): noBraceClose = end
                }
            } else if c == "&", let (decoded, next) = entity(s, at: i) {
                out.append(decoded)
                i = next
                continue
            }
            out.append(c)
            i += 1
        }
        return tidy(String(out))
    }

    private enum Close {
        case found(Int)
        case lineEnd(Int)
    }

    /// Where `close` is on the line from `from`, or where that line ends without one.
    private static func closing(_ close: Unicode.Scalar, in s: [Unicode.Scalar], from: Int) -> Close {
        var j = from
        while j < s.count, s[j] != "\n", s[j] != "\r" {
            if s[j] == close { return .found(j) }
            j += 1
        }
        return .lineEnd(j)
    }

    private static let named: [String: Unicode.Scalar] = [
        "lt": "<", "gt": ">", "amp": "&", "quot": "\"", "apos": "'", "nbsp": "\u{00A0}", "lrm": "\u{200E}", "rlm": "\u{200F}"
    ]

    /// `&name;`, `&#NN;` or `&#xHH;` at `i`: the character and the index after the `;`.
    private static func entity(_ s: [Unicode.Scalar], at i: Int) -> (Unicode.Scalar, Int)? {
        var j = i + 1
        var name = ""
        while j < s.count, j - i <= 10, s[j] != ";" {
            name.unicodeScalars.append(s[j])
            j += 1
        }
        guard j < s.count, s[j] == ";", !name.isEmpty else { return nil }
        if let c = named[name] { return (c, j + 1) }
        guard name.hasPrefix("#") else { return nil }
        let hex = name.dropFirst().first == "x" || name.dropFirst().first == "X"
        let digits = name.dropFirst(hex ? 2 : 1)
        guard !digits.isEmpty, let value = UInt32(digits, radix: hex ? 16 : 10), value != 0, let c = Unicode.Scalar(value) else {
            return nil
        }
        return (c, j + 1)
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
        let lines = s.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let joined = lines.joined(separator: "\n")
        return joined.count > maxCharacters ? String(joined.prefix(maxCharacters)) : joined
    }
}
