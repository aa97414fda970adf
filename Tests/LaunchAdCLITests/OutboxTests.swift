import Foundation
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdTestSupport
import XCTest

/// A clock the test moves by hand.
final class TestClock: @unchecked Sendable {  // `now` guarded by `lock`
    private let lock = NSLock()
    private var value = Date()
    var now: Date {
        get { lock.lock(); defer { lock.unlock() }; return value }
        set { lock.lock(); value = newValue; lock.unlock() }
    }
}

/// The durable outbox against a real nginx (beacons) and a test collector (POSTs), in this
/// process and through `launchad outbox` and `launchad play`.
final class OutboxTests: XCTestCase {
    var state: URL!

    override func setUpWithError() throws {
        state = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("launchad-state-\(UUID().uuidString)")
    }

    override func tearDown() { try? FileManager.default.removeItem(at: state) }

    func outbox(_ config: OutboxConfig = OutboxConfig(), clock: TestClock? = nil) throws -> Outbox {
        let fetcher = HTTPClient(connectTimeout: 2, totalTimeout: 4)
        if let clock { return try Outbox(stateDirectory: state, config: config, fetcher: fetcher, clock: { clock.now }) }
        return try Outbox(stateDirectory: state, config: config, fetcher: fetcher, clock: { Date() })
    }

