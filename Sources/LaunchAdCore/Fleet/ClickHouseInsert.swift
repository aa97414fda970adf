import Foundation

/// How a batch of play records becomes one `INSERT INTO <table> (...) FORMAT JSONEachRow`
/// request, and what ClickHouse's answer means for the outbox. Pure: the outbox stores each
/// row, the delivery layer sends what this builds.
public enum ClickHouseInsert {
    /// The columns sent, `received_at` left out so the server fills it (`DEFAULT now()`). Named
    /// in the query: 18.16 fills a field missing from a JSON row with the type's zero, not the
    /// column's DEFAULT, unless the column is left out of the list.
    public static var sentColumns: [String] { FleetSchema.columns.map(\.name) }

    /// The INSERT statement (it goes in the URL's `query`; the rows are the body).
    public static func query(_ table: ClickHouseTable) -> String {
        "INSERT INTO \(table.sql) (\(sentColumns.joined(separator: ", "))) FORMAT JSONEachRow"
    }

    /// A record (the JSON object a plain collector gets) as a ClickHouse row without `sent_at`:
    /// times as `YYYY-MM-DD hh:mm:ss` UTC (whole seconds), booleans as 0 or 1, counts clamped
    /// into UInt32, missing values null or empty. Only the table's columns, in its order.
    public static func row(record: JSONValue) -> JSONValue {
        guard case .object(let pairs) = record else { return .object([]) }
        let fields = Dictionary(pairs, uniquingKeysWith: { first, _ in first })
        var out: [(String, JSONValue)] = []
        for column in FleetSchema.columns where column.name != "sent_at" {
            let value = fields[column.name] ?? .null
            switch column.kind {
            case .text: out.append((column.name, value.text.map { .string($0) } ?? .string("")))
            case .optionalText: out.append((column.name, value.text.map { .string($0) } ?? .null))
            case .time: out.append((column.name, .string(value.text.map(dateTime(fromUTC:)) ?? epochText)))
            case .optionalCount: out.append((column.name, value.count.map { .int($0) } ?? .null))
            case .count: out.append((column.name, .int(value.count ?? 0)))
            case .flag: out.append((column.name, .int(value == .bool(true) ? 1 : 0)))
            }
        }
        return .object(out)
    }

    /// The request's body: each stored row with the screen's clock at this try (`sent_at`), one
    /// JSON object a line. A stored row that is not an object (a damaged item) is sent as it is,
    /// and ClickHouse refuses the batch.
    public static func body(rows: [String], sentAt: Date) -> String {
        let stamp = JSONText.quoted(dateTime(sentAt))
        return rows.map { row in
            let trimmed = row.trimmingCharacters(in: .whitespacesAndNewlines)
            guard trimmed.hasPrefix("{"), trimmed.hasSuffix("}") else { return trimmed }
            let inner = trimmed.dropFirst().dropLast()
            let separator = inner.trimmingCharacters(in: .whitespaces).isEmpty ? "" : ","
            return "{\(inner)\(separator)\"sent_at\":\(stamp)}"
        }.joined(separator: "\n") + "\n"
    }

    /// The batch's name for ClickHouse's `insert_deduplication_token`: the same items give the
    /// same token on every try, so a server that stored a batch whose answer was lost drops the
    /// second copy whole (Replicated tables, or `non_replicated_deduplication_window` > 0).
    public static func token(itemNames: [String]) -> String {
        String(SHA256.hex(of: Data(itemNames.joined(separator: "\n").utf8)).prefix(32))
    }

    /// The URL of one insert: the collector's URL (its path kept) with `query` and, when given,
    /// `insert_deduplication_token`, percent-encoded. Nil when the collector's URL is not one
    /// `ClickHouseURL.refusal` lets through.
    public static func url(collector: String, table: ClickHouseTable, token: String?) -> String? {
        var params = [("query", query(table))]
        if let token { params.append(("insert_deduplication_token", token)) }
        return ClickHouseURL.with(collector, params)
    }

