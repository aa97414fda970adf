/// Numbers a document, a header or a file chose, turned into integers without a trap: `Int(x)`
/// of a NaN, an infinity or 1e308 stops the process, so every conversion of such a value goes
/// through here (a test keeps raw conversions of floating values out of the sources) and a
/// value that cannot be one ends as the caller's documented error.
public enum Checked {
    /// The largest magnitude accepted: 2^53, where doubles stop holding every integer.
    public static let limit = 9_007_199_254_740_992.0

    /// `value` as an Int when finite and within ±`limit`; nil otherwise. Fractions are cut toward zero.
    public static func int(_ value: Double) -> Int? {
        guard value.isFinite, abs(value) <= limit else { return nil }
        return Int(exactly: value.rounded(.towardZero))
    }

    /// `value` as an Int64, under the rules of `int`.
    public static func int64(_ value: Double) -> Int64? {
        guard value.isFinite, abs(value) <= limit else { return nil }
        return Int64(exactly: value.rounded(.towardZero))
    }

    /// `value` as an Int32 (a C API's), nil outside its range or not finite.
    public static func int32(_ value: Double) -> Int32? {
        guard value.isFinite, abs(value) <= Double(Int32.max) else { return nil }
        return Int32(exactly: value.rounded(.towardZero))
    }

    /// `value` rounded to the nearest integer, under the rules of `int`.
    public static func rounded(_ value: Double) -> Int? { int(value.rounded()) }

    /// `seconds` as whole milliseconds (rounded), under the rules of `int`: a duration, offset or
    /// timestamp a document or file chose.
    public static func milliseconds(_ seconds: Double) -> Int? { int((seconds * 1000).rounded()) }

    /// `limit` as an Int.
    public static let bound = 9_007_199_254_740_992

    /// `text` as an Int when it is a whole number in decimal (a sign, then digits: a 64-bit
    /// integer a server sent quoted) within ±`limit`; nil otherwise (`Int.max`, a fraction, hex).
    public static func int(decimal text: String) -> Int? {
        guard let n = Int(text), n.magnitude <= bound.magnitude else { return nil }
        return n
    }

    /// `a + b` held within ±`limit`: a total of numbers a server chose (plays, shown time) that
    /// neither traps nor wraps, however many it adds.
    public static func sum(_ a: Int, _ b: Int) -> Int {
        let (s, overflow) = a.addingReportingOverflow(b)
        if overflow { return a < 0 ? -bound : bound }
        return min(max(s, -bound), bound)
    }

    /// `value` clamped into `range`: NaN gives `range.lowerBound`, the infinities its ends.
    public static func int(_ value: Double, clampedTo range: ClosedRange<Int>) -> Int {
        guard !value.isNaN else { return range.lowerBound }
        if value <= Double(range.lowerBound) { return range.lowerBound }
        if value >= Double(range.upperBound) { return range.upperBound }
        return Int(value.rounded(.towardZero))
    }
}
