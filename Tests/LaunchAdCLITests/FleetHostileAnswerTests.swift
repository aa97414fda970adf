import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

/// `launchad fleet report` against a server that chooses its answers (issue 42): a loopback fake
/// of ClickHouse's HTTP interface answering the report's four queries with rows the test writes,
/// as a hostile server, or a kiosk with an insert-only key, could make them.
final class FleetHostileAnswerTests: XCTestCase {
    /// A fake ClickHouse answering `FleetQueries`' server, screens, plays and ads queries.
    static func fakeClickHouse(server: String, screens: String, plays: String = "", ads: String = "") throws -> Collector {
        let c = try Collector(status: 200)
        c.respond = { request in
            let sql = String(decoding: request.body, as: UTF8.self)
            let rows =
                sql.contains(" AS now")
                ? server : sql.contains("AS skew_s") ? screens : sql.contains("GROUP BY screen, outcome") ? plays : ads
            return (200, Data(rows.utf8))
        }
        return c
    }

    static let now = 1_767_312_000

    func report(_ c: Collector, _ extra: [String] = []) throws -> Launchad.Run {
        try Launchad.run(["fleet", "report", "--clickhouse", c.url, "--timeout", "20"] + extra)
    }

    /// Issue 42, 1: sums, offsets and times near the integer limits trapped the report (exit 132).
    /// Each number goes through `Checked`: one past ±2^53 reads as missing, totals stop at 2^53.
    func testNumbersNearTheIntegerLimitsAreReadWithoutATrap() throws {
        let max = "9223372036854775807", min = "-9223372036854775808", big = "9007199254740992"
        let c = try Self.fakeClickHouse(
            server: #"{"now":"\#(Self.now)","version":"24.1"}"#,
            screens: """
                {"screen":"s1","last_seen":"\(min)","skew_s":"\(min)"}
                {"screen":"s2","last_seen":"\(max)","skew_s":"\(max)"}
                {"screen":"s3","last_seen":"\(big)","skew_s":"-\(big)"}
                """,
            plays: """
                {"screen":"s1","outcome":"completed","error":null,"plays":"\(max)","frames_dropped":"\(max)","shown_ms":"\(max)"}
                {"screen":"s3","outcome":"completed","error":"x","plays":"\(big)","frames_dropped":1e308,"shown_ms":"\(big)"}
                {"screen":"s3","outcome":"completed","error":"x","plays":"\(big)","frames_dropped":"\(big)","shown_ms":"\(big)"}
                """,
            ads: #"{"day":"2026-01-01","ad_id":"a","plays":"\#(max)","screens":"\#(min)","shown_ms":"\#(big)","completed":"\#(big)"}"#)
        let json = try report(c, ["--format", "json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        XCTAssertEqual(json.stderr, "")
        let o = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let screens = try XCTUnwrap(o["screens"] as? [[String: Any]])
        XCTAssertEqual(screens.map { $0["screen"] as? String }, ["s1", "s2", "s3"])
        XCTAssertEqual(screens.map { $0["plays"] as? Int }, [0, 0, 9_007_199_254_740_992], "past 2^53: missing; a total stops at 2^53")
        XCTAssertEqual(screens.map { $0["last_seen"] is NSNull }, [true, true, false])
        XCTAssertEqual(screens[2]["last_seen"] as? String, "2105-12-31T23:59:59Z")
        XCTAssertEqual(screens.map { $0["clock_skew_s"] as? Int }, [nil, nil, -9_007_199_254_740_992])
        XCTAssertEqual(screens[2]["clock_off"] as? Bool, true)
        XCTAssertEqual(screens[2]["frames_dropped"] as? Int, 9_007_199_254_740_992)
        XCTAssertEqual(screens[2]["shown_ms"] as? Int, 9_007_199_254_740_992)
        let ads = try XCTUnwrap(o["ads"] as? [[String: Any]])
        XCTAssertEqual(ads.first?["plays"] as? Int, 0)
        XCTAssertEqual(ads.first?["completed"] as? Int, 9_007_199_254_740_992)

        let text = try report(c)
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.contains("3 screens: 0 silent, 1 with a clock off; 9007199254740992 plays of 1 ad"), text.stdout)
        let html = try report(c, ["--format", "html"])
        XCTAssertEqual(html.status, 0, html.stderr)

        // A server clock that is no time at all: one line, exit 1.
        for clock in ["\"\(max)\"", "\"\(min)\"", "1e308", "\"1e308\"", "1.5", "\"0x10\""] {
            let bad = try Self.fakeClickHouse(server: #"{"now":\#(clock)}"#, screens: "")
            let run = try report(bad)
            XCTAssertEqual(run.status, 1, clock + run.stderr)
            XCTAssertEqual(run.stderr, "launchad: \(bad.url): the server's clock was not in its answer\n", clock)
        }
    }

    /// Issue 42, 2: one 64 KB screen name kept an 11-screen text report running past 100 s
    /// (the layout was quadratic in the widest cell). A cell is cut to 64 characters, the last
    /// an ellipsis; the JSON keeps the name whole.
    func testAHugeScreenNameIsCutToTheCellWidth() throws {
        let huge = String(repeating: "k", count: 65_536)
        var screens = (1...10).map { #"{"screen":"screen-\#($0)","last_seen":"\#(Self.now - 60)","skew_s":"0"}"# }
        screens.append(#"{"screen":"\#(huge)","last_seen":"\#(Self.now - 60)","skew_s":"0"}"#)
        let plays = #"{"screen":"\#(huge)","outcome":"completed","error":"\#(huge)","plays":"3","frames_dropped":"0","shown_ms":"15000"}"#
        let ads = #"{"day":"2026-01-01","ad_id":"\#(huge)","plays":"3","screens":"1","shown_ms":"15000","completed":"3"}"#
        let c = try Self.fakeClickHouse(
            server: #"{"now":"\#(Self.now)","version":"\#(huge)"}"#, screens: screens.joined(separator: "\n"), plays: plays, ads: ads)
        let run = try report(c)
        XCTAssertEqual(run.status, 0, run.stderr)
        let cut = String(repeating: "k", count: 63) + "…"
        let lines = run.stdout.components(separatedBy: "\n")
        XCTAssertEqual(lines.first, "LaunchAd fleet report: ClickHouse \(cut), 2026-01-02 00:00:00 UTC")
        let long = try XCTUnwrap(lines.first { $0.hasPrefix("kkk") })
        XCTAssertTrue(long.hasPrefix(cut + "  2026-01-01 23:59:00 UTC  3"), long)
        XCTAssertTrue(long.contains("completed 3  \(cut)"), long)
        XCTAssertTrue(lines.contains { $0.hasPrefix("2026-01-01  \(cut)  3") }, run.stdout)
        // Eight columns of at most 64 characters, two spaces apart.
        for line in lines { XCTAssertLessThanOrEqual(line.count, 8 * 64 + 7 * 2, String(line.prefix(100))) }
        let json = try report(c, ["--format", "json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        XCTAssertTrue(json.stdout.contains("\"\(huge)\""), "JSON keeps the name whole")
    }

    /// Review 2 of issue 42: a raw U+0085 (NEL) in a screen's name (ClickHouse's JSON writer
    /// leaves it raw), or a cell saying `Code: 1 Exception`, made the whole report exit 1. Both are
    /// cells: shown escaped, exit 0.
    func testAKiosksValueCannotBreakTheReport() throws {
        let c = try Self.fakeClickHouse(
            server: #"{"now":"\#(Self.now)","version":"24.1"}"#,
            screens: [
                #"{"screen":"lobby\#u{85}evil","last_seen":"\#(Self.now - 60)","skew_s":"0"}"#,
                #"{"screen":"Code: 1 Exception","last_seen":"\#(Self.now - 60)","skew_s":"0"}"#
            ].joined(separator: "\n") + "\n",
            ads: #"{"day":"2026-01-01","ad_id":"Code: 7. DB::Exception","plays":"1","screens":"1","shown_ms":"1","completed":"1"}"#)
        for format in ["text", "json", "html"] {
            let run = try report(c, ["--format", format])
            XCTAssertEqual(run.status, 0, "\(format): \(run.stderr)")
            XCTAssertEqual(run.stderr, "", format)
            XCTAssertTrue(run.stdout.contains("Code: 1 Exception") && run.stdout.contains("Code: 7. DB::Exception"), run.stdout)
        }
        XCTAssertTrue(try report(c).stdout.contains("lobby\\x85evil"))
    }

    /// Review 2 of issue 42: `--timeout` bounds the whole report. 300 plays rows of a 196 KB
    /// screen name (58 MB, which an insert-only key can make) took 18 s with `--timeout 2`, the
    /// deadline looked at only every 1,000 rows and not while the report was made: now one line,
    /// exit 1, no file written.
    func testTheTimeoutBoundsReadingAndMakingTheReport() throws {
        let name = String(repeating: "\u{301}", count: 65_536) + String(repeating: "x", count: 65_536)
        let row = #"{"screen":"\#(name)","outcome":"completed","error":null,"plays":"1","frames_dropped":"0","shown_ms":"1"}"#
        let c = try Self.fakeClickHouse(
            server: #"{"now":"\#(Self.now)","version":"24.1"}"#,
            screens: #"{"screen":"\#(name)","last_seen":"\#(Self.now - 60)","skew_s":"0"}"#,
            plays: Array(repeating: row, count: 300).joined(separator: "\n"))
        let out = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("fleet-\(UUID().uuidString).txt")
        let run = try Launchad.run(["fleet", "report", "--clickhouse", c.url, "--timeout", "1", "--out", out.path])
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
        XCTAssertTrue(run.stderr.hasPrefix("launchad: \(c.url): "), run.stderr)
        XCTAssertTrue(run.stderr.hasSuffix(" took longer than --timeout\n"), run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.path))
    }

    /// Issue 42, 5: a server's `day` reached the terminal raw. Every text cell (screen, outcome,
    /// error, day, ad) and the server's version go through the terminal's escaper.
    func testEveryTextCellGoesThroughTheTerminalsEscaper() throws {
        let esc = "\\u001b]0;owned\\u0007\\u001b[2J"
        let c = try Self.fakeClickHouse(
            server: #"{"now":"\#(Self.now)","version":"v\#(esc)"}"#,
            screens: #"{"screen":"screen\#(esc)","last_seen":"\#(Self.now - 60)","skew_s":"0"}"#,
            plays:
                #"{"screen":"screen\#(esc)","outcome":"done\#(esc)","error":"err\#(esc)","plays":"1","frames_dropped":"0","shown_ms":"5000"}"#,
            ads: #"{"day":"2026-01-01\#(esc)","ad_id":"ad\#(esc)","plays":"1","screens":"1","shown_ms":"5000","completed":"0"}"#)
        let run = try report(c)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertFalse(run.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || $0.value == 0x7f }, run.stdout)
        let shown = "\\x1b]0;owned\\x07\\x1b[2J"
        for cell in ["v", "screen", "done", "err", "2026-01-01", "ad"] {
            XCTAssertTrue(run.stdout.contains(cell + shown), "\(cell): \(run.stdout)")
        }
    }
}
