import Foundation
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdTestSupport
import XCTest

/// Play records through the outbox into a real ClickHouse (Debian's 18.16 in CI), in-process:
/// the Outbox API sends, the server's table is read back.
final class ClickHouseOutboxTests: XCTestCase {
    nonisolated(unsafe) static var server: ClickHouseServer?
    var state: URL!

    override class func tearDown() { server = nil }

    override func setUpWithError() throws {
        if Self.server == nil { Self.server = try ClickHouseServer() }
        state = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("launchad-ch-state-\(UUID().uuidString)")
    }

    override func tearDown() { try? FileManager.default.removeItem(at: state) }

    var server: ClickHouseServer { Self.server! }

    /// A fresh table name in the `launchad` database.
    func freshTable(_ prefix: String) -> ClickHouseTable {
        ClickHouseTable("launchad.\(prefix)_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased())")!
    }

    func outbox(_ auth: ClickHouseAuth = .none, timeout: Double = 10) throws -> Outbox {
        var config = OutboxConfig(ttl: 3600)
        config.clickHouse = auth
        return try Outbox(
            stateDirectory: state, config: config, fetcher: HTTPClient(connectTimeout: min(2, timeout), totalTimeout: timeout),
            clock: { Date() })
    }

    /// A record as `play` makes one, as its ClickHouse row.
    static func row(screen: String, ad: String = "spring", outcome: Outcome = .completed, error: ErrorCode? = nil) -> String {
        var record = PlayRecord(adID: ad, creativeSHA256: "9e1d", fullscreen: true, muted: false)
        let start = Date()
        let window = WindowOpened(width: 1920, height: 1080, fullscreen: true, videoDriver: "x11", renderer: "software", rotate: 0)
        record.observe(AdEvent(.window(window), tMs: 0), at: start)
        record.observe(AdEvent(.firstFrame(fallback: false), tMs: 40), at: start)
        if let error { record.observe(AdEvent(.error(PlayError(error, "m")), tMs: 900), at: start.addingTimeInterval(0.9)) }
        let end = RunEnd(outcome: outcome, shownMs: 5000, frames: FrameCounter.counted(shown: 125, dropped: 2))
        record.observe(AdEvent(.end(end), tMs: 5040), at: start.addingTimeInterval(5))
        let json = record.json(id: UUID().uuidString.lowercased(), screen: screen, version: "0.1.0")
        return ClickHouseInsert.row(record: json).serialized()
    }

    /// Queues two plays for `target`, flushes once, and returns the outbox's status.
    func sendTwo(_ box: Outbox, _ target: ReportTarget) throws -> OutboxStatus {
        box.enqueue(record: Self.row(screen: "s1"), for: target, credentials: nil, at: Date())
        box.enqueue(record: Self.row(screen: "s2"), for: target, credentials: nil, at: Date())
        XCTAssertEqual(try box.flush(lockWait: 5), 2)
        return box.status()
    }

    func testALostAnswerIsSentAgainAndTheTableKeepsOneRowPerPlay() throws {
        let table = freshTable("lost")
        try server.create(table)
        let proxy = try AnswerDroppingProxy(to: server.port)
        proxy.dropAnswers = 1
        let target = ReportTarget(url: proxy.url, batch: 10, clickHouse: table, reach: .any)
        let box = try outbox()
        for screen in ["screen-1", "screen-2", "screen-3"] {
            box.enqueue(record: Self.row(screen: screen), for: target, credentials: nil, at: Date())
        }
        // The batch is stored, its answer lost: the three records stay queued for another try.
        XCTAssertEqual(try box.flush(lockWait: 5), 3)
        XCTAssertEqual(box.status().pendingRecords, 3)
        XCTAssertEqual(try server.count("SELECT count() FROM \(table.sql)"), 3, "stored once before the answer was lost")
        XCTAssertEqual(try box.flush(lockWait: 5), 3)
        let status = box.status()
        XCTAssertEqual(status.pending, 0)
        XCTAssertEqual(status.counts.records.delivered, 3)
        XCTAssertEqual(status.counts.records.retried, 3)
        // Sent twice, one row per play once the duplicates are collapsed.
        XCTAssertEqual(try server.count("SELECT count() FROM \(table.sql) FINAL"), 3)
        XCTAssertEqual(try server.count("SELECT uniqExact(id) FROM \(table.sql)"), 3)
        XCTAssertEqual(try server.query("SELECT screen FROM \(table.sql) FINAL ORDER BY screen"), "screen-1\nscreen-2\nscreen-3\n")
        try server.query("OPTIMIZE TABLE \(table.sql) FINAL")
        XCTAssertEqual(try server.count("SELECT count() FROM \(table.sql)"), 3, "a merge keeps one row per play")
        // Each row carries the screen's clock at its send and the server's at its arrival, seconds apart.
        let skew = try server.count("SELECT max(abs(toInt64(sent_at) - toInt64(received_at))) FROM \(table.sql)")
        XCTAssertLessThanOrEqual(skew, 30)
        // 18.16 does not know insert_deduplication_token: asked once, then never again.
        let version = try server.query("SELECT version()")
        let tokens = proxy.targets.map { $0.contains("insert_deduplication_token=") }
        if version.hasPrefix("18.") {
            XCTAssertEqual(tokens, [true, false, false], proxy.targets.joined(separator: "\n"))
        } else {
            XCTAssertEqual(tokens, [true, true], proxy.targets.joined(separator: "\n"))
        }
        XCTAssertTrue(proxy.targets.allSatisfy { $0.contains("query=INSERT%20INTO%20%60launchad%60.%60\(table.name)%60") })
    }

