/// Click-through links: only web links are ever opened.
public enum Link {
    /// Whether `raw` may be opened: an http(s) URL with a host and no whitespace or control characters.
    public static func isAllowed(_ raw: String) -> Bool {
        let lower = raw.lowercased()
        guard let sep = lower.range(of: "://") else { return false }
        let scheme = lower[..<sep.lowerBound]
        let rest = lower[sep.upperBound...]
        // A host must follow the scheme: not "http:///x", "http://?q" or "http://#f".
        guard scheme == "http" || scheme == "https", let hostChar = rest.first,
            hostChar.isLetter || hostChar.isNumber || hostChar == "["
        else { return false }
        return !raw.contains(where: { $0.isWhitespace || $0.asciiValue.map { $0 < 0x20 } ?? false })
    }
}
