/// The ClickHouse side of play records: the columns, the DDL `launchad fleet schema` prints, and
/// the views. One list of columns makes the DDL, the INSERT's column list and the row encoding,
/// so they cannot drift apart.
///
/// Written for both the ClickHouse in Debian 12 (18.16) and current releases: `DateTime('UTC')`
/// (18.16 has no DateTime64, so times are whole seconds), `Nullable` and plain `String` (18.16's
/// `LowCardinality` is experimental), `UInt8` for flags (no `Bool` type), new-style MergeTree
/// clauses (18.16 has them). A duplicate (the same play sent twice) shares its row's key
/// `(screen, id)` and its partition (the month it started), so ReplacingMergeTree collapses it
/// at a merge and `FINAL` hides it before.
public enum FleetSchema {
    /// How a record's field becomes a column's value.
    public enum Kind: Sendable {
        /// `String`: a missing value is the empty string.
        case text
        /// `Nullable(String)`.
        case optionalText
        /// `DateTime('UTC')`: whole seconds, from the record's UTC text.
        case time
        /// `Nullable(UInt32)`: a count or milliseconds, clamped into the type.
        case optionalCount
        /// `UInt32`.
        case count
        /// `UInt8`, 0 or 1, from a JSON boolean.
        case flag
    }

    /// A column of the plays table.
    public struct Column: Sendable {
        /// The column's name, the record's field of the same name.
        public let name: String
        /// How its value is encoded.
        public let kind: Kind

        /// The ClickHouse type.
        public var type: String {
            switch kind {
            case .text: return "String"
            case .optionalText: return "Nullable(String)"
            case .time: return "DateTime('UTC')"
            case .optionalCount: return "Nullable(UInt32)"
            case .count: return "UInt32"
            case .flag: return "UInt8"
            }
        }
    }

    /// The record's fields in order, then `sent_at` (the screen's clock when the batch left).
    /// `received_at` (the server's clock) is filled by the server, never sent.
    public static let columns: [Column] = [
        Column(name: "id", kind: .text), Column(name: "screen", kind: .text), Column(name: "ad_id", kind: .optionalText),
        Column(name: "creative_sha256", kind: .optionalText), Column(name: "started_at", kind: .time),
        Column(name: "ended_at", kind: .time), Column(name: "shown_ms", kind: .optionalCount),
        Column(name: "outcome", kind: .text), Column(name: "error", kind: .optionalText),
        Column(name: "frames_shown", kind: .optionalCount), Column(name: "frames_dropped", kind: .optionalCount),
        Column(name: "av_offset_ms_max", kind: .optionalCount), Column(name: "muted", kind: .flag),
        Column(name: "paused_ms", kind: .count), Column(name: "width", kind: .optionalCount),
        Column(name: "height", kind: .optionalCount), Column(name: "fullscreen", kind: .flag),
        Column(name: "launchad_version", kind: .text), Column(name: "sent_at", kind: .time)
    ]

    /// The view of plays per ad per day (each play once).
    public static func perAdDayView(_ table: ClickHouseTable) -> ClickHouseTable? { table.sibling("per_ad_day") }

    /// The view of when each screen was last heard from.
    public static func lastSeenView(_ table: ClickHouseTable) -> ClickHouseTable? { table.sibling("last_seen") }

    /// The statements, each ending with `;` on its own line, for `clickhouse-client --multiquery`
    /// (the HTTP interface takes one statement per request).
    public static func ddl(_ table: ClickHouseTable) -> [String] {
        let body = columns.map { "    \($0.name) \($0.type)," }.joined(separator: "\n")
        var statements = [
            "CREATE DATABASE IF NOT EXISTS \(table.databaseSQL)",
            """
            CREATE TABLE IF NOT EXISTS \(table.sql)
            (
            \(body)
                received_at DateTime('UTC') DEFAULT now()
            )
            ENGINE = ReplacingMergeTree
            PARTITION BY toYYYYMM(started_at)
            ORDER BY (screen, id)
            """
        ]
        if let view = perAdDayView(table) {
            statements.append(
                """
                CREATE VIEW IF NOT EXISTS \(view.sql) AS
                SELECT toDate(started_at) AS day, ad_id, count() AS plays, uniqExact(screen) AS screens,
                       sum(shown_ms) AS shown_ms, countIf(outcome = 'completed') AS completed
                FROM \(table.sql) FINAL
                GROUP BY day, ad_id
                """)
        }
        if let view = lastSeenView(table) {
            statements.append(
                """
                CREATE VIEW IF NOT EXISTS \(view.sql) AS
                SELECT screen, max(received_at) AS last_seen, max(ended_at) AS last_play_ended,
                       argMax(toInt64(sent_at) - toInt64(received_at), received_at) AS clock_skew_s
                FROM \(table.sql)
                GROUP BY screen
                """)
        }
        return statements
    }

    /// What `launchad fleet schema` prints.
    public static func script(_ table: ClickHouseTable) -> String {
        """
        -- LaunchAd play records in ClickHouse (18.16 and later): launchad fleet schema | clickhouse-client --multiquery
        -- One row per play; a play sent twice shares its key (screen, id): read with FINAL, or count uniqExact(id).

        """ + ddl(table).map { $0 + ";\n" }.joined(separator: "\n")
    }
}
