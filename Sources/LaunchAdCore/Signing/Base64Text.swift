/// Base64 as minisign writes it (RFC 4648's standard alphabet, `=` padding, no line breaks),
/// read strictly: a length that is not a multiple of four, a character outside the alphabet
/// (space, newline, `-`, `_`), padding anywhere but at the end, or unused bits that are not
/// zero are all refused, so one text has one reading.
public enum Base64Text {
    /// The bytes `text` encodes, or nil when it is not canonical base64 of exactly `count` bytes.
    public static func decode(_ text: Substring.UTF8View, count: Int) -> [UInt8]? {
        // Checked before anything is decoded: a huge line costs nothing.
        guard text.count == (count + 2) / 3 * 4 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(count)
        var bits: UInt32 = 0, held = 0, padding = 0
        for c in text {
            if c == UInt8(ascii: "=") {
                padding += 1
                continue
            }
            guard padding == 0, let v = value(c) else { return nil }
            bits = bits << 6 | UInt32(v)
            held += 6
            if held >= 8 {
                held -= 8
                out.append(UInt8(truncatingIfNeeded: bits >> UInt32(held)))
                bits &= (1 << UInt32(held)) - 1
            }
        }
        // The padding makes the length a multiple of four and nothing more; the bits left over
        // must be zero (else two texts would decode to the same bytes).
        guard out.count == count, padding == (3 - count % 3) % 3, bits == 0 else { return nil }
        return out
    }

    /// Whether `c` is one of the 64 characters (not the padding).
    static func isAlphabet(_ c: UInt8) -> Bool { value(c) != nil }

    private static func value(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return c - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return c - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): return 62
        case UInt8(ascii: "/"): return 63
        default: return nil
        }
    }
}
