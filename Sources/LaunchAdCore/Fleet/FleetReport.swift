import Foundation

/// `launchad fleet report`: what a fleet's screens reported to ClickHouse, judged. Per screen:
/// when it was last heard from, its plays in the window with their outcomes and errors, frames
/// dropped, and its clock's offset; per ad and day: plays (each once), screens, shown time.
/// Built from the answers to `FleetQueries`; rendered as text, JSON or HTML.
public struct FleetReport: Equatable, Sendable {
    /// The limits the report judges by.
    public struct Limits: Equatable, Sendable {
        /// The window, in seconds.
        public var since: Int
        /// A screen with no batch for longer than this is silent.
        public var silentAfter: Int
        /// A screen whose clock is off by more than this many seconds is flagged.
        public var maxSkew: Int

        /// Limits of `since`, `silentAfter` and `maxSkew` seconds.
        public init(since: Int, silentAfter: Int, maxSkew: Int) {
            self.since = since; self.silentAfter = silentAfter; self.maxSkew = maxSkew
        }
    }

    /// A name and how many.
    public struct Tally: Equatable, Sendable {
        /// An outcome or an error code.
        public var name: String
        /// How many plays.
        public var count: Int

        /// `count` plays of `name`.
        public init(name: String, count: Int) { self.name = name; self.count = count }
    }

    /// One screen's line.
    public struct Screen: Equatable, Sendable {
        /// The screen's id, as it reported it.
        public var name: String
        /// When its last batch arrived (Unix seconds, the server's clock).
        public var lastSeen: Int?
        /// Its clock minus the server's in its last batch, in seconds (positive: ahead).
        public var skew: Int?
        /// Plays in the window.
        public var plays = 0
        /// Plays per outcome, most first.
        public var outcomes: [Tally] = []
        /// Plays per error code (`media_stalled`, `media_truncated`, ...), most first.
        public var errors: [Tally] = []
        /// Frames the engine dropped over the window's plays.
        public var framesDropped = 0
        /// Milliseconds on screen over the window's plays.
        public var shownMs = 0
        /// Seconds since it was last heard from, when over the silence limit.
        public var silentFor: Int?
        /// Whether its clock is off by more than the limit.
        public var skewed = false
    }

    /// One ad on one day.
    public struct AdDay: Equatable, Sendable {
        /// `YYYY-MM-DD`, UTC, by the screens' clocks.
        public var day: String
        /// The ad's id; nil for plays without one (`launchad play FILE`).
        public var adID: String?
        /// Plays, each once.
        public var plays: Int
        /// Screens that played it.
        public var screens: Int
        /// Plays that completed.
        public var completed: Int
        /// Milliseconds on screen.
        public var shownMs: Int
    }

    /// The server's clock when asked (Unix seconds).
    public var serverNow: Int
    /// The server's version (`18.16.1`).
    public var serverVersion: String
    /// The limits judged by.
    public var limits: Limits
    /// Every screen heard from, by name.
    public var screens: [Screen]
    /// Plays per ad per day, by day then ad.
    public var ads: [AdDay]
    /// A query returned more rows than the report reads: what is shown is not everything.
    public var truncated: Bool

