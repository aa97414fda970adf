import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

/// Review 2 of issue 42: what a manifest's ClickHouse collector may not choose. A record queued
/// for it goes only with the credentials it was queued for (never another process's unbound
/// ones), and into the screen's table, never one the manifest names.
final class ManifestCollectorRuleTests: ServerStateTestCase {
    /// A credentials file (mode 600) for `user`, tied to `url` when given.
    func credentials(_ user: String, key: String, url: String?) throws -> String {
        let file = state.deletingLastPathComponent().appendingPathComponent("clickhouse-\(UUID().uuidString).conf")
        try "user = \(user)\nkey = \(key)\n\(url.map { "url = \($0)\n" } ?? "")".write(to: file, atomically: true, encoding: .utf8)
        chmod(file.path, 0o600)
        addTeardownBlock { try? FileManager.default.removeItem(at: file) }
        return file.path
    }

    /// Publishes a manifest whose `report` is `report`, with one image ad.
    func publish(report: String) throws {
        let red = AdServer.Ad(id: "red", file: "red.png", data: try Fixtures.solidPNG("red"))
        try server.nginx.put("red.png", red.data)
        try server.nginx.put("manifest.json", Data(#"{"report": \#(report), "ads": [\#(red.json)]}"#.utf8))
    }

    func launch(_ extra: [String]) throws -> Launchad.Run {
        try Launchad.run(
            [
                "launch", "--manifest", server.manifestURL, "--cache", cache.path, "--state", state.path, "--size", "320x240",
                "--transition", "none", "--retries", "0", "--beacon-wait", "5"
            ] + extra)
    }

    func outboxStatus() throws -> [String: Any] {
        let status = try Launchad.run(["outbox", "status", "--state", state.path])
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any], status.stdout)
    }

    /// A record for the manifest's collector, queued with alice's credentials tied to it, is
    /// flushed later by a process holding bob's unbound ones: it waits (owed, the reason in
    /// `outbox status`), bob's key never leaves; alice's delivers it. The item's file names
    /// alice and her server, never her key.
    func testARecordGoesOnlyWithTheCredentialsItWasQueuedFor() throws {
        let collector = try Collector(status: 503)
        try publish(report: #"{"url": "\#(collector.url)/", "format": "clickhouse"}"#)
        let alice = try credentials("alice", key: "ALICE-KEY", url: collector.url)
        let run = try launch(["--clickhouse-credentials", alice])
        XCTAssertEqual(run.events.last?["outcome"] as? String, "completed", run.stdout)
        XCTAssertEqual(collector.received.map { $0.header("X-ClickHouse-User") }, ["alice"], "one try, while the server was down")
        let items = state.appendingPathComponent("outbox/items")
        let files = try FileManager.default.contentsOfDirectory(atPath: items.path)
        XCTAssertEqual(files.count, 1)
        let item = try String(contentsOf: items.appendingPathComponent(files[0]), encoding: .utf8)
        XCTAssertTrue(
            item.contains(#""credentials":{"named_by":"manifest","user":"alice","origin":"\#(collector.url)"}"#), item)
        XCTAssertFalse(item.contains("ALICE-KEY"))

        collector.status = 200
        var env = Launchad.headlessEnvironment(["LAUNCHAD_CLICKHOUSE_USER": "bob", "LAUNCHAD_CLICKHOUSE_KEY": "BOB-ADMIN-KEY"])
        env.removeValue(forKey: "LAUNCHAD_CLICKHOUSE_CREDENTIALS")
        let bob = try Launchad.run(["outbox", "flush", "--state", state.path], environment: env)
        XCTAssertEqual(bob.status, 1, "the record is still owed: \(bob.stderr)")
        XCTAssertEqual(collector.received.count, 1, "nothing sent with bob's key")
        XCTAssertFalse(collector.received.contains { $0.header("X-ClickHouse-Key") == "BOB-ADMIN-KEY" })
        let status = try outboxStatus()
        XCTAssertEqual(status["pending_records"] as? Int, 1, "\(status)")
        let host = try XCTUnwrap((status["hosts"] as? [String: Any])?["127.0.0.1:\(collector.port)"] as? [String: Any])
        XCTAssertTrue(
            (host["last_problem"] as? String)?.contains(
                "queued for the ClickHouse credentials of user alice (for \(collector.url)), not those of user bob (for no url)") == true,
            "\(host)")

        let delivered = try Launchad.run(["outbox", "flush", "--state", state.path, "--clickhouse-credentials", alice])
        XCTAssertEqual(delivered.status, 0, delivered.stderr)
        XCTAssertEqual(collector.received.count, 2)
        XCTAssertEqual(collector.received.last?.header("X-ClickHouse-Key"), "ALICE-KEY")
        XCTAssertEqual(try outboxStatus()["pending_records"] as? Int, 0)
    }

    /// The manifest names `launchad.canary`: refused in one `report_refused` line, the ad
    /// plays, nothing is queued or sent. The screen's `--report-table` decides: a manifest naming
    /// that same table, or none, inserts there.
    func testAManifestDoesNotChooseTheTable() throws {
        let collector = try Collector(status: 200)
        try publish(report: #"{"url": "\#(collector.url)/", "format": "clickhouse", "table": "launchad.canary"}"#)
        let refused = try launch([])
        XCTAssertEqual(refused.events.last?["outcome"] as? String, "completed", refused.stdout)
        XCTAssertEqual(
            refused.events(named: "report_refused").map { $0["reason"] as? String },
            [
                "the manifest's report.table launchad.canary is not launchad.plays, the table this screen inserts into "
                    + "(--report-table); a manifest may not choose it"
            ])
        XCTAssertEqual(collector.received.count, 0)
        XCTAssertEqual(try outboxStatus()["pending_records"] as? Int, 0)

        let chosen = try launch(["--report-table", "launchad.canary"])
        XCTAssertEqual(chosen.events(named: "report_refused").count, 0, chosen.stdout)
        try publish(report: #"{"url": "\#(collector.url)/", "format": "clickhouse"}"#)
        _ = try Launchad.run(["prefetch", "--manifest", server.manifestURL, "--cache", cache.path, "--size", "320x240"])
        let unnamed = try launch(["--report-table", "fleet.plays"])
        XCTAssertEqual(unnamed.events(named: "report_refused").count, 0, unnamed.stdout)
        let inserts = collector.received.map { $0.target.removingPercentEncoding ?? "" }
        XCTAssertEqual(inserts.count, 2, "\(inserts)")
        XCTAssertTrue(inserts.first?.contains("INSERT INTO `launchad`.`canary`") == true, "\(inserts)")
        XCTAssertTrue(inserts.last?.contains("INSERT INTO `fleet`.`plays`") == true, "\(inserts)")
        // `--report-table` without `--report` is for launch's manifest collector; play has none.
        let png = try Fixtures.write("table-rule.png", Fixtures.solidPNG("blue"))
        let play = try Launchad.run(["play", png, "--report-table", "fleet.plays"])
        XCTAssertEqual(play.status, 2)
        XCTAssertEqual(play.stderr, "launchad: --report-table needs --report-format clickhouse\n")
    }
}
