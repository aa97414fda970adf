import Foundation
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdTestSupport
import XCTest

/// Issue 42, 3: a play record queued with ClickHouse credentials, behind an older record for the
/// same URL queued without, went out in one batch without credentials, was answered 401 and
/// dropped. Records share a request only when everything that shapes it is the same
/// (`OutboxRequest`: URL, reach, format, table, credentials), and a refusal of the credentials
/// leaves the records owed.
final class OutboxBatchKeyTests: FolderTestCase {
    let clock = Locked(Date(timeIntervalSince1970: 1_767_312_000))

    func outbox(_ auth: ClickHouseAuth) throws -> Outbox {
        var config = OutboxConfig(ttl: 3600)
        config.clickHouse = auth
        let clock = self.clock
        return try Outbox(
            stateDirectory: folder, config: config, fetcher: HTTPClient(connectTimeout: 2, totalTimeout: 10),
            clock: { clock.withLock { $0 } })
    }

    var now: Date { clock.withLock { $0 } }
    func advance(_ seconds: Double) { clock.withLock { $0 += seconds } }

    static let kiosk = ClickHouseAuth.credentials(try! ClickHouseCredentials(user: "kiosk", key: "kiosk-key"))

    func testARecordWithCredentialsIsNeverSentInABatchWithout() throws {
        // A server that wants a user: 401 to anyone who names none (18.16's answer when the
        // default user is not allowed in).
        let server = try Collector(status: 200)
        server.respond = { request in
            request.header("X-ClickHouse-User") == nil
                ? (
                    401,
                    Data("Code: 194, e.displayText() = DB::Exception: Password required for user default, e.what() = DB::Exception\n".utf8)
                )
                : (200, Data())
        }
        let box = try outbox(Self.kiosk)
        let target = ReportTarget(url: server.url, batch: 50, clickHouse: .standard, reach: .any)
        box.enqueue(record: ClickHouseOutboxTests.row(screen: "queued-plain"), for: target, credentials: nil, at: now)
        box.enqueue(record: ClickHouseOutboxTests.row(screen: "queued-with-key"), for: target, credentials: anyCredentials, at: now)
        XCTAssertEqual(try box.flush(lockWait: 5), 2)
        let sent = server.received.map { (key: $0.header("X-ClickHouse-Key"), body: String(decoding: $0.body, as: UTF8.self)) }
        XCTAssertEqual(sent.count, 2, "one request each")
        let withKey = try XCTUnwrap(sent.first { $0.key == "kiosk-key" })
        XCTAssertTrue(withKey.body.contains("queued-with-key") && !withKey.body.contains("queued-plain"), withKey.body)
        let plain = try XCTUnwrap(sent.first { $0.key == nil })
        XCTAssertTrue(plain.body.contains("queued-plain") && !plain.body.contains("queued-with-key"), plain.body)
        var status = box.status()
        XCTAssertEqual(status.counts.records.delivered, 1)
        XCTAssertEqual(status.counts.records.refused, 0, "a refusal of who asked is not a refusal of the records")
        XCTAssertEqual(status.pendingRecords, 1)
        let problem = try XCTUnwrap(status.counts.problems[ServerName.of(server.url)])
        XCTAssertTrue(
            problem.hasSuffix(
                "HTTP 401: Code: 194, e.displayText() = DB::Exception: Password required for user default, e.what() = DB::Exception (the server refused the credentials; the records stay queued)"
            ), problem)

        // Owed: its file waits for its next try, after the backoff.
        let items = folder.appendingPathComponent("outbox/items")
        let files = try FileManager.default.contentsOfDirectory(atPath: items.path)
        XCTAssertEqual(files.count, 1)
        let item = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: items.appendingPathComponent(files[0]))) as? [String: Any])
        XCTAssertEqual(item["attempts"] as? Int, 1)
        XCTAssertGreaterThan((item["next_ms"] as? Int) ?? 0, Int(now.timeIntervalSince1970 * 1000), "retried after a backoff")
        // Tried again (and refused again) while its TTL lasts, then dropped as expired.
        advance(1800)
        XCTAssertEqual(try box.flush(lockWait: 5), 1)
        status = box.status()
        XCTAssertEqual(status.pendingRecords, 1)
        XCTAssertEqual(status.counts.records.retried, 2)
        advance(1801)
        XCTAssertEqual(try box.flush(lockWait: 5), 0)
        status = box.status()
        XCTAssertEqual(status.pending, 0)
        XCTAssertEqual(status.counts.records.expired, 1)
        XCTAssertEqual(status.counts.records.refused, 0)
        XCTAssertEqual(server.received.count, 3)
    }

    /// Every field that shapes a request keeps records apart: the format (a plain collector's
    /// JSON array or a ClickHouse INSERT), the table, the credentials, the reach.
    func testEverythingThatShapesARequestKeepsRecordsApart() throws {
        let server = try Collector(status: 200)
        let box = try outbox(Self.kiosk)
        let other = try XCTUnwrap(ClickHouseTable("fleet.other"))
        let clickHouse = { (table: ClickHouseTable) in ReportTarget(url: server.url, batch: 50, clickHouse: table, reach: .any) }
        box.enqueue(record: #"{"screen":"plain"}"#, collector: server.url, batch: 50, reach: .any, at: now)
        box.enqueue(record: #"{"screen":"public-only"}"#, collector: server.url, batch: 50, reach: .publicOnly, at: now)
        box.enqueue(record: ClickHouseOutboxTests.row(screen: "table-plain"), for: clickHouse(.standard), credentials: nil, at: now)
        let standard = clickHouse(.standard)
        box.enqueue(record: ClickHouseOutboxTests.row(screen: "table-key"), for: standard, credentials: anyCredentials, at: now)
        box.enqueue(record: ClickHouseOutboxTests.row(screen: "other-key"), for: clickHouse(other), credentials: anyCredentials, at: now)
        XCTAssertEqual(try box.flush(lockWait: 5), 5)
        var seen: [String: (target: String, key: String?, type: String?)] = [:]
        for r in server.received {
            let body = String(decoding: r.body, as: UTF8.self)
            let screens = ["plain", "table-plain", "table-key", "other-key"].filter { body.contains("\"screen\":\"\($0)\"") }
            XCTAssertEqual(screens.count, 1, body)
            seen[screens[0]] = (r.target, r.header("X-ClickHouse-Key"), r.header("Content-Type"))
        }
        XCTAssertEqual(server.received.count, 4, "the public-only record cannot reach loopback, and nothing else shared a request")
        XCTAssertEqual(seen["plain"]?.target, "/")
        XCTAssertEqual(seen["plain"]?.type, "application/json")
        for (screen, table, key) in [
            ("table-plain", "plays", nil), ("table-key", "plays", "kiosk-key"), ("other-key", "other", "kiosk-key")
        ] {
            let request = try XCTUnwrap(seen[screen], screen)
            XCTAssertTrue(request.target.contains("%60.%60\(table)%60"), request.target)
            XCTAssertEqual(request.key, key, screen)
            XCTAssertEqual(request.type, "application/x-ndjson", screen)
        }
        XCTAssertEqual(box.status().counts.records.delivered, 4)
        XCTAssertEqual(box.status().counts.records.refused, 1)
    }
}

/// A record for the command line's collector queued while the credentials could not be read:
/// any user's credentials may carry it.
let anyCredentials = CredentialBinding(namedBy: .commandLine, user: nil, origin: nil)