    /// The report from the four answers (`FleetQueries.server`, `.screens`, `.plays`, `.ads`),
    /// made within `budget`'s deadline (the whole report's `--timeout`), looked at every row: a
    /// row's text is a kiosk's, and 300 screen names of 200 KB took seconds to add up.
    public init(
        server: ClickHouseRows, screens: ClickHouseRows, plays: ClickHouseRows, ads: ClickHouseRows, limits: Limits, maxRows: Int,
        budget: ParseBudget
    ) throws {
        let checkTime = {
            do { try budget.checkTime(what: "the answers") } catch { throw ClickHouseRows.Unreadable(description: "\(error)") }
        }
        guard let first = server.rows.first, let now = first.int("now") else {
            throw ClickHouseRows.Unreadable(description: "the server's clock was not in its answer")
        }
        serverNow = now
        serverVersion = first.text("version") ?? "?"
        self.limits = limits
        truncated = [screens, plays, ads].contains { $0.rows.count > maxRows }
        var byName: [String: Screen] = [:]
        for row in screens.rows.prefix(maxRows) {
            try checkTime()
            let name = row.text("screen") ?? ""
            var s = Screen(name: name)
            s.lastSeen = row.int("last_seen")
            s.skew = row.int("skew_s")
            byName[name] = s
        }
        var outcomes: [String: [String: Int]] = [:]
        var errors: [String: [String: Int]] = [:]
        for row in plays.rows.prefix(maxRows) {
            try checkTime()
            let name = row.text("screen") ?? ""
            // Numbers within ±2^53 (`Row.int`), added without a trap (`Checked.sum`), however many rows.
            let n = row.int("plays") ?? 0
            var s = byName[name] ?? Screen(name: name)
            s.plays = Checked.sum(s.plays, n)
            s.framesDropped = Checked.sum(s.framesDropped, row.int("frames_dropped") ?? 0)
            s.shownMs = Checked.sum(s.shownMs, row.int("shown_ms") ?? 0)
            byName[name] = s
            let outcome = row.text("outcome") ?? ""
            outcomes[name, default: [:]][outcome] = Checked.sum(outcomes[name]?[outcome] ?? 0, n)
            if let code = row.text("error") { errors[name, default: [:]][code] = Checked.sum(errors[name]?[code] ?? 0, n) }
        }
        try checkTime()
        self.screens = byName.values.map { screen in
            var s = screen
            s.outcomes = FleetReport.tallies(outcomes[s.name] ?? [:])
            s.errors = FleetReport.tallies(errors[s.name] ?? [:])
            if let seen = s.lastSeen, now - seen > limits.silentAfter { s.silentFor = now - seen }
            s.skewed = s.skew.map { abs($0) > limits.maxSkew } ?? false
            return s
        }.sorted { $0.name < $1.name }
        try checkTime()
        self.ads = try ads.rows.prefix(maxRows).map { row in
            try checkTime()
            return AdDay(
                day: row.text("day") ?? "", adID: row.text("ad_id"), plays: row.int("plays") ?? 0, screens: row.int("screens") ?? 0,
                completed: row.int("completed") ?? 0, shownMs: row.int("shown_ms") ?? 0)
        }
    }

    private static func tallies(_ counts: [String: Int]) -> [Tally] {
        counts.map { Tally(name: $0.key, count: $0.value) }.sorted { ($0.count, $1.name) > ($1.count, $0.name) }
    }

    /// Silent screens.
    public var silent: [Screen] { screens.filter { $0.silentFor != nil } }
    /// Screens whose clock is off.
    public var skewed: [Screen] { screens.filter(\.skewed) }
    /// Plays in the window, each once.
    public var totalPlays: Int { screens.reduce(0) { Checked.sum($0, $1.plays) } }

    /// One line: how many screens, how many silent or off, how many plays.
    public var summaryLine: String {
        let ids = Set(ads.map { $0.adID ?? "" }).count
        return "\(screens.count) \(screens.count == 1 ? "screen" : "screens"): \(silent.count) silent, "
            + "\(skewed.count) with a clock off; \(totalPlays) \(totalPlays == 1 ? "play" : "plays") of \(ids) \(ids == 1 ? "ad" : "ads")"
    }

    /// The window and limits in words.
    public var limitsLine: String {
        "plays since \(FleetReport.utc(serverNow - limits.since)) (\(FleetReport.duration(limits.since)), by the screens' clocks); "
            + "silent: no batch for over \(FleetReport.duration(limits.silentAfter)); clock off: by over \(limits.maxSkew) s"
    }

    /// Unix seconds as `2026-12-01 08:00:01 UTC`.
    public static func utc(_ seconds: Int) -> String { ClickHouseInsert.dateTime(Date(timeIntervalSince1970: Double(seconds))) + " UTC" }

    /// Seconds as a reader reads them: `45s`, `3m 20s`, `5h 40m`, `2d 4h`.
    public static func duration(_ seconds: Int) -> String {
        let s = max(0, seconds)
        switch s {
        case ..<60: return "\(s)s"
        case ..<3600: return s % 60 == 0 ? "\(s / 60)m" : "\(s / 60)m \(s % 60)s"
        case ..<86_400: return s % 3600 / 60 == 0 ? "\(s / 3600)h" : "\(s / 3600)h \(s % 3600 / 60)m"
        default: return s % 86_400 / 3600 == 0 ? "\(s / 86_400)d" : "\(s / 86_400)d \(s % 86_400 / 3600)h"
        }
    }

    /// A clock offset: `+3 s`, `-56y`-scale offsets as durations (`-20454d`).
    static func skewText(_ skew: Int?) -> String {
        guard let skew else { return "—" }
        let sign = skew < 0 ? "-" : "+"
        return abs(skew) < 60 ? "\(sign)\(abs(skew)) s" : sign + duration(abs(skew))
    }
}