    /// `YYYY-MM-DD hh:mm:ss` in UTC, clamped to what DateTime holds (1970 to 2105).
    public static func dateTime(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        let clamped = seconds.isFinite ? min(max(seconds, 0), maxSeconds) : 0
        let c = Calendar.utc.dateComponents(
            [.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: clamped.rounded(.down)))
        return String(
            format: "%04d-%02d-%02d %02d:%02d:%02d", c.year ?? 1970, c.month ?? 1, c.day ?? 1, c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
    }

    /// The record's `2026-12-01T08:00:01.120Z` as `2026-12-01 08:00:01`; anything else, or a year
    /// DateTime cannot hold, is the epoch (a zero time reads as "unknown", never as a plausible date).
    static func dateTime(fromUTC text: String) -> String {
        let u = Array(text.utf8)
        let digitsAt = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18]
        guard u.count >= 19, digitsAt.allSatisfy({ u[$0] >= 48 && u[$0] <= 57 }), u[4] == 45, u[7] == 45, u[10] == 84 || u[10] == 32,
            u[13] == 58, u[16] == 58, let year = Int(String(decoding: u[0..<4], as: UTF8.self)), (1970...2105).contains(year)
        else { return epochText }
        return String(decoding: u[0..<10], as: UTF8.self) + " " + String(decoding: u[11..<19], as: UTF8.self)
    }

    static let epochText = "1970-01-01 00:00:00"
    /// 2105-12-31 23:59:59 UTC, inside UInt32 seconds on every ClickHouse.
    static let maxSeconds: Double = 4_291_747_199
}

/// Building ClickHouse HTTP URLs: the parameters percent-encoded strictly (only unreserved
/// characters left as they are, so `+`, `&`, `#` and spaces in SQL never change meaning).
public enum ClickHouseURL {
    /// Why `url` cannot name a ClickHouse server, in one line; nil when it can: an absolute
    /// http(s) URL with a host and no query string. launchad writes the whole query string
    /// itself (the SQL, and nothing else): a URL that brings its own (`?query=INSERT INTO
    /// launchad.canary ...`, `?database=...`, a setting such as `?readonly=0`) would choose what
    /// the server runs with the screen's or the reporter's key. The one check every ClickHouse
    /// URL meets, where it enters (a manifest's `report`, `--report` with `--report-format
    /// clickhouse`, `fleet report --clickhouse`) and again where a request is built (`with`).
    public static func refusal(_ url: String) -> String? {
        if let why = CollectorURL.userinfoRefusal(url) { return why }
        guard let u = URL(string: url), let scheme = u.scheme?.lowercased(), ["http", "https"].contains(scheme), u.host?.isEmpty == false
        else { return "a ClickHouse server's URL must be an http or https URL with a host" }
        if url.contains("?") {
            return
                "a ClickHouse server's URL may not carry a query string (launchad writes the whole query; give the server's address and path only)"
        }
        return nil
    }

    /// `base` with `params` as its query string; any fragment dropped. Nil for a base that
    /// `refusal` refuses.
    public static func with(_ base: String, _ params: [(String, String)]) -> String? {
        guard refusal(base) == nil else { return nil }
        var text = base
        if let hash = text.firstIndex(of: "#") { text = String(text[..<hash]) }
        return text + "?" + params.map { "\(encode($0.0))=\(encode($0.1))" }.joined(separator: "&")
    }

    /// Every byte but A-Z a-z 0-9 - . _ ~ as %XX.
    public static func encode(_ s: String) -> String {
        var out = ""
        for byte in s.utf8 {
            switch byte {
            case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0x2D, 0x2E, 0x5F, 0x7E: out.unicodeScalars.append(Unicode.Scalar(byte))
            default: out += String(format: "%%%02X", byte)
            }
        }
        return out
    }
}

extension JSONValue {
    /// A string's text, a number's digits; nil for null, booleans, arrays and objects.
    fileprivate var text: String? {
        switch self {
        case .string(let s): return s
        case .int(let i): return String(i)
        default: return nil
        }
    }

    /// A whole non-negative number clamped into UInt32 (a double rounded); nil for anything else.
    fileprivate var count: Int? {
        switch self {
        case .int(let i): return min(max(i, 0), Int(UInt32.max))
        case .double(let d) where d.isFinite: return Checked.int(d.rounded(), clampedTo: 0...Int(UInt32.max))
        default: return nil
        }
    }
}

extension Calendar {
    /// The Gregorian calendar in UTC.
    static let utc: Calendar = {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = TimeZone(identifier: "UTC")!
        return c
    }()
}
