import Foundation

/// A wall-clock time without an offset (`2026-03-29T02:30`, `2026-12-24 18:00:05`), read in a
/// time zone as a kiosk's clock shows it. A time the clocks skip when they go forward (02:30 on
/// the night summer time starts) is the moment the clocks show a time past it (03:30 summer
/// time, as Foundation's Calendar resolves it); a time they show twice when they go back is the
/// first of the two.
public enum LocalTime {
    /// `YYYY-MM-DD('T'|' ')hh:mm(:ss)?` in `zone`; nil for anything else (an offset included).
    public static func parse(_ text: String, in zone: TimeZone) -> Date? {
        let parts = text.split(whereSeparator: { $0 == "T" || $0 == "t" || $0 == " " })
        guard parts.count == 2 else { return nil }
        let date = parts[0].split(separator: "-", omittingEmptySubsequences: false)
        let clock = parts[1].split(separator: ":", omittingEmptySubsequences: false)
        let widths = [4, 2, 2, 2, 2, 2].prefix(date.count + clock.count)
        let fields = date + clock
        guard date.count == 3, clock.count == 2 || clock.count == 3,
            zip(fields, widths).allSatisfy({ field, width in field.count == width && field.allSatisfy { $0.isASCII && $0.isNumber } })
        else { return nil }
        let n = fields.map { Int($0)! }
        let second = clock.count == 3 ? n[5] : 0
        guard (1...12).contains(n[1]), (1...31).contains(n[2]), (0...23).contains(n[3]), (0...59).contains(n[4]), (0...59).contains(second)
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let components = DateComponents(year: n[0], month: n[1], day: n[2], hour: n[3], minute: n[4], second: second)
        // February 30th would roll over into March: refused, not moved.
        guard let moment = calendar.date(from: components), calendar.component(.day, from: moment) == n[2] else { return nil }
        return moment
    }
}
