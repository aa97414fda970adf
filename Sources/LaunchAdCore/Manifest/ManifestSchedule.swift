import Foundation

/// The schedule fields of a manifest ad. A field of the wrong type or value (an unknown day, a
/// malformed hour range, an unknown time zone) rejects that ad alone, naming the field.
enum ManifestSchedule {
    static func parse(_ o: [String: ManifestJSON]) throws -> AdSchedule? {
        let keys = ["days", "hours", "timezone", "weight", "max_per_day", "max_per_hour", "min_interval"]
        guard keys.contains(where: { o[$0] != nil && o[$0] != .null }) else { return nil }
        let f = ManifestParser.Fields(o)
        var s = AdSchedule()
        s.days = try list(o, "days") { text, field in
            guard let day = Weekday(rawValue: text.lowercased()) else {
                throw ManifestError(
                    "\(field) must be one of \(Weekday.allCases.map(\.rawValue).joined(separator: ", ")), not \"\(TerminalText.quoted(text))\"",
                    field: field)
            }
            return day
        }
        s.hours = try list(o, "hours") { text, field in
            guard let range = HourRange(text) else {
                throw ManifestError(
                    "\(field) must be a local time range \"HH:MM-HH:MM\" (e.g. \"22:00-02:00\"), not \"\(TerminalText.quoted(text))\"",
                    field: field)
            }
            return range
        }
        s.timezone = try f.optionalString("timezone")
        if let zone = s.timezone, TimeZone(identifier: zone) == nil {
            throw ManifestError(
                "timezone \"\(TerminalText.quoted(zone))\" is not a known IANA time zone (e.g. \"Europe/Berlin\")", field: "timezone")
        }
        s.weight = try f.int("weight", in: 1...1000) ?? 1
        s.maxPerDay = try f.int("max_per_day", in: 1...100_000)
        s.maxPerHour = try f.int("max_per_hour", in: 1...10_000)
        s.minInterval = try f.int("min_interval", in: 0...7 * 86400)
        return s
    }

    /// A non-empty array of strings, each turned into a value by `make`.
    private static func list<T>(_ o: [String: ManifestJSON], _ key: String, _ make: (String, String) throws -> T) throws -> [T]? {
        switch o[key] {
        case nil, .null?: return nil
        case .array(let items)? where !items.isEmpty && items.count <= 50:
            return try items.enumerated().map { i, item in
                guard case .string(let text) = item else {
                    throw ManifestError("\(key)[\(i)] must be a string, not \(item.typeName)", field: "\(key)[\(i)]")
                }
                return try make(text, "\(key)[\(i)]")
            }
        case let v?: throw ManifestError("\(key) must be a non-empty array of strings, not \(v.typeName)", field: key)
        }
    }
}
