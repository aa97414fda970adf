import Foundation
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdTestSupport
import XCTest

/// Play records as a collector receives them: `play --report` and `launch` with the manifest's
/// `report`, through the outbox, to a test collector that stores each POST body.
final class PlayRecordTests: XCTestCase {
    var state: URL!
    var cache: URL!

    override func setUpWithError() throws {
        let tmp = URL(fileURLWithPath: NSTemporaryDirectory())
        state = tmp.appendingPathComponent("launchad-state-\(UUID().uuidString)")
        cache = tmp.appendingPathComponent("launchad-cache-\(UUID().uuidString)")
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: state)
        try? FileManager.default.removeItem(at: cache)
    }

    /// A manifest of one red image ad whose `report` names `collector`, served with its creative.
    func redAdReporting(to collector: Collector) throws -> AdServer {
        let server = try AdServer()
        try server.nginx.put(
            "manifest.json",
            Data(
                """
                {"report": {"url": "\(collector.url)/pop", "batch": 10},
                 "ads": [\(AdServer.Ad(id: "red", file: "red.png", data: try Fixtures.solidPNG("red")).json)]}
                """.utf8))
        try server.nginx.put("red.png", try Fixtures.solidPNG("red"))
        return server
    }

    static let utc = #"^20\d\d-\d\d-\d\dT\d\d:\d\d:\d\d\.\d\d\dZ$"#

    func testPlayWithReportSendsOneRecordOfWhatWasShown() throws {
        let collector = try Collector()
        let png = try Fixtures.write("record-red.png", Fixtures.solidPNG("red"))
        let run = try Launchad.run([
            "play", png, "--duration", "0.4", "--size", "320x240", "--state", state.path,
            "--report", "\(collector.url)/pop", "--screen-id", "lobby-7", "--beacon-wait", "5"
        ])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(collector.received.map { $0.method + " " + $0.target }, ["POST /pop"])
        let records = collector.records
        XCTAssertEqual(records.count, 1)
        let r = try XCTUnwrap(records.first)
        XCTAssertNotNil(UUID(uuidString: r["id"] as? String ?? ""), "\(r)")
        XCTAssertEqual(r["screen"] as? String, "lobby-7")
        XCTAssertEqual(r["creative_sha256"] as? String, try SHA256.hex(ofFile: png))
        XCTAssertEqual(r["outcome"] as? String, "completed")
        XCTAssertEqual(r["width"] as? Int, 320)
        XCTAssertEqual(r["height"] as? Int, 240)
        XCTAssertEqual(r["fullscreen"] as? Bool, false)
        XCTAssertEqual(r["muted"] as? Bool, false)
        XCTAssertEqual(r["paused_ms"] as? Int, 0)
        XCTAssertEqual(r["launchad_version"] as? String, "0.1.0")
        let shown = try XCTUnwrap(r["shown_ms"] as? Int)
        XCTAssertTrue((350...2000).contains(shown), "shown_ms \(shown)")
        let started = try XCTUnwrap(r["started_at"] as? String), ended = try XCTUnwrap(r["ended_at"] as? String)
        XCTAssertNotNil(started.range(of: Self.utc, options: .regularExpression), started)
        XCTAssertNotNil(ended.range(of: Self.utc, options: .regularExpression), ended)
        XCTAssertLessThan(started, ended)
        // The end event's own figures, the same in the record.
        let end = try XCTUnwrap(run.events(named: "end").first)
        XCTAssertEqual(r["shown_ms"] as? Int, end["shown_ms"] as? Int)
        for counter in ["frames_shown", "frames_dropped", "av_offset_ms_max"] {
            XCTAssertEqual(r[counter] as? Int, end[counter] as? Int, counter)
        }
    }

    func testAVideosRecordCarriesTheEnginesFrameCounters() throws {
        let collector = try Collector()
        let clip = try Fixtures.colourBars(seconds: 1, audio: false)
        let run = try Launchad.run(["play", clip, "--state", state.path, "--report", "\(collector.url)/pop", "--beacon-wait", "5"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let r = try XCTUnwrap(collector.records.first)
        let end = try XCTUnwrap(run.events(named: "end").first)
        let shown = try XCTUnwrap(r["frames_shown"] as? Int, "\(r)")
        XCTAssertGreaterThan(shown, 0)
        XCTAssertEqual(shown, end["frames_shown"] as? Int)
        XCTAssertEqual(r["frames_dropped"] as? Int, end["frames_dropped"] as? Int)
        XCTAssertNotNil(r["frames_dropped"] as? Int)
        XCTAssertEqual(r["av_offset_ms_max"] as? Int, end["av_offset_ms_max"] as? Int)
    }

    func testTheDefaultScreenIsDerivedFromTheMachineIDNeverTheRawID() throws {
        let collector = try Collector()
        let png = try Fixtures.write("record-red.png", Fixtures.solidPNG("red"))
        _ = try Launchad.run([
            "play", png, "--duration", "0.2", "--state", state.path, "--report", "\(collector.url)/pop", "--beacon-wait", "5"
        ])
        let screen = try XCTUnwrap(collector.records.first?["screen"] as? String)
        let machine = try String(contentsOfFile: "/etc/machine-id", encoding: .utf8)
        XCTAssertEqual(screen, ScreenID.derive(machineID: machine))
        XCTAssertFalse(
            String(decoding: collector.received[0].body, as: UTF8.self).contains(machine.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    func testACollectorDownThenBackGetsBothLaunchesRecordsOnceInOrder() throws {
        let collector = try Collector(status: 503)
        let server = try redAdReporting(to: collector)
        let launch = { (wait: String) in
            try Launchad.run([
                "launch", "--manifest", server.manifestURL, "--cache", self.cache.path, "--state", self.state.path,
                "--size", "320x240", "--transition", "none", "--retries", "0", "--beacon-wait", wait
            ])
        }
        XCTAssertEqual(
            try Launchad.run([
                "prefetch", "--manifest", server.manifestURL, "--cache", cache.path, "--size", "320x240",
                "--state", state.path
            ]).status, 0)
        XCTAssertEqual(try launch("1").status, 0)
        XCTAssertGreaterThanOrEqual(collector.received.count, 1, "tried, and refused with 503")
        let queued = try Launchad.run(["outbox", "status", "--state", state.path])
        XCTAssertTrue(queued.stdout.contains(#""pending_records":1"#), queued.stdout)

        collector.status = 204
        let tries = collector.received.count
        XCTAssertEqual(try launch("5").status, 0)
        let delivered = collector.received.dropFirst(tries).flatMap {
            ((try? JSONSerialization.jsonObject(with: $0.body)) as? [[String: Any]]) ?? []
        }
        let ids = delivered.compactMap { $0["id"] as? String }
        XCTAssertEqual(ids.count, 2, "\(delivered)")
        XCTAssertEqual(Set(ids).count, 2, "each play once")
        let refused = collector.received.first.flatMap { (try? JSONSerialization.jsonObject(with: $0.body)) as? [[String: Any]] }
        XCTAssertEqual(refused?.first?["id"] as? String, ids.first, "the first play's record, the same id, first")
        XCTAssertEqual(delivered.map { $0["ad_id"] as? String }, ["red", "red"])
        XCTAssertLessThan(delivered[0]["started_at"] as? String ?? "", delivered[1]["started_at"] as? String ?? "")
        let status = try Launchad.run(["outbox", "status", "--state", state.path])
        XCTAssertTrue(status.stdout.contains(#""records":{"delivered":2,"#), status.stdout)
    }

    /// The `jq` read-out in docs/outbox.md, run as printed on what a collector received from two launches
    /// of one ad (one batch delivered twice, as at-least-once allows): plays per ad per screen
    /// per day, and the completion rate.
    func testTheDocsJqReadOutCountsEachPlayOnce() throws {
        let collector = try Collector(status: 204)
        let server = try redAdReporting(to: collector)
        XCTAssertEqual(
            try Launchad.run([
                "prefetch", "--manifest", server.manifestURL, "--cache", cache.path, "--size", "320x240",
                "--state", state.path
            ]).status, 0)
        for _ in 0..<2 {
            let run = try Launchad.run([
                "launch", "--manifest", server.manifestURL, "--cache", cache.path, "--state", state.path,
                "--size", "320x240", "--transition", "none", "--duration", "0.3", "--screen-id", "lobby-7",
                "--beacon-wait", "5"
            ])
            XCTAssertEqual(run.status, 0, run.stderr)
        }
        let bodies = collector.received.map(\.body)
        XCTAssertEqual(bodies.count, 2)
        // The bodies appended one per line, as the docs' collector does, the first one twice.
        var lines = Data()
        for body in [bodies[0]] + bodies {
            XCTAssertFalse(body.contains(UInt8(ascii: "\n")), "a body is one line")
            lines.append(body + Data("\n".utf8))
        }
        let dir = state.appendingPathComponent("collector")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try lines.write(to: dir.appendingPathComponent("pop.jsonl"))
        // The docs' commands, exactly as printed.
        let readme = try String(contentsOfFile: Fixtures.repoRoot.appendingPathComponent("docs/outbox.md").path, encoding: .utf8)
        let intro = try XCTUnwrap(readme.range(of: "a collector's view with `jq`:"))
        let open = try XCTUnwrap(readme.range(of: "```sh\n", range: intro.upperBound..<readme.endIndex))
        let close = try XCTUnwrap(readme.range(of: "\n```", range: open.upperBound..<readme.endIndex))
        let script = String(readme[open.upperBound..<close.lowerBound])
        let out = try Fixtures.run("/bin/bash", ["-euo", "pipefail", "-c", "cd '\(dir.path)' && " + script])
        XCTAssertEqual(out.status, 0, out.stderr)
        let day = String((collector.records.first?["started_at"] as? String ?? "").prefix(10))
        XCTAssertEqual(out.stdout, "\(day)  red  lobby-7  2\nred  2/2 = 100%\n")
    }

    func testAManifestsPlainHTTPCollectorOffLoopbackIsRefusedInOneLineAndTheAdPlays() throws {
        let server = try AdServer()
        try server.nginx.put(
            "manifest.json",
            Data(
                """
                {"report": {"url": "http://pop.example.com/pop"},
                 "ads": [\(AdServer.Ad(id: "red", file: "red.png", data: try Fixtures.solidPNG("red")).json)]}
                """.utf8))
        try server.nginx.put("red.png", try Fixtures.solidPNG("red"))
        let run = try Launchad.run([
            "launch", "--manifest", server.manifestURL, "--cache", cache.path, "--state", state.path,
            "--size", "320x240", "--transition", "none", "--retries", "0"
        ])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(
            run.events(named: "report_refused").first?["reason"] as? String,
            "refusing plain http for pop.example.com (use https, or --allow-http)")
        XCTAssertEqual(run.events.last?["outcome"] as? String, "completed")
        let status = try Launchad.run(["outbox", "status", "--state", state.path])
        XCTAssertTrue(status.stdout.contains(#""pending":0,"#) && status.stdout.contains(#""records":{"delivered":0,"#), status.stdout)
    }

    func testACollectorAnswering200WithGarbageTakesTheBatchAndA400DropsIt() throws {
        let collector = try Collector(status: 200)
        collector.answer = Data("<html>not json".utf8)
        let png = try Fixtures.write("record-red.png", Fixtures.solidPNG("red"))
        let args = ["play", png, "--duration", "0.2", "--state", state.path, "--report", "\(collector.url)/pop", "--beacon-wait", "5"]
        XCTAssertEqual(try Launchad.run(args).status, 0)
        collector.status = 400
        XCTAssertEqual(try Launchad.run(args).status, 0)
        let status = try Launchad.run(["outbox", "status", "--state", state.path])
        XCTAssertTrue(
            status.stdout.contains(#""records":{"delivered":1,"retried":0,"expired":0,"dropped":0,"refused":1,"damaged":0}"#), status.stdout
        )
        XCTAssertTrue(status.stdout.contains(#""pending":0,"#), status.stdout)
    }
}
