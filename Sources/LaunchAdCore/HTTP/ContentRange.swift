/// A `Content-Range: bytes START-END/TOTAL` header, read without traps: every header value is
/// untrusted, so anything but that exact shape with START <= END < TOTAL is nil.
public struct ContentRange: Equatable, Sendable {
    /// First byte offset of the range.
    public let start: Int64
    /// Last byte offset of the range, inclusive.
    public let end: Int64
    /// The whole resource's size in bytes.
    public let total: Int64

    /// Bytes in the range (`end - start + 1`).
    public var length: Int64 { end - start + 1 }

    /// Parses a header value; nil unless it is exactly `bytes START-END/TOTAL` with START <= END < TOTAL.
    public init?(_ header: String) {
        var text = Substring(header)
        while text.first == " " || text.first == "\t" { text = text.dropFirst() }
        while text.last == " " || text.last == "\t" { text = text.dropLast() }
        guard text.lowercased().hasPrefix("bytes ") else { return nil }
        text = text.dropFirst("bytes ".count)
        let halves = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard halves.count == 2 else { return nil }
        let ends = halves[0].split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard ends.count == 2, let s = ContentRange.number(ends[0]), let e = ContentRange.number(ends[1]),
            let t = ContentRange.number(halves[1]), s <= e, e < t
        else { return nil }
        start = s; end = e; total = t
    }

    /// Plain decimal digits only (no sign, no spaces), at most 18 so the value fits an Int64.
    private static func number(_ s: Substring) -> Int64? {
        guard !s.isEmpty, s.count <= 18, s.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int64(s)
    }

    /// The header's range if it is the answer to `bytes=offset-(offset+asked-1)`: it starts at
    /// `offset`, is no longer than asked, and holds exactly the `received` bytes.
    public static func answer(_ header: String, offset: Int64, asked: Int64, received: Int64) -> ContentRange? {
        guard let r = ContentRange(header), r.start == offset, r.length <= asked, r.length == received else { return nil }
        return r
    }
}
