/// The SELECTs behind `launchad fleet report`, each answered as JSON lines. Nothing from outside
/// is spliced in but the checked table name (backquoted identifiers) and whole numbers. Each
/// counts a play once: `FINAL` collapses a batch delivered twice before the merge does. Times
/// come back as Unix seconds (`toUnixTimestamp`), so no date text is parsed. A LIMIT one past
/// `maxRows` tells a report cut short from a complete one. None sets a ClickHouse setting: a
/// read-only user (`readonly = 1`) may not.
public struct FleetQueries: Equatable, Sendable {
    /// The plays table.
    public let table: ClickHouseTable
    /// The window: plays that started (by the screen's clock) in the last `since` seconds.
    public let since: Int
    /// The most rows a query may return.
    public let maxRows: Int

    /// The longest window, ten years: `now() - since` stays inside DateTime.
    public static let maxSince = 3650 * 86_400

    /// The queries for `table` over the last `since` seconds (clamped to 1 s ... ten years).
    public init(table: ClickHouseTable, since: Int, maxRows: Int = 100_000) {
        self.table = table
        self.since = min(max(since, 1), FleetQueries.maxSince)
        self.maxRows = max(1, maxRows)
    }

    private var window: String { "started_at >= now() - \(since)" }
    private var limit: String { "LIMIT \(maxRows + 1) FORMAT JSONEachRow" }

    /// The server's clock and version.
    public var server: String { "SELECT toUnixTimestamp(now()) AS now, version() AS version FORMAT JSONEachRow" }

    /// Every screen ever heard from: when (the server's clock), its last play's end (its own
    /// clock), and its clock's offset in its latest batch (`sent_at - received_at`).
    public var screens: String {
        """
        SELECT screen, toUnixTimestamp(max(received_at)) AS last_seen, toUnixTimestamp(max(ended_at)) AS last_play,
               argMax(toInt64(sent_at) - toInt64(received_at), received_at) AS skew_s
        FROM \(table.sql)
        GROUP BY screen ORDER BY screen \(limit)
        """
    }

    /// The window's plays per screen, outcome and error code: counts, frames dropped, shown time.
    public var plays: String {
        """
        SELECT screen, outcome, error, count() AS plays, sum(ifNull(frames_dropped, 0)) AS frames_dropped,
               sum(ifNull(shown_ms, 0)) AS shown_ms
        FROM \(table.sql) FINAL
        WHERE \(window)
        GROUP BY screen, outcome, error ORDER BY screen, outcome, error \(limit)
        """
    }

    /// The window's plays per ad per day (UTC, by the screen's clock): plays, screens, shown time, completions.
    public var ads: String {
        """
        SELECT toString(toDate(started_at)) AS day, ad_id, count() AS plays, uniqExact(screen) AS screens,
               sum(ifNull(shown_ms, 0)) AS shown_ms, countIf(outcome = 'completed') AS completed
        FROM \(table.sql) FINAL
        WHERE \(window)
        GROUP BY day, ad_id ORDER BY day, ad_id \(limit)
        """
    }
}
