/// Text made safe for the reports written as markup: HTML element content and attribute values
/// (`--report-html`) and XML (`--junit`). One escaper for both: `&#39;` is read as an
/// apostrophe by HTML 4 and XML alike, and characters XML 1.0 cannot hold (control characters
/// other than tab and line ends, U+FFFE, U+FFFF) become `?`, which HTML never needed either.
enum MarkupText {
    static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for u in s.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t", "\n", "\r": out.unicodeScalars.append(u)
            case _ where u.value < 0x20 || u.value == 0xFFFE || u.value == 0xFFFF: out += "?"
            default: out.unicodeScalars.append(u)
            }
        }
        return out
    }
}
