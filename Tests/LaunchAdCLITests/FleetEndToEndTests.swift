import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

/// The bar, through the binary: three screens play into ClickHouse, one batch's answer
/// is lost after the server stored it; the table holds three plays after FINAL, and
/// `launchad fleet report` lists each screen with its play.
final class FleetEndToEndTests: XCTestCase {
    func testThreeScreensWithOneLostAnswerGiveThreeRowsAndAReportOfEach() throws {
        let server = try ClickHouseServer()
        let table = try XCTUnwrap(ClickHouseTable("launchad.e2e_plays"))
        let schema = try Launchad.run(["fleet", "schema", "--table", table.description])
        XCTAssertEqual(schema.status, 0, schema.stderr)
        for statement in schema.stdout.components(separatedBy: ";\n") where statement.contains("CREATE") {
            try server.query(statement.components(separatedBy: "\n").filter { !$0.hasPrefix("--") }.joined(separator: "\n"))
        }
        let proxy = try AnswerDroppingProxy(to: server.port)
        proxy.dropAnswers = 1
        let state = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("launchad-e2e-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        let png = try Fixtures.write("fleet-e2e.png", Fixtures.solidPNG("blue"))
        for screen in ["screen-1", "screen-2", "screen-3"] {
            let run = try Launchad.run([
                "play", png, "--duration", "0.3", "--size", "320x240", "--state", state.path, "--screen-id", screen,
                "--report", proxy.url, "--report-format", "clickhouse", "--report-table", table.description, "--beacon-wait", "3"
            ])
            XCTAssertEqual(run.status, 0, run.stderr)
        }
        // Whatever the plays left (the batch whose answer was lost waits for its retry) goes now.
        let flush = try Launchad.run(["outbox", "flush", "--state", state.path])
        XCTAssertEqual(flush.status, 0, flush.stdout + flush.stderr)
        XCTAssertEqual(proxy.dropAnswers, 0, "an answer was lost")
        XCTAssertEqual(try server.count("SELECT count() FROM \(table.sql) FINAL"), 3)
        XCTAssertGreaterThan(try server.count("SELECT count() FROM \(table.sql)"), 3, "a batch was stored twice")
        XCTAssertEqual(try server.query("SELECT screen FROM \(table.sql) FINAL ORDER BY screen"), "screen-1\nscreen-2\nscreen-3\n")

        let report = try Launchad.run(["fleet", "report", "--clickhouse", server.url, "--table", table.description, "--format", "json"])
        XCTAssertEqual(report.status, 0, report.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])
        let screens = try XCTUnwrap(json["screens"] as? [[String: Any]])
        XCTAssertEqual(screens.map { $0["screen"] as? String }, ["screen-1", "screen-2", "screen-3"])
        XCTAssertEqual(screens.map { $0["plays"] as? Int }, [1, 1, 1])
        XCTAssertEqual(screens.map { ($0["outcomes"] as? [String: Int])?["completed"] }, [1, 1, 1])
        XCTAssertEqual(screens.map { $0["clock_off"] as? Bool }, [false, false, false])
        let text = try Launchad.run(["fleet", "report", "--clickhouse", server.url, "--table", table.description])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.contains("3 screens: 0 silent, 0 with a clock off; 3 plays of 1 ad"), text.stdout)
    }
}
