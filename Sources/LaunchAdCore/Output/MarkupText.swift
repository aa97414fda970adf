/// Text made safe for the reports written as markup: HTML element content and attribute values
/// (`--report-html`) and XML (`--junit`). One escaper for both: `&#39;` is read as an
/// apostrophe by HTML 4 and XML alike, and characters XML 1.0 cannot hold (control characters
/// other than tab and line ends, U+FFFE, U+FFFF) become `?`, which HTML never needed either.
enum MarkupText {
    static func escape(_ s: String) -> String {
        s.replacingScalars { u in
            switch u {
            case "&": return "&amp;"
            case "<": return "&lt;"
            case ">": return "&gt;"
            case "\"": return "&quot;"
            case "'": return "&#39;"
            case "\t", "\n", "\r": return nil
            case _ where u.value < 0x20 || u.value == 0xFFFE || u.value == 0xFFFF: return "?"
            default: return nil
            }
        }
    }
}