    func testARefusedInsertIsDroppedAndCounted() throws {
        // No such table: ClickHouse answers 404 (code 60) on every version.
        let table = freshTable("missing")
        let box = try outbox()
        let target = ReportTarget(url: server.url, batch: 10, clickHouse: table, reach: .any)
        let status = try sendTwo(box, target)
        XCTAssertEqual(status.pending, 0)
        XCTAssertEqual(status.counts.records.refused, 2)
        XCTAssertEqual(status.counts.records.delivered, 0)
        let problem = try XCTUnwrap(status.counts.problems[ServerName.of(server.url)])
        XCTAssertTrue(problem.contains("HTTP 404: Code: 60"), problem)
        XCTAssertTrue(problem.contains("doesn't exist"), problem)
    }

    func testADownServerKeepsTheBatchUntilItIsBack() throws {
        let table = freshTable("down")
        try server.create(table)
        let port = try freePort()
        let box = try outbox()
        let target = ReportTarget(url: "http://127.0.0.1:\(port)", batch: 10, clickHouse: table, reach: .any)
        var status = try sendTwo(box, target)
        XCTAssertEqual(status.pendingRecords, 2)
        XCTAssertEqual(status.counts.records.retried, 2)
        XCTAssertTrue(status.counts.problems["127.0.0.1:\(port)"]?.contains("127.0.0.1:\(port)") == true, "\(status.counts.problems)")
        // The server comes back where the records look for it.
        let proxy = try AnswerDroppingProxy(to: server.port, port: port)
        XCTAssertEqual(try box.flush(lockWait: 5), 2)
        status = box.status()
        XCTAssertEqual(status.pending, 0)
        XCTAssertEqual(status.counts.records.delivered, 2)
        XCTAssertEqual(try server.count("SELECT count() FROM \(table.sql) FINAL"), 2)
        XCTAssertGreaterThan(proxy.answered, 0)
    }

