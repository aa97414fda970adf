import Foundation

/// One play's proof for a collector, built from the play's own events as they pass: which ad
/// and creative, when it was on screen (UTC), for how long, how it ended, how cleanly it played.
/// Counters the events do not carry stay null: nothing is invented.
public struct PlayRecord: Sendable {
    /// The ad's id (the manifest's or the VAST ad's); nil when the play has none, such as a plain file.
    public var adID: String?
    /// The sha256 of the creative played, when known (a launch fills it in as the play completes).
    public var creativeSHA256: String?
    /// Whether the ad played fullscreen.
    public var fullscreen = false
    private var firstAt: Date?
    private var shownAt: Date?
    private var endedAt: Date?
    private var end: RunEnd?
    /// The code of the `error` that ended or marred the play (`media_stalled`, `media_truncated`, ...).
    private var errorCode: String?
    private var width: Int?
    private var height: Int?
    private var muted = false
    private var pausedMs = 0
    private var pausedSinceMs: Int?

    /// A record for a play about to start; `muted` is how it starts (mute events change it).
    public init(adID: String?, creativeSHA256: String?, fullscreen: Bool, muted: Bool) {
        self.adID = adID; self.creativeSHA256 = creativeSHA256; self.fullscreen = fullscreen; self.muted = muted
    }

    /// Takes one of the play's events, seen at wall-clock time `at`; an `end` (or a VAST ad's
    /// `ad_end`) completes it.
    public mutating func observe(_ event: AdEvent, at: Date) {
        if firstAt == nil { firstAt = at }
        switch event.event {
        case .window(let w): width = w.width; height = w.height
        case .firstFrame: if shownAt == nil { shownAt = at }
        case .mute: muted = true
        case .unmute: muted = false
        case .pause: if pausedSinceMs == nil { pausedSinceMs = event.tMs }
        case .resume: if let since = pausedSinceMs { pausedMs += max(0, event.tMs - since); pausedSinceMs = nil }
        case .error(let e): errorCode = e.code.text
        case .end(let e), .adEnd(_, _, let e):
            if let since = pausedSinceMs { pausedMs += max(0, event.tMs - since); pausedSinceMs = nil }
            end = e
            endedAt = at
        default: break
        }
    }

    /// Whether the play is over (its `end` was seen).
    public var isComplete: Bool { end != nil }

    /// The record as the collector receives it. `id` is its duplicate key, fixed when it is made.
    public func json(id: String, screen: String, version: String) -> JSONValue {
        let number = { (value: Int?) -> JSONValue in value.map { .int($0) } ?? .null }
        let time = { (date: Date?) -> JSONValue in .optional(date.map(PlayRecord.utc)) }
        let frames = end?.frames
        let fields: [(String, JSONValue)] = [
            ("id", .string(id)), ("screen", .string(screen)), ("ad_id", .optional(adID)),
            ("creative_sha256", .optional(creativeSHA256)), ("started_at", time(shownAt ?? firstAt)),
            ("ended_at", time(endedAt)), ("shown_ms", number(end?.shownMs)), ("outcome", .optional(end?.outcome.rawValue)),
            ("error", .optional(errorCode)), ("frames_shown", number(frames?.shown)), ("frames_dropped", number(frames?.dropped)),
            ("av_offset_ms_max", number(frames?.avOffsetMsMax)), ("muted", .bool(muted)), ("paused_ms", .int(pausedMs)),
            ("width", number(width)), ("height", number(height)), ("fullscreen", .bool(fullscreen)),
            ("launchad_version", .string(version))
        ]
        return .object(fields)
    }

    /// `2026-01-01T00:00:00.000Z`.
    public static func utc(_ date: Date) -> String { MacroExpander.timestamp(date) }
}

/// Where play records go: the manifest's `"report": {"url": ..., "batch": 50}`, or `--report URL`.
public struct ReportTarget: Codable, Equatable, Sendable {
    /// The collector's http(s) URL that records are POSTed to.
    public var url: String
    /// The most records per POST.
    public var batch: Int
    /// The table when the collector is ClickHouse (`"format": "clickhouse"`): each batch is one
    /// `INSERT ... FORMAT JSONEachRow`; nil for a plain collector (JSON array POSTs). The
    /// screen's own choice (`--report-table`, else `launchad.plays`): a manifest's collector gets
    /// it from `CollectorRule`, never from the manifest.
    public var clickHouse: ClickHouseTable?
    /// The table a manifest's `report.table` named, if any: only compared with the screen's
    /// table (`CollectorRule`: one that differs is refused), never inserted into.
    public var manifestTable: ClickHouseTable?
    /// Which addresses the collector may be at: `--report` is the user's (`.any`); a manifest's
    /// follows the manifest's own address, like everything else it names, so a manifest from a
    /// public address cannot make launchad POST to loopback, the LAN or a metadata service.
    public var reach: Reach

