import Foundation

/// Manifest times: RFC 3339 text ("2026-11-01T00:00:00Z", "2026-11-01T09:30:00.5+02:00") or
/// seconds since the Unix epoch, as a JSON number or a string of digits.
public enum ManifestDate {
    /// A time given as text (a command line's): RFC 3339 or epoch seconds.
    public static func time(_ text: String) -> Date? { parse(.string(text)) }

    /// Epoch seconds a time may be given as: from the year 1 to the end of the year 9999, the
    /// range of the RFC 3339 form. `"start": 9223372036854775807` (or 1e308) was taken, and
    /// writing it as a time trapped `launch` and `schedule` (exit 132) on every run after.
    static let epochSeconds: ClosedRange<Double> = -62_135_596_800...253_402_300_799

    static func parse(_ value: ManifestJSON) -> Date? {
        switch value {
        case .number(let d): return epochSeconds.contains(d) ? Date(timeIntervalSince1970: d) : nil
        case .string(let s):
            if let d = Double(s), epochSeconds.contains(d), s.allSatisfy({ $0.isNumber || $0 == "." || $0 == "-" }) {
                return Date(timeIntervalSince1970: d)
            }
            return rfc3339(s)
        default: return nil
        }
    }

    /// Parses `YYYY-MM-DD('T'|'t'|' ')hh:mm:ss(.frac)?('Z'|'z'|±hh:mm)`.
    public static func rfc3339(_ s: String) -> Date? {
        let c = Array(s.utf8)
        var i = 0
        func digits(_ n: Int) -> Int? {
            guard i + n <= c.count else { return nil }
            var v = 0
            for j in i..<i + n {
                guard c[j] >= 48, c[j] <= 57 else { return nil }
                v = v * 10 + Int(c[j] - 48)
            }
            i += n
            return v
        }
        func expect(_ chars: String) -> Bool {
            guard i < c.count, chars.utf8.contains(c[i]) else { return false }
            i += 1
            return true
        }
        guard let year = digits(4), expect("-"), let month = digits(2), expect("-"), let day = digits(2),
            expect("Tt "), let hour = digits(2), expect(":"), let minute = digits(2), expect(":"),
            let second = digits(2)
        else { return nil }
        var fraction = 0.0
        if i < c.count, c[i] == UInt8(ascii: ".") {
            i += 1
            var scale = 0.1
            let begin = i
            while i < c.count, c[i] >= 48, c[i] <= 57 { fraction += Double(c[i] - 48) * scale; scale /= 10; i += 1 }
            if i == begin { return nil }
        }
        var offset = 0
        if expect("Zz") {
            offset = 0
        } else if i < c.count, c[i] == UInt8(ascii: "+") || c[i] == UInt8(ascii: "-") {
            let sign = c[i] == UInt8(ascii: "-") ? -1 : 1
            i += 1
            guard let oh = digits(2), expect(":"), let om = digits(2), oh < 24, om < 60 else { return nil }
            offset = sign * (oh * 3600 + om * 60)
        } else {
            return nil
        }
        guard i == c.count, (1...12).contains(month), day >= 1, day <= daysIn(month, year),
            hour < 24, minute < 60, second <= 60
        else { return nil }
        let days = daysFromCivil(year, month, day)
        let seconds = Double(days * 86400 + hour * 3600 + minute * 60 + min(second, 59) - offset) + fraction
        return Date(timeIntervalSince1970: seconds)
    }

    static func daysIn(_ month: Int, _ year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(_ y0: Int, _ m: Int, _ d: Int) -> Int {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }
}
