/// A WebVTT timing line read as the W3C spec's "collect WebVTT cue timings and settings" and
/// "collect a WebVTT timestamp" read it, step by step: whitespace is the spec's ASCII
/// whitespace (space, tab, form feed), minutes and seconds are exactly two digits and below
/// 60, the fraction exactly three digits, hours any number of digits (one is allowed: `0:00:00.000`)
/// and present whenever the first field is not two digits or is over 59. Settings after the
/// end time are not followed (LaunchAd places every cue itself), so they never fail a cue.
enum WebVTTTimings {
    /// The start and end of `line`, in ms; nil when a browser would drop the cue.
    static func read(_ line: ArraySlice<Unicode.Scalar>) -> (startMs: Int, endMs: Int)? {
        var p = line.startIndex
        skipWhitespace(line, &p)
        guard let start = timestamp(line, &p) else { return nil }
        skipWhitespace(line, &p)
        for arrow in ["-", "-", ">"] as [Unicode.Scalar] {
            guard p < line.endIndex, line[p] == arrow else { return nil }
            p += 1
        }
        skipWhitespace(line, &p)
        guard let end = timestamp(line, &p) else { return nil }
        return (start, end)
    }

    /// The spec's ASCII whitespace; a line never holds LF or CR once the file's line endings are read.
    static func isWhitespace(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\t" || c == "\u{0C}" || c == "\n" || c == "\r" }

    private static func skipWhitespace(_ s: ArraySlice<Unicode.Scalar>, _ p: inout Int) {
        while p < s.endIndex, isWhitespace(s[p]) { p += 1 }
    }

    /// "Collect a WebVTT timestamp" from `p`, leaving `p` after it.
    static func timestamp(_ s: ArraySlice<Unicode.Scalar>, _ p: inout Int) -> Int? {
        guard p < s.endIndex, s[p].isASCIIDigit else { return nil }
        let (value1, count1) = digits(s, &p)
        let firstIsHours = count1 != 2 || value1 > 59
        guard take(":", s, &p) else { return nil }
        let (value2, count2) = digits(s, &p)
        guard count2 == 2 else { return nil }
        var hours = 0, minutes = value1, seconds = value2
        if firstIsHours || (p < s.endIndex && s[p] == ":") {
            guard take(":", s, &p) else { return nil }
            let (value3, count3) = digits(s, &p)
            guard count3 == 2 else { return nil }
            (hours, minutes, seconds) = (value1, value2, value3)
        }
        guard take(".", s, &p) else { return nil }
        let (fraction, count4) = digits(s, &p)
        guard count4 == 3, minutes <= 59, seconds <= 59 else { return nil }
        return CaptionTime.ms(hours: hours, minutes: minutes, seconds: seconds, millis: fraction)
    }

    private static func take(_ c: Unicode.Scalar, _ s: ArraySlice<Unicode.Scalar>, _ p: inout Int) -> Bool {
        guard p < s.endIndex, s[p] == c else { return false }
        p += 1
        return true
    }

    /// The digits at `p` (saturated value, how many), leaving `p` after them.
    private static func digits(_ s: ArraySlice<Unicode.Scalar>, _ p: inout Int) -> (value: Int, count: Int) {
        let from = p
        while p < s.endIndex, s[p].isASCIIDigit { p += 1 }
        return (CaptionTime.digitsValue(s[from..<p]), p - from)
    }
}
