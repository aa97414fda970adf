import Foundation
import LaunchAdCLI
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdMedia
import LaunchAdTestSupport
import XCTest

@testable import LaunchAdEngine

/// `launchad fleet report` against a real ClickHouse (rows written as the outbox writes them,
/// with times set to make a silent screen and a screen whose clock is off), read by the
/// read-only user; the HTML form opened in headless chromium. And against servers that answer
/// badly (a test collector).
final class FleetReportTests: XCTestCase {
    nonisolated(unsafe) static var server: ClickHouseServer?
    var folder: URL!

    override class func tearDown() { server = nil }

    override func setUpWithError() throws {
        folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("launchad-fleet-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(at: folder) }

    func startServer() throws -> ClickHouseServer {
        if Self.server == nil { Self.server = try ClickHouseServer() }
        return Self.server!
    }

    /// Three screens: `lobby-1` playing now (one play delivered twice), `dead-rtc` whose clock
    /// says 1970, and a silent one whose name carries a terminal escape and markup.
    func fleetTable(_ server: ClickHouseServer) throws -> ClickHouseTable {
        let table = ClickHouseTable("launchad.fleet_\(UUID().uuidString.prefix(8).lowercased())")!
        try server.create(table)
        let columns = "(id, screen, ad_id, started_at, ended_at, shown_ms, outcome, error, frames_dropped, sent_at, received_at)"
        try server.query(
            """
            INSERT INTO \(table.sql) \(columns) VALUES
            ('p1', 'lobby-1', 'spring', now() - 3600, now() - 3595, 5000, 'completed', NULL, 2, now(), now()),
            ('p1', 'lobby-1', 'spring', now() - 3600, now() - 3595, 5000, 'completed', NULL, 2, now() - 1, now()),
            ('p2', 'lobby-1', '<b>sale</b>', now() - 1800, now() - 1799, 900, 'error', 'media_stalled', 0, now(), now()),
            ('p3', 'dead-rtc', 'spring', toDateTime(5, 'UTC'), toDateTime(10, 'UTC'), 5000, 'completed', NULL, 0, toDateTime(20, 'UTC'), now()),
            ('p4', 'quiet\\x1b[2J<i>', 'spring', now() - 3 * 86400, now() - 3 * 86400, 5000, 'skipped', NULL, 0, now() - 3 * 86400, now() - 3 * 86400)
            """)
        return table
    }

    func testTheReportListsEachScreenAndAdAsTheReadOnlyUserSeesThem() throws {
        let server = try startServer()
        let table = try fleetTable(server)
        let credentials = folder.appendingPathComponent("reporter.conf")
        try "user = \(ClickHouseServer.reporter.user)\nkey = \(ClickHouseServer.reporter.key)\n".write(
            to: credentials, atomically: true, encoding: .utf8)
        chmod(credentials.path, 0o600)
        let out = folder.appendingPathComponent("report.json").path
        var o = try XCTUnwrap(
            try FleetOptions.parse([
                "report", "--clickhouse", server.url, "--table", table.description, "--since", "7d", "--silent-after", "1h", "--format",
                "json",
                "--out", out, "--clickhouse-credentials", credentials.path
            ]))
        XCTAssertEqual(FleetCommand.run(o), 0)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out))) as? [String: Any])
        let screens = try XCTUnwrap(json["screens"] as? [[String: Any]])
        XCTAssertEqual(screens.map { $0["screen"] as? String }, ["dead-rtc", "lobby-1", "quiet\u{1b}[2J<i>"])
        let lobby = screens[1]
        XCTAssertEqual(lobby["plays"] as? Int, 2, "the play delivered twice counts once")
        XCTAssertEqual(lobby["outcomes"] as? [String: Int], ["completed": 1, "error": 1])
        XCTAssertEqual(lobby["errors"] as? [String: Int], ["media_stalled": 1])
        XCTAssertEqual(lobby["frames_dropped"] as? Int, 2)
        XCTAssertEqual(lobby["clock_off"] as? Bool, false)
        XCTAssertTrue((screens[0]["clock_skew_s"] as? Int ?? 0) < -1_000_000_000, "\(screens[0])")
        XCTAssertEqual(screens[0]["clock_off"] as? Bool, true)
        XCTAssertEqual(screens[0]["plays"] as? Int, 0, "its 1970 plays fall outside any window")
        XCTAssertGreaterThanOrEqual(screens[2]["silent_s"] as? Int ?? 0, 3 * 86_400)
        XCTAssertEqual(screens[2]["plays"] as? Int, 1)
        let ads = try XCTUnwrap(json["ads"] as? [[String: Any]])
        XCTAssertEqual(ads.reduce(0) { $0 + ($1["plays"] as? Int ?? 0) }, 3)
        XCTAssertEqual(ads.filter { $0["ad_id"] as? String == "spring" }.reduce(0) { $0 + ($1["shown_ms"] as? Int ?? 0) }, 10_000)

        // The same report as a page, in a browser without network.
        let page = folder.appendingPathComponent("report.html").path
        o.format = .html
        o.out = page
        XCTAssertEqual(FleetCommand.run(o), 0)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), ["report.html", "report.json", "reporter.conf"])
        let dom = try chromium("--dump-dom", page).stdout
        let rows = HTMLReading.elements("tr", class: "screen", in: dom)
        // Chromium's DOM dump may or may not escape < and > inside attributes.
        let names = rows.map {
            ($0["data-screen"] ?? "").replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
        }
        XCTAssertEqual(names, ["dead-rtc", "lobby-1", "quiet?[2J<i>"])
        XCTAssertEqual(rows.map { $0["data-plays"] }, ["0", "2", "1"])
        XCTAssertEqual(HTMLReading.elements("tr", class: "silent", in: dom).count, 1)
        XCTAssertEqual(HTMLReading.elements("tr", class: "skewed", in: dom).count, 1)
        XCTAssertTrue(HTMLReading.elements("b", in: dom).isEmpty && HTMLReading.elements("i", in: dom).isEmpty, "kiosk text stays text")
        XCTAssertFalse(dom.contains("<script") || dom.contains("<link") || dom.contains("url(") || dom.contains("src="))
        XCTAssertEqual(HTMLReading.elements("tr", class: "ad-day", in: dom).reduce(0) { $0 + (Int($1["data-plays"] ?? "") ?? 0) }, 3)
        // The silent screen's row is red in the screenshot (its cells' background).
        let shot = folder.appendingPathComponent("shot.png").path
        _ = try chromium("--screenshot=\(shot)", page, size: "1100,800")
        let image = try ImageLoader.load(path: shot)
        var pink = 0
        for i in stride(from: 0, to: image.pixels.count, by: 4)
        where abs(Int(image.pixels[i]) - 0xfd) < 4 && abs(Int(image.pixels[i + 1]) - 0xec) < 4 && abs(Int(image.pixels[i + 2]) - 0xea) < 4 {
            pink += 1
        }
        XCTAssertGreaterThan(pink, 2000, "the silent row's background")

        // The text form escapes the kiosk's terminal escape.
        o.format = .text
        o.out = folder.appendingPathComponent("report.txt").path
        XCTAssertEqual(FleetCommand.run(o), 0)
        let text = try String(contentsOfFile: o.out!, encoding: .utf8)
        XCTAssertTrue(text.contains("quiet\\x1b[2J<i>") && !text.contains("\u{1b}"), text)
        XCTAssertTrue(text.contains("3 screens: 1 silent, 1 with a clock off; 3 plays of 2 ads"), text)
    }

    func testBadCredentialsAndBadAnswersAreOneLineAndExitOne() throws {
        let server = try startServer()
        let table = try fleetTable(server)
        // A credentials file others may read is refused before anything is sent.
        let loose = folder.appendingPathComponent("loose.conf")
        try "user = reporter\nkey = x\n".write(to: loose, atomically: true, encoding: .utf8)
        chmod(loose.path, 0o644)
        XCTAssertThrowsError(try ClickHouseCredentialsSource.read(loose.path)) { XCTAssertTrue("\($0)".contains("mode 644"), "\($0)") }
        let link = folder.appendingPathComponent("link.conf")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: loose.path)
        XCTAssertThrowsError(try ClickHouseCredentialsSource.read(link.path), "a symlink's target is checked")
        XCTAssertThrowsError(try ClickHouseCredentialsSource.read(folder.appendingPathComponent("none").path)) {
            XCTAssertTrue("\($0)".hasSuffix(": no such file"), "\($0)")
        }
        XCTAssertEqual(
            ClickHouseCredentialsSource.load(file: nil, environment: ["LAUNCHAD_CLICKHOUSE_CREDENTIALS": loose.path]).isUsable, false)
        chmod(loose.path, 0o640)
        XCTAssertEqual(try ClickHouseCredentialsSource.read(link.path).user, "reporter")
        // A wrong key: the server's reason in one line.
        let client = ClickHouseClient(
            url: server.url, fetcher: HTTPClient(connectTimeout: 2, totalTimeout: 10),
            credentials: try ClickHouseCredentials(user: "reporter", key: "wrong"))
        XCTAssertThrowsError(try client.fleetReport(table: table, limits: .init(since: 3600, silentAfter: 3600, maxSkew: 60))) {
            XCTAssertTrue("\($0)".hasPrefix("HTTP 401 from \(server.url): Code: 193"), "\($0)")
        }
        // A 200 carrying an exception, a page that is not JSON rows, an answer over the byte cap.
        let collector = try Collector(status: 200)
        let bad = ClickHouseClient(url: collector.url, fetcher: HTTPClient(connectTimeout: 2, totalTimeout: 10), credentials: nil)
        let limits = FleetReport.Limits(since: 3600, silentAfter: 3600, maxSkew: 60)
        collector.answer = Data("{\"now\":1}\nCode: 241, e.displayText() = DB::Exception: Memory limit exceeded\n".utf8)
        XCTAssertThrowsError(try bad.fleetReport(table: table, limits: limits)) {
            XCTAssertTrue("\($0)".contains("ClickHouse reported an error: Code: 241"), "\($0)")
        }
        collector.answer = Data("<html>\u{1b}[31mproxy error</html>".utf8)
        XCTAssertThrowsError(try bad.fleetReport(table: table, limits: limits)) {
            XCTAssertTrue("\($0)".contains("not a JSON row: <html>\\x1b[31mproxy error</html>"), "\($0)")
        }
        var small = bad
        small.maxBytes = 1 << 20
        collector.answer = Data(repeating: 0x7b, count: 3 << 20)
        XCTAssertThrowsError(try small.fleetReport(table: table, limits: limits)) {
            XCTAssertTrue("\($0)".contains("over 1048576 bytes"), "\($0)")
        }
        // The SQL went in the body, never in the URL.
        XCTAssertTrue(collector.received.allSatisfy { $0.target == "/?wait_end_of_query=1" && $0.method == "POST" })
        // The command: exit 1, one line, no report file left behind.
        let out = folder.appendingPathComponent("never.html").path
        let o = try XCTUnwrap(
            try FleetOptions.parse(["report", "--clickhouse", "http://127.0.0.1:\(try freePort())", "--out", out, "--timeout", "2"]))
        XCTAssertEqual(FleetCommand.run(o), 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    }

    private func chromium(_ what: String, _ page: String, size: String = "1100,1200") throws -> Fixtures.Result {
        let r = try Chromium.run(what, page, size: size)
        XCTAssertEqual(r.status, 0, "chromium: \(r.stderr.suffix(2000))")
        return r
    }
}

extension ClickHouseAuth {
    var isUsable: Bool { if case .credentials = self { return true }; return false }
}
