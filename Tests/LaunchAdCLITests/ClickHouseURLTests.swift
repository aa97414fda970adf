import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

/// Issue 42, 4: a ClickHouse URL that carries its own query string chose the SQL run with the
/// kiosk's key (`?query=INSERT INTO launchad.canary ...`: 0 rows in the plays table, 1 in the
/// canary, the outbox said delivered). launchad writes the whole query; each place a ClickHouse
/// URL enters refuses one with a query string, through `ClickHouseURL.refusal`.
final class ClickHouseURLTests: ServerStateTestCase {
    static let canary = "?query=INSERT%20INTO%20launchad.canary%20FORMAT%20JSONEachRow"
    static let why =
        "a ClickHouse server's URL may not carry a query string (launchad writes the whole query; give the server's address and path only)"

    /// The manifest's `report`: refused in one line on stderr, the ad plays, nothing is queued
    /// or sent.
    func testAManifestsClickHouseCollectorWithAQueryIsRefusedInOneLineAndTheAdPlays() throws {
        let collector = try Collector(status: 200)
        try server.nginx.put(
            "manifest.json",
            Data(
                """
                {"report": {"url": "\(collector.url)/\(Self.canary)", "format": "clickhouse"},
                 "ads": [\(AdServer.Ad(id: "red", file: "red.png", data: try Fixtures.solidPNG("red")).json)]}
                """.utf8))
        try server.nginx.put("red.png", try Fixtures.solidPNG("red"))
        let run = try Launchad.run([
            "launch", "--manifest", server.manifestURL, "--cache", cache.path, "--state", state.path, "--size", "320x240",
            "--transition", "none", "--retries", "0", "--beacon-wait", "5"
        ])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "launchad: report: report.url: \(Self.why); no play records are sent\n")
        XCTAssertEqual(run.events.last?["outcome"] as? String, "completed")
        let status = try Launchad.run(["outbox", "status", "--state", state.path])
        XCTAssertTrue(status.stdout.contains(#""pending":0,"#) && status.stdout.contains(#""records":{"delivered":0,"#), status.stdout)
        XCTAssertEqual(collector.received.count, 0)
    }

    /// `--report URL --report-format clickhouse` and `fleet report --clickhouse URL`: a usage
    /// error in one line (exit 2), nothing sent. Every parameter ClickHouse reads from a URL is
    /// a query string's: `query`, `database`, settings, an empty one.
    func testTheCommandLinesClickHouseURLsWithAQueryAreUsageErrors() throws {
        let collector = try Collector(status: 200)
        let png = try Fixtures.write("churl.png", Fixtures.solidPNG("blue"))
        for query in [Self.canary, "?database=canary", "?readonly=0&max_result_rows=0", "?", "#?query=x"] {
            let url = collector.url + "/" + query
            let play = try Launchad.run([
                "play", png, "--duration", "0.2", "--state", state.path, "--report", url, "--report-format", "clickhouse"
            ])
            XCTAssertEqual(play.status, 2, query)
            XCTAssertEqual(play.stderr, "launchad: --report: \(Self.why)\n", query)
            let fleet = try Launchad.run(["fleet", "report", "--clickhouse", url])
            XCTAssertEqual(fleet.status, 2, query)
            XCTAssertEqual(fleet.stderr, "launchad: --clickhouse: \(Self.why)\n", query)
        }
        // A plain collector's URL is the collector's own business: its query is kept.
        let plain = try Launchad.run([
            "play", png, "--duration", "0.2", "--state", state.path, "--report", collector.url + "/pop?key=abc", "--beacon-wait", "5"
        ])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertEqual(collector.received.map(\.target), ["/pop?key=abc"])
    }
}
