import Foundation

/// When and how often one ad may show (dayparting and frequency caps), from its manifest fields
/// `days`, `hours`, `timezone`, `weight`, `max_per_day`, `max_per_hour` and `min_interval`.
/// Days and hours are local to `timezone` (IANA; the system's when absent). An hour range that
/// ends before it starts runs across midnight and belongs to the day it starts on.
public struct AdSchedule: Codable, Equatable, Sendable {
    /// nil: every day.
    public var days: [Weekday]?
    /// nil: all day.
    public var hours: [HourRange]?
    /// The IANA time zone (`Europe/Berlin`) `days` and `hours` are read in; nil: the system's.
    public var timezone: String?
    /// Share of voice among ads of equal priority.
    public var weight = 1
    /// Plays per local calendar day, per clock-independent hour (the last 60 minutes), and the
    /// least seconds between two plays of this ad, on this screen.
    public var maxPerDay: Int?
    /// `max_per_hour`: plays in any 60 minutes; nil: no cap.
    public var maxPerHour: Int?
    /// `min_interval`: seconds between two plays; nil: no gap needed.
    public var minInterval: Int?

    enum CodingKeys: String, CodingKey {
        case days, hours, timezone, weight, maxPerDay = "max_per_day", maxPerHour = "max_per_hour", minInterval = "min_interval"
    }

    /// A schedule; the defaults allow any time, as often as chosen, with weight 1.
    public init(
        days: [Weekday]? = nil, hours: [HourRange]? = nil, timezone: String? = nil, weight: Int = 1,
        maxPerDay: Int? = nil, maxPerHour: Int? = nil, minInterval: Int? = nil
    ) {
        self.days = days; self.hours = hours; self.timezone = timezone; self.weight = weight
        self.maxPerDay = maxPerDay; self.maxPerHour = maxPerHour; self.minInterval = minInterval
    }

    /// Why the ad may not show at `now` given its earlier plays on this screen, or nil when it may.
    public func refusal(at now: Date, plays: [Date], systemZone: TimeZone) -> String? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timezone.flatMap(TimeZone.init(identifier:)) ?? systemZone
        let c = calendar.dateComponents([.weekday, .hour, .minute], from: now)
        let minute = (c.hour ?? 0) * 60 + (c.minute ?? 0)
        let today = Weekday.from(calendarWeekday: c.weekday ?? 1)
        let allowed = { (day: Weekday) in days?.contains(day) ?? true }
        if let hours {
            let inside = hours.contains { r in
                if r.start < r.end { return allowed(today) && minute >= r.start && minute < r.end }
                // Across midnight: the evening of an allowed day, or the small hours after one.
                return (allowed(today) && minute >= r.start) || (allowed(today.previous) && minute < r.end)
            }
            if !inside { return allowed(today) ? "outside hours" : "outside days" }
        } else if !allowed(today) {
            return "outside days"
        }
        let past = plays.filter { $0 <= now }
        if let maxPerDay {
            let midnight = calendar.startOfDay(for: now)
            let count = past.filter { $0 >= midnight }.count
            if count >= maxPerDay { return "capped: \(AdSchedule.plays(count)) today (max_per_day \(maxPerDay))" }
        }
        if let maxPerHour {
            let count = past.filter { now.timeIntervalSince($0) < 3600 }.count
            if count >= maxPerHour { return "capped: \(AdSchedule.plays(count)) in the last hour (max_per_hour \(maxPerHour))" }
        }
        if let minInterval, let last = past.max(), now.timeIntervalSince(last) < Double(minInterval) {
            return "capped: played \(Checked.int(now.timeIntervalSince(last)) ?? 0) s ago (min_interval \(minInterval))"
        }
        return nil
    }

    /// How long play times are kept for the caps: the longest `min_interval` (a week) and a day.
    public static let historySeconds: TimeInterval = 8 * 86400
}

/// A day of the week as the manifest's `days` names it.
public enum Weekday: String, Codable, CaseIterable, Sendable {
    case sun, mon, tue, wed, thu, fri, sat

    /// Foundation's weekday number: 1 is Sunday.
    static func from(calendarWeekday n: Int) -> Weekday { allCases[((n - 1) % 7 + 7) % 7] }
    var previous: Weekday { Weekday.allCases[(Weekday.allCases.firstIndex(of: self)! + 6) % 7] }
}

/// `"HH:MM-HH:MM"`: local minutes from `start` (inclusive) to `end` (exclusive); `24:00` ends
/// at midnight; an end at or before the start runs across midnight.
public struct HourRange: Codable, Equatable, Sendable {
    /// Minutes after local midnight the range starts (inclusive), 0 to 1439.
    public var start: Int
    /// Minutes after local midnight the range ends (exclusive), up to 1440; at or before `start` it ends the next day.
    public var end: Int

    /// Parses `"HH:MM-HH:MM"`; nil for any other shape, an impossible time, or equal ends.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let s = HourRange.minutes(parts[0]), let e = HourRange.minutes(parts[1]), s < 1440, s != e else {
            return nil
        }
        start = s; end = e
    }

    static func minutes(_ text: Substring) -> Int? {
        let hm = text.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false)
        // Two ASCII digits each: Int alone would take "+6".
        guard hm.count == 2, hm.allSatisfy({ $0.count == 2 && $0.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } }),
            let h = Int(hm[0]), let m = Int(hm[1]), (0...24).contains(h), (0..<60).contains(m), h < 24 || m == 0
        else { return nil }
        return h * 60 + m
    }

    /// The range as `"HH:MM-HH:MM"`.
    public var text: String { String(format: "%02d:%02d-%02d:%02d", start / 60, start % 60, end / 60, end % 60) }
}

extension AdSchedule {
    /// "1 play", "2 plays".
    static func plays(_ count: Int) -> String { count == 1 ? "1 play" : "\(count) plays" }
}