    func testCredentialsGoAsHeadersAndRecordsThatNeedThemWaitWithout() throws {
        let table = ClickHouseTable("launchad.creds_\(UUID().uuidString.prefix(8).lowercased())")!
        try server.create(table)
        let target = ReportTarget(url: server.url, batch: 10, clickHouse: table, reach: .any)
        // A process without the credentials keeps the record rather than sending it without them.
        let without = try outbox(.unusable("/etc/launchad/clickhouse may be read or changed by others (mode 644); chmod 600 it"))
        without.enqueue(record: Self.row(screen: "kiosk-1"), for: target, credentials: anyCredentials, at: Date())
        XCTAssertEqual(try without.flush(lockWait: 5), 1)
        var status = without.status()
        XCTAssertEqual(status.pendingRecords, 1)
        XCTAssertTrue(
            status.counts.problems[ServerName.of(server.url)]?.contains("needs ClickHouse credentials") == true, "\(status.counts.problems)"
        )
        // Credentials tied to another server are not sent here either.
        let elsewhere = try ClickHouseCredentials(
            user: ClickHouseServer.kiosk.user, key: ClickHouseServer.kiosk.key, url: "https://ch.example.com")
        XCTAssertEqual(try outbox(.credentials(elsewhere)).flush(lockWait: 5), 1)
        XCTAssertEqual(try server.count("SELECT count() FROM \(table.sql)"), 0)
        // The insert-only user's credentials deliver it.
        let kiosk = try ClickHouseCredentials(user: ClickHouseServer.kiosk.user, key: ClickHouseServer.kiosk.key)
        let with = try outbox(.credentials(kiosk))
        XCTAssertEqual(try with.flush(lockWait: 5), 1)
        status = with.status()
        XCTAssertEqual(status.pending, 0)
        XCTAssertEqual(try server.query("SELECT screen FROM \(table.sql) FINAL"), "kiosk-1\n")
        // What docs/outbox.md says of these users on 18.16: the kiosk may not change the schema,
        // the reporter may not insert.
        XCTAssertThrowsError(try server.query("DROP TABLE \(table.sql)", user: ClickHouseServer.kiosk)) {
            XCTAssertTrue("\($0)".contains("Code: 392"), "\($0)")
        }
        XCTAssertThrowsError(
            try server.query("INSERT INTO \(table.sql) (id, screen) VALUES ('x', 'y')", user: ClickHouseServer.reporter)
        ) { XCTAssertTrue("\($0)".contains("Code: 164"), "\($0)") }
        // A wrong key refuses who asked, not the record: it stays queued (retried with the
        // backoff until --beacon-ttl), the reason kept, and the right key delivers it.
        let wrong = try outbox(.credentials(try ClickHouseCredentials(user: ClickHouseServer.kiosk.user, key: "wrong")))
        wrong.enqueue(record: Self.row(screen: "kiosk-2"), for: target, credentials: anyCredentials, at: Date())
        XCTAssertEqual(try wrong.flush(lockWait: 5), 1)
        status = wrong.status()
        XCTAssertEqual(status.pendingRecords, 1)
        XCTAssertEqual(status.counts.records.refused, 0)
        XCTAssertTrue(
            status.counts.problems[ServerName.of(server.url)]?.contains("the server refused the credentials; the records stay queued")
                == true,
            "\(status.counts.problems)")
        XCTAssertEqual(try with.flush(lockWait: 5), 1)
        XCTAssertEqual(try server.query("SELECT screen FROM \(table.sql) FINAL ORDER BY screen"), "kiosk-1\nkiosk-2\n")
    }

    func testAnErrorIn200AndAStalledServerKeepTheBatch() throws {
        let table = ClickHouseTable.standard
        // A 200 that carries an exception (an error after the answer began) is not a delivery.
        let collector = try Collector(status: 200)
        collector.answer = Data(
            "Code: 241, e.displayText() = DB::Exception: Memory limit (for query) exceeded, e.what() = DB::Exception\n".utf8)
        let box = try outbox(timeout: 2)
        box.enqueue(
            record: Self.row(screen: "s1"), for: ReportTarget(url: collector.url, batch: 10, clickHouse: table, reach: .any),
            credentials: nil,
            at: Date())
        XCTAssertEqual(try box.flush(lockWait: 5), 1)
        var status = box.status()
        XCTAssertEqual(status.pendingRecords, 1)
        XCTAssertTrue(
            status.counts.problems[ServerName.of(collector.url)]?.contains("HTTP 200 with an error: Code: 241") == true,
            "\(status.counts.problems)")
        let request = try XCTUnwrap(collector.received.first)
        let body = String(decoding: request.body, as: UTF8.self)
        XCTAssertTrue(body.hasSuffix("}\n") && body.contains(#""sent_at":""#), body)
        XCTAssertTrue(request.target.hasPrefix("/?query=INSERT%20INTO%20%60launchad%60.%60plays%60%20%28id%2C%20screen"), request.target)
        // A server that takes the request and never answers: the try ends with the client's timeout.
        collector.hang = true
        let began = Date()
        XCTAssertEqual(try box.flush(lockWait: 5), 1)
        XCTAssertLessThan(Date().timeIntervalSince(began), 30)
        status = box.status()
        XCTAssertEqual(status.pendingRecords, 1)
        XCTAssertEqual(status.counts.records.retried, 2)
        collector.hang = false
    }
}