    func launchadOutbox(_ action: String, _ extra: [String] = []) throws -> (status: Int32, json: [String: Any]) {
        let run = try Launchad.run(["outbox", action, "--state", state.path] + extra)
        let json = (try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8))) as? [String: Any]
        return (run.status, try XCTUnwrap(json, "outbox \(action): \(run.stdout) \(run.stderr)"))
    }

    func testServerDownQueuesThenFlushDeliversEachOnce() throws {
        let nginx = try Nginx()
        let urls = (1...3).map { "\(nginx.base)/track/imp?n=\($0)&cb=123" }
        nginx.stop()
        let box = try outbox()
        box.enqueue(beacons: urls, event: "impression", at: Date(), reach: .any)
        box.startSending()
        box.finish(waitingAtMost: 5)  // every try is refused at once: nothing left in flight
        var status = box.status()
        XCTAssertEqual(status.pendingBeacons, 3)
        XCTAssertGreaterThanOrEqual(status.counts.beacons.retried, 3)
        XCTAssertEqual(status.counts.beacons.delivered, 0)

        try nginx.start()
        let flushed = try launchadOutbox("flush")
        XCTAssertEqual(flushed.status, 0)
        XCTAssertEqual(flushed.json["pending"] as? Int, 0)
        XCTAssertEqual((flushed.json["beacons"] as? [String: Any])?["delivered"] as? Int, 3)
        // One event's beacons go out together: each once, in any order among themselves.
        XCTAssertEqual(nginx.tracked.sorted(), urls.map { String($0.dropFirst(nginx.base.count)) })
        // Counted by server: the host with its port (two collectors on one host are two servers).
        let server = ServerName.of(nginx.base)
        XCTAssertTrue(server.hasPrefix("127.0.0.1:"), server)
        XCTAssertEqual((((flushed.json["hosts"] as? [String: Any])?[server]) as? [String: Any])?["delivered"] as? Int, 3)

        // A second flush has nothing to send: each beacon arrived once.
        XCTAssertEqual(try launchadOutbox("flush").status, 0)
        XCTAssertEqual(nginx.tracked.count, 3)
        status = box.status()
        XCTAssertEqual(status.pending, 0)
    }

    func testKillNineBetweenSendAndRemovalSendsTheSameBytesAgain() throws {
        let collector = try Collector()
        let box = try outbox()
        let queue: [() -> Void] = [
            {
                box.enqueue(
                    beacons: ["\(collector.url)/t?e=start&ts=2026-01-01T00%3A00%3A00.000Z&cb=42"], event: "start", at: Date(), reach: .any)
            },
            { box.enqueue(record: #"{"id":"r1","ad_id":"a"}"#, collector: "\(collector.url)/pop", batch: 10, reach: .any, at: Date()) }
        ]
        for (n, enqueue) in queue.enumerated() {
            collector.hang = true  // takes the request, never answers: the sender is killed waiting
            enqueue()
            let first = Process()
            first.executableURL = URL(fileURLWithPath: Launchad.binary)
            first.arguments = ["outbox", "flush", "--state", state.path]
            first.standardOutput = FileHandle.nullDevice
            try first.run()
            XCTAssertTrue(collector.wait(for: 2 * n + 1), "the request reaches the collector")
            kill(first.processIdentifier, SIGKILL)
            first.waitUntilExit()
            XCTAssertEqual(box.status().pending, 1, "killed before removal: still queued")

            collector.hang = false
            let again = try launchadOutbox("flush")
            XCTAssertEqual(again.status, 0)
            XCTAssertEqual(again.json["pending"] as? Int, 0)
            let got = collector.received
            XCTAssertEqual(got.count, 2 * n + 2)
            XCTAssertEqual(
                String(decoding: got[2 * n].raw, as: UTF8.self), String(decoding: got[2 * n + 1].raw, as: UTF8.self),
                "byte-identical retry")
        }
        let post = collector.received[2]
        XCTAssertEqual(post.method + " " + post.target, "POST /pop")
        XCTAssertEqual(String(decoding: post.body, as: UTF8.self), #"[{"id":"r1","ad_id":"a"}]"#)
        XCTAssertEqual(collector.received[0].target, "/t?e=start&ts=2026-01-01T00%3A00%3A00.000Z&cb=42")
    }

    func testTheHTTPClientCarriesARecordPOSTToo() throws {
        let collector = try Collector()
        let box = try Outbox(
            stateDirectory: state, config: OutboxConfig(), fetcher: HTTPClient(connectTimeout: 2, totalTimeout: 4),
            clock: { Date() })
        box.enqueue(record: #"{"id":"r9"}"#, collector: "\(collector.url)/pop", batch: 5, reach: .any, at: Date())
        XCTAssertEqual(try box.flush(lockWait: 5), 1)
        XCTAssertEqual(collector.received.map { $0.method + " " + $0.target }, ["POST /pop"])
        XCTAssertEqual(String(decoding: collector.received[0].body, as: UTF8.self), #"[{"id":"r9"}]"#)
        XCTAssertEqual(box.status().counts.records.delivered, 1)
    }

    func testFullOutboxDropsTheOldestAndCountsThem() throws {
        let nginx = try Nginx()
        var config = OutboxConfig()
        config.maxItems = 5
        let box = try outbox(config)
        let start = Date()
        for i in 1...8 {
            box.enqueue(beacons: ["\(nginx.base)/track/q?n=\(i)"], event: "progress", at: start.addingTimeInterval(Double(i)), reach: .any)
        }
        var status = box.status()
        XCTAssertEqual(status.pendingBeacons, 5)
        XCTAssertEqual(status.counts.beacons.dropped, 3)
        XCTAssertEqual(status.counts.hosts[ServerName.of(nginx.base)]?.dropped, 3)

        // The byte bound too: one more item than the bytes allow pushes the oldest out.
        config.maxBytes = status.pendingBytes
        let tight = try outbox(config)
        tight.enqueue(beacons: ["\(nginx.base)/track/q?n=9"], event: "progress", at: start.addingTimeInterval(9), reach: .any)
        status = tight.status()
        XCTAssertEqual(status.pendingBeacons, 5)
        XCTAssertEqual(status.counts.beacons.dropped, 4)

        XCTAssertEqual(try launchadOutbox("flush").status, 0)
        XCTAssertEqual(nginx.tracked, (5...9).map { "/track/q?n=\($0)" }, "the newest five, oldest first")
    }

    func testExpiredItemsAreDroppedAndCountedNotSent() throws {
        let collector = try Collector()
        let clock = TestClock()
        var config = OutboxConfig(ttl: 60)
        config.backoffBase = 0.01
        let box = try outbox(config, clock: clock)
        box.enqueue(beacons: ["\(collector.url)/old"], event: "impression", at: clock.now, reach: .any)
        box.enqueue(record: #"{"id":"r-old"}"#, collector: "\(collector.url)/pop", batch: 5, reach: .any, at: clock.now)
        clock.now = clock.now.addingTimeInterval(30)
        box.enqueue(beacons: ["\(collector.url)/young"], event: "impression", at: clock.now, reach: .any)
        clock.now = clock.now.addingTimeInterval(31)

        XCTAssertEqual(try box.flush(lockWait: 5), 1)
        XCTAssertEqual(collector.received.map(\.target), ["/young"])
        let status = box.status()
        XCTAssertEqual(status.pending, 0)
        XCTAssertEqual(status.counts.beacons.expired, 1)
        XCTAssertEqual(status.counts.records.expired, 1)
        XCTAssertEqual(status.counts.beacons.delivered, 1)
    }

    func testAnswersDecideDeliveredRefusedOrRetried() throws {
        let nginx = try Nginx()
        let box = try outbox()
        box.enqueue(
            beacons: [
                "\(nginx.base)/track/ok", "\(nginx.base)/hop/track/moved", "\(nginx.base)/missing/x",
                "\(nginx.base)/500/x", "\(nginx.base)/busy/x", "http://ads.example.com/x"
            ],
            event: "impression", at: Date(), reach: .any)
        XCTAssertEqual(try box.flush(lockWait: 5), 6)
        let status = box.status()
        XCTAssertEqual(nginx.tracked.sorted(), ["/track/moved", "/track/ok"])
        XCTAssertEqual(status.counts.beacons.delivered, 2)
        XCTAssertEqual(status.counts.beacons.refused, 2, "a 404 and plain http off loopback are final")
        XCTAssertEqual(status.counts.beacons.retried, 2, "500 and 429 are tried again later")
        XCTAssertEqual(status.pendingBeacons, 2)
        // Nothing fails silently: each host's last problem, with its time, in the status.
        let refusal = try XCTUnwrap(status.counts.problems["ads.example.com"])
        XCTAssertNotNil(
            refusal.range(
                of: #"^20\d\d-\d\d-\d\dT[0-9:.]+Z refusing plain http for ads.example.com \(use https, or --allow-http\)$"#,
                options: .regularExpression), refusal)
        XCTAssertNotNil(
            status.counts.problems[ServerName.of(nginx.base)]?.range(
                of: #"HTTP (404|500|429) from http://127.0.0.1:\d+/"#, options: .regularExpression))
        XCTAssertTrue(status.json.serialized().contains(#""refused":1,"damaged":0,"last_problem":"20"#), status.json.serialized())
    }

    func testTwoFlushingProcessesDeliverEachBeaconOnce() throws {
        let nginx = try Nginx()
        let box = try outbox()
        let urls = (1...200).map { "\(nginx.base)/track/p?n=\($0)" }
        box.enqueue(beacons: urls, event: "progress", at: Date(), reach: .any)
        let runs = (0..<2).map { _ in
            let p = Process()
            p.executableURL = URL(fileURLWithPath: Launchad.binary)
            p.arguments = ["outbox", "flush", "--state", state.path]
            p.standardOutput = FileHandle.nullDevice
            return p
        }
        for p in runs { try p.run() }
        for p in runs { p.waitUntilExit(); XCTAssertEqual(p.terminationStatus, 0) }
        XCTAssertEqual(nginx.tracked.sorted(), urls.map { String($0.dropFirst(nginx.base.count)) }.sorted())
        XCTAssertEqual(box.status().counts.beacons.delivered, 200)
    }

    func testFinishWaitsAtMostTheBeaconWaitAndKeepsTheRest() throws {
        let collector = try Collector()
        collector.hang = true
        let box = try outbox()
        box.enqueue(beacons: ["\(collector.url)/slow"], event: "complete", at: Date(), reach: .any)
        box.startSending()
        XCTAssertTrue(collector.wait(for: 1))
        let began = Date()
        box.finish(waitingAtMost: 0.3)
        XCTAssertLessThan(Date().timeIntervalSince(began), 3, "finish does not wait for the answer")
        XCTAssertEqual(box.status().pendingBeacons, 1, "not answered: still queued")
        collector.hang = false
    }

    func testTheNextPlaySendsWhatIsLeft() throws {
        let nginx = try Nginx()
        let url = "\(nginx.base)/track/left?n=1"
        nginx.stop()
        try outbox().enqueue(beacons: [url], event: "impression", at: Date(), reach: .any)
        try nginx.start()
        let png = try Fixtures.write("outbox-red.png", Fixtures.solidPNG("red"))
        let run = try Launchad.run(["play", png, "--duration", "0.3", "--state", state.path, "--beacon-wait", "5"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(nginx.tracked, ["/track/left?n=1"])
        XCTAssertEqual(try outbox().status().pending, 0)
    }

    func testUnusableStateFolderStillPlaysTheAd() throws {
        let file = try Fixtures.write("outbox-not-a-folder", Data("x".utf8))
        let png = try Fixtures.write("outbox-red.png", Fixtures.solidPNG("red"))
        let run = try Launchad.run(["play", png, "--duration", "0.2", "--state", file + "/state"])
        XCTAssertEqual(run.status, 0)
        let problem = try XCTUnwrap(run.events(named: "outbox_unavailable").first)
        XCTAssertEqual(problem["reason"] as? String, "cannot create the outbox folder \(file)/state: a part of the path is not a folder")
        XCTAssertEqual(run.events.last?["event"] as? String, "end")
        let status = try Launchad.run(["outbox", "status", "--state", file + "/state"])
        XCTAssertEqual(status.status, 1)
        XCTAssertEqual(
            status.stderr,
            "launchad: outbox_unavailable: cannot create the outbox folder \(file)/state: a part of the path is not a folder\n")
    }
}

extension OutboxTests {
    func testEventsArriveInTheOrderTheyHappenedAfterAnOutage() throws {
        let nginx = try Nginx()
        let base = nginx.base
        nginx.stop()
        let box = try outbox()
        let t = Date()
        let events = ["impression", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete"]
        for (i, event) in events.enumerated() {
            box.enqueue(
                beacons: ["\(base)/track/\(event)?w=1", "\(base)/track/\(event)?w=2"], event: event,
                at: t.addingTimeInterval(Double(i) / 1000), reach: .any)
        }
        try nginx.start()
        XCTAssertEqual(try box.flush(lockWait: 5), 12)
        let order = nginx.tracked.map { $0.split(separator: "?")[0].dropFirst("/track/".count) }.map(String.init)
        XCTAssertEqual(order, events.flatMap { [$0, $0] })
    }
}
