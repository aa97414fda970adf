import LaunchAdCLI
import LaunchAdCore
import XCTest

@testable import LaunchAdEngine

/// `launchad fleet` and the ClickHouse report options, parsed.
final class FleetOptionsTests: XCTestCase {
    func testFleetReportTakesItsOptions() throws {
        let o = try XCTUnwrap(
            try FleetOptions.parse([
                "report", "--clickhouse", "https://ch.example.com:8443", "--table", "fleet.plays", "--since", "7d", "--silent-after", "90m",
                "--max-skew", "120", "--format", "html", "--out", "r.html", "--clickhouse-credentials", "/etc/launchad/reporter",
                "--timeout", "5"
            ]))
        XCTAssertEqual(o.action, .report)
        XCTAssertEqual(o.table.description, "fleet.plays")
        XCTAssertEqual(o.since, 7 * 86_400)
        XCTAssertEqual(o.silentAfter, 5400)
        XCTAssertEqual(o.maxSkew, 120)
        XCTAssertEqual(o.format, .html)
        XCTAssertEqual(o.out, "r.html")
        XCTAssertEqual(o.credentials, "/etc/launchad/reporter")
        let schema = try XCTUnwrap(try FleetOptions.parse(["schema"]))
        XCTAssertEqual(schema.table, .standard)
        XCTAssertNil(try FleetOptions.parse(["--help"]))
        XCTAssertEqual(
            try Command.parse(["fleet", "schema", "--table", "a.b"]),
            .fleet(try XCTUnwrap(try FleetOptions.parse(["schema", "--table", "a.b"]))))
    }

    func testBadValuesAreOneLineUsageErrors() {
        let base = ["report", "--clickhouse", "http://127.0.0.1:8123"]
        let cases: [([String], String)] = [
            (base + ["--since", "NaN"], "--since takes a duration"),
            (base + ["--since", "-5h"], "--since takes a duration"),
            (base + ["--since", "1e9"], "--since takes a duration"),
            (base + ["--since", "0"], "--since takes a duration"),
            (base + ["--since", "3651d"], "--since takes a duration"),
            (base + ["--since", "99999999999999999999"], "--since takes a duration"),
            (base + ["--since", "1.5h"], "--since takes a duration"),
            (base + ["--silent-after", "inf"], "--silent-after takes a duration"),
            (base + ["--max-skew", "-1"], "--max-skew takes a whole number"),
            (base + ["--table", "plays; DROP TABLE x"], "--table takes database.table"),
            (base + ["--table", "a.b\u{1b}[2J"], "--table takes database.table"),
            (base + ["--format", "pdf"], "--format takes one of text, json, html"),
            (["report"], "fleet report needs --clickhouse URL"),
            (["report", "--clickhouse", "http://ch.example.com"], "--clickhouse over plain http needs --allow-http"),
            (["report", "--clickhouse", "ftp://x"], "--clickhouse takes an http or https URL"),
            (["schema", "--since", "1h"], "fleet schema takes only --table"),
            ([], "fleet takes schema or report"),
            (["drop"], "fleet takes schema or report, not 'drop'")
        ]
        for (args, start) in cases {
            XCTAssertThrowsError(try FleetOptions.parse(args), "\(args)") { error in
                let text = "\(error)"
                XCTAssertTrue(text.hasPrefix(start), "\(args): \(text)")
                XCTAssertFalse(text.contains("\u{1b}") || text.contains("\n"), text)
            }
        }
        XCTAssertNoThrow(try FleetOptions.parse(["report", "--clickhouse", "http://ch.example.com", "--allow-http"]))
    }

    func testPlayTakesAClickHouseCollector() throws {
        let (_, d) = try XCTUnwrap(
            try PlayOptions.parseWithDelivery([
                "ad.mp4", "--report", "https://ch.example.com:8443", "--report-format", "clickhouse", "--report-table", "fleet.plays",
                "--clickhouse-credentials", "/etc/launchad/kiosk"
            ]))
        XCTAssertTrue(d.reportToClickHouse)
        XCTAssertEqual(d.reportTable?.description, "fleet.plays")
        XCTAssertEqual(d.clickHouseCredentials, "/etc/launchad/kiosk")
        let (_, plain) = try XCTUnwrap(
            try PlayOptions.parseWithDelivery(["ad.mp4", "--report", "https://c.example.com", "--report-format", "clickhouse"]))
        XCTAssertNil(plain.reportTable)
        for (args, start) in [
            (["ad.mp4", "--report", "https://c", "--report-table", "a.b"], "--report-table needs --report-format clickhouse"),
            (["ad.mp4", "--report-format", "clickhouse"], "--report-format clickhouse needs --report URL"),
            (["ad.mp4", "--report", "https://c", "--report-format", "csv"], "--report-format takes json or clickhouse"),
            (
                ["ad.mp4", "--report", "https://c", "--report-format", "clickhouse", "--report-table", "x"],
                "--report-table takes database.table"
            )
        ] {
            XCTAssertThrowsError(try PlayOptions.parseWithDelivery(args), "\(args)") {
                XCTAssertTrue("\($0)".hasPrefix(start), "\(args): \($0)")
            }
        }
        // The outbox's flush takes the credentials too: records that need them can be sent by it.
        XCTAssertEqual(
            try OutboxOptions.parse(["flush", "--clickhouse-credentials", "/etc/launchad/kiosk"])?.delivery.clickHouseCredentials,
            "/etc/launchad/kiosk")
    }
}
