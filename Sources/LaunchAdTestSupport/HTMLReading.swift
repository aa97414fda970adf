import Foundation

/// Reads the HTML report (as written, or as a browser's DOM dump) the way the tests check it:
/// elements by tag and class, and positions in the plots turned back into the values they stand for.
public enum HTMLReading {
    /// The attributes of every `<tag ...>` whose class list holds `cls` (any when nil).
    public static func elements(_ tag: String, class cls: String? = nil, in html: String) -> [[String: String]] {
        let open = try! NSRegularExpression(pattern: "<\(tag)\\b([^>]*)>", options: [.caseInsensitive])
        let attr = try! NSRegularExpression(pattern: #"([a-zA-Z_:][-a-zA-Z0-9_:.]*)="([^"]*)""#)
        let ns = html as NSString
        return open.matches(in: html, range: NSRange(location: 0, length: ns.length)).compactMap { m in
            let text = ns.substring(with: m.range(at: 1))
            var out: [String: String] = [:]
            for a in attr.matches(in: text, range: NSRange(location: 0, length: (text as NSString).length)) {
                out[(text as NSString).substring(with: a.range(at: 1))] = (text as NSString).substring(with: a.range(at: 2))
            }
            if let cls, !(out["class"] ?? "").split(separator: " ").contains(Substring(cls)) { return nil }
            return out
        }
    }

    /// The value at pixel `p`, by the straight line through two labelled axis positions
    /// (`valueKey`, `positionKey` of each mark: data-lufs/y1 for grid lines, data-seconds/x for ticks).
    public static func value(at p: Double, marks: [[String: String]], valueKey: String, positionKey: String) -> Double? {
        let pairs = marks.compactMap { m -> (Double, Double)? in
            guard let v = m[valueKey].flatMap(Double.init), let q = m[positionKey].flatMap(Double.init) else { return nil }
            return (v, q)
        }
        guard let a = pairs.first, let b = pairs.last, a.1 != b.1 else { return nil }
        return a.0 + (p - a.1) / (b.1 - a.1) * (b.0 - a.0)
    }

    /// The HTML of the creative section with this id, up to the next section.
    public static func section(_ id: String, in html: String) -> String? {
        guard let start = html.range(of: "id=\"\(id)\"") else { return nil }
        let rest = html[start.lowerBound...]
        let end = rest.range(of: "</section>")?.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }
}
