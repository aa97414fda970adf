import Foundation
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdEngine

/// `launchad fleet schema|report`: play records in ClickHouse, the DDL and the fleet's report.
public struct FleetOptions: Equatable, Sendable {
    public enum Action: String, CaseIterable, Sendable { case schema, report }
    public enum Format: String, CaseIterable, Sendable { case text, json, html }

    public var action: Action = .schema
    /// `--table DB.TABLE`.
    public var table: ClickHouseTable = .standard
    /// `--clickhouse URL` (report).
    public var clickhouse: String?
    /// `--since D` in seconds.
    public var since = 86_400
    /// `--silent-after D` in seconds.
    public var silentAfter = 86_400
    /// `--max-skew S` in seconds.
    public var maxSkew = 60
    public var format: Format = .text
    /// `--out FILE`; nil: stdout.
    public var out: String?
    /// `--clickhouse-credentials FILE`.
    public var credentials: String?
    public var allowHTTP = false
    /// `--timeout S`: the most the whole report may take (asking, reading, making it).
    public var timeout: Double = 30

    public init() {}

    public static let help = """
        usage: launchad fleet schema [--table DB.TABLE]
               launchad fleet report --clickhouse URL [options]
        Play records in ClickHouse (play and launch with --report URL --report-format clickhouse).
        schema: prints the DDL for clickhouse-client --multiquery: the database, a ReplacingMergeTree
        table ordered by (screen, id) (a play sent twice is one row after FINAL), a received_at column
        the server fills, views of plays per ad per day and of when each screen was last heard from.
        Works on ClickHouse 18.16 (Debian 12) and current releases.
        report: per screen, when it was last heard from, its plays in the window with their outcomes
        and errors, frames dropped and its clock's offset, flagging silent screens and clocks off;
        per ad, plays per day (each play once), screens and shown time.
          --table T              the records' table, database.table (default launchad.plays)
          --clickhouse URL       the ClickHouse server's HTTP interface (report; https, or http to loopback)
          --since D              plays that started in the last D: seconds, or with s, m, h or d (default 24h)
          --silent-after D       a screen with no batch for longer than D is silent (default 24h)
          --max-skew S           a screen whose clock is off by more than S seconds is flagged (default 60)
          --format F             text (default), json, or html (one self-contained page)
          --out FILE             write the report to FILE, whole or not at all (default stdout)
          --clickhouse-credentials FILE  a user and key for the report (lines user = ..., key = ...; mode 600);
                                 else LAUNCHAD_CLICKHOUSE_USER and LAUNCHAD_CLICKHOUSE_KEY
          --timeout S            give up on the report after S seconds, its queries and reading their
                                 answers included (default 30)
          --allow-http           allow plain http to any host
        Exit codes: 0 the schema or report was written, 1 ClickHouse could not be asked, answered an
        error, or FILE could not be written, 2 usage.
        """

    public static func parse(_ args: [String]) throws -> FleetOptions? {
        var r = ArgumentReader(args)
        var o = FleetOptions()
        var reportOnly: [String] = []
        while let opt = r.nextOption() {
            switch opt {
            case "--help": return nil
            case "--table":
                let raw = try r.value(for: opt)
                guard let table = ClickHouseTable(raw) else {
                    throw UsageError("--table takes \(ClickHouseTable.rule), not '\(TerminalText.quoted(raw))'")
                }
                o.table = table
            case "--clickhouse":
                let raw = try r.value(for: opt)
                if let why = CollectorURL.userinfoRefusal(raw) { throw UsageError("--clickhouse: \(why)") }
                guard Link.isAllowed(raw) else {
                    throw UsageError("--clickhouse takes an http or https URL, not '\(TerminalText.quoted(raw))'")
                }
                if let why = ClickHouseURL.refusal(raw) { throw UsageError("--clickhouse: \(why)") }
                o.clickhouse = raw
            case "--since": o.since = try duration(r.value(for: opt), opt)
            case "--silent-after": o.silentAfter = try duration(r.value(for: opt), opt)
            case "--max-skew": o.maxSkew = try r.int(for: opt, min: 1, max: FleetQueries.maxSince)
            case "--format": o.format = try r.choice(for: opt, Format.self)
            case "--out":
                let raw = try r.value(for: opt)
                guard !raw.isEmpty else { throw UsageError("--out needs a file") }
                o.out = raw
            case "--clickhouse-credentials":
                let raw = try r.value(for: opt)
                guard !raw.isEmpty else { throw UsageError("--clickhouse-credentials needs a file") }
                o.credentials = raw
            case "--timeout": o.timeout = try r.double(for: opt, min: 1, max: 3600)
            case "--allow-http": try r.flag(opt); o.allowHTTP = true
            default: throw UsageError("unknown option \(opt) (see launchad fleet --help)")
            }
            if opt != "--table" { reportOnly.append(opt) }
        }
        guard let word = r.positionals.first, let action = Action(rawValue: word), r.positionals.count == 1 else {
            let given = r.positionals.joined(separator: " ")
            throw UsageError("fleet takes schema or report\(given.isEmpty ? "" : ", not '\(TerminalText.quoted(given))'")")
        }
        o.action = action
        switch action {
        case .schema:
            if let extra = reportOnly.first { throw UsageError("fleet schema takes only --table, not \(extra)") }
        case .report:
            guard let url = o.clickhouse else { throw UsageError("fleet report needs --clickhouse URL") }
            if let parsed = URL(string: url), (try? URLPolicy.check(parsed, allowHTTP: o.allowHTTP)) == nil {
                throw UsageError("--clickhouse over plain http needs --allow-http (or https, or a loopback host)")
            }
        }
        return o
    }

    /// A window or a limit: whole seconds, or a whole number of s, m, h or d; more than 0, at
    /// most ten years (NaN, negative, fractional and exponent forms are refused).
    static func duration(_ raw: String, _ option: String) throws -> Int {
        let units: [Character: Int] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        var digits = Substring(raw)
        var unit = 1
        if let last = raw.last, let u = units[last] { unit = u; digits = raw.dropLast() }
        guard !digits.isEmpty, digits.count <= 10, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(digits), n > 0,
            n <= FleetQueries.maxSince / unit
        else {
            throw UsageError("\(option) takes a duration such as 90s, 30m, 24h or 7d (at most 3650d), not '\(TerminalText.quoted(raw))'")
        }
        return n * unit
    }
}
