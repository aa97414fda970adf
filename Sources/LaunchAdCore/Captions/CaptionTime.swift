/// Caption times as milliseconds, whatever number a document wrote: every format's parser builds
/// its times here, so no value a file chose reaches an `Int` conversion unchecked (a NaN, an
/// infinity, 1e308 or twenty digits of hours end as a saturated or refused time, never a trap).
enum CaptionTime {
    /// The latest time a cue is kept at (a day): a cue starting later is past any ad and skipped,
    /// one ending later is cut there.
    static let maxMs = 86_400_000
    /// Where arithmetic on document times saturates (about 31,700 years): far past `maxMs`, far
    /// below `Int.max`, so sums of nested offsets cannot overflow either.
    static let limitMs = 1_000_000_000_000_000
    /// The largest value one field (hours, minutes, a count) keeps before saturating.
    static let fieldLimit = 1_000_000_000

    /// `hours:minutes:seconds` and `millis`, any of them possibly negative (SubRip reads signs),
    /// each field saturated first, the total saturated at ±`limitMs`.
    static func ms(hours: Int, minutes: Int, seconds: Int, millis: Int) -> Int {
        func field(_ v: Int) -> Int { min(max(v, -fieldLimit), fieldLimit) }
        let total = ((field(hours) * 60 + field(minutes)) * 60 + field(seconds)) * 1000 + field(millis)
        return min(max(total, -limitMs), limitMs)
    }

    /// The one conversion of a fractional time to ms: nil for NaN, an infinity or a negative
    /// value; a finite value past `limitMs` saturates there.
    static func ms(seconds: Double) -> Int? {
        guard seconds.isFinite, seconds >= 0 else { return nil }
        let ms = seconds * 1000
        guard ms.isFinite, ms < Double(limitMs) else { return limitMs }
        return Checked.rounded(ms) ?? limitMs
    }

    /// `a + b` saturated at ±`limitMs` (nested TTML offsets add up).
    static func add(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        if overflow { return a > 0 ? limitMs : -limitMs }
        return min(max(sum, -limitMs), limitMs)
    }

    /// The value of a run of ASCII digits, saturated at `fieldLimit` (a thousand digits cost a
    /// thousand steps, never an overflow).
    static func digitsValue<S: Sequence>(_ digits: S) -> Int where S.Element == Unicode.Scalar {
        var value = 0
        for d in digits { value = min(value * 10 + Int(d.value - 48), fieldLimit) }
        return value
    }
}

extension Unicode.Scalar {
    /// `0`-`9`.
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