    /// A target at `url` sending at most `batch` records per POST, into `clickHouse` when given,
    /// reaching what `reach` allows (no default: who named the collector decides).
    public init(url: String, batch: Int = 50, clickHouse: ClickHouseTable? = nil, reach: Reach) {
        self.url = url; self.batch = batch; self.clickHouse = clickHouse; self.reach = reach
    }

    enum CodingKeys: String, CodingKey { case url, batch, clickHouse, reach, manifestTable }

    /// A record without `reach` (an index written before collectors had one) is public-only
    /// until the next refresh states the manifest's.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        url = try c.decode(String.self, forKey: .url)
        batch = try c.decode(Int.self, forKey: .batch)
        clickHouse = try c.decodeIfPresent(ClickHouseTable.self, forKey: .clickHouse)
        reach = try c.decodeIfPresent(Reach.self, forKey: .reach) ?? .publicOnly
        manifestTable = try c.decodeIfPresent(ClickHouseTable.self, forKey: .manifestTable)
    }

    /// The manifest's `report` field; a bad one is refused alone (the ads stay). Public-only
    /// until whoever fetched the manifest gives it the manifest's reach (`Prefetcher`).
    static func parse(_ json: ManifestJSON?) throws -> ReportTarget? {
        guard let json, json != .null else { return nil }
        guard case .object(let o) = json else { throw ManifestError("\"report\" must be an object with \"url\" and \"batch\"") }
        if case .string(let url)? = o["url"], let why = CollectorURL.userinfoRefusal(url) { throw ManifestError("report.url: \(why)") }
        guard case .string(let url)? = o["url"], url.count <= 2000, Link.isAllowed(url) else {
            throw ManifestError("report.url must be an http or https URL")
        }
        var batch = 50
        switch o["batch"] {
        case nil, .null?: break
        case .number(let n)? where n == n.rounded() && n >= 1 && n <= 1000: batch = Checked.int(n) ?? batch
        default: throw ManifestError("report.batch must be a whole number from 1 to 1000")
        }
        let (clickHouse, table) = try clickHouseTable(o)
        if clickHouse, let why = ClickHouseURL.refusal(url) { throw ManifestError("report.url: \(why)") }
        var target = ReportTarget(url: url, batch: batch, clickHouse: clickHouse ? .standard : nil, reach: .publicOnly)
        target.manifestTable = table
        return target
    }

    /// Whether `"format"` is `"clickhouse"`, and the `"table"` it names (nil: none); `"json"` or
    /// no format is a plain collector, which takes no table.
    private static func clickHouseTable(_ o: [String: ManifestJSON]) throws -> (Bool, ClickHouseTable?) {
        switch o["format"] {
        case nil, .null?, .string("json")?:
            guard o["table"] == nil || o["table"] == .null else { throw ManifestError("report.table needs \"format\": \"clickhouse\"") }
            return (false, nil)
        case .string("clickhouse")?:
            switch o["table"] {
            case nil, .null?: return (true, nil)
            case .string(let text)?:
                guard let table = ClickHouseTable(text) else { throw ManifestError("report.table must be \(ClickHouseTable.rule)") }
                return (true, table)
            default: throw ManifestError("report.table must be \(ClickHouseTable.rule)")
            }
        default: throw ManifestError("report.format must be \"json\" or \"clickhouse\"")
        }
    }
}

/// The screen's name in play records when `--screen-id` is not given: derived from
/// /etc/machine-id by hashing (the raw id is meant to stay on the machine), 16 hex digits.
public enum ScreenID {
    /// `screen-` and 16 hex digits of a SHA-256 of `machineID` (surrounding whitespace ignored).
    public static func derive(machineID: String) -> String {
        let id = machineID.trimmingCharacters(in: .whitespacesAndNewlines)
        return "screen-" + String(SHA256.hex(of: Data("launchad screen id: \(id)".utf8)).prefix(16))
    }
}
