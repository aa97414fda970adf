import Foundation
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdTestSupport
import XCTest

/// The outbox against its own folder and a slow tracker: each delivered item leaves at once,
/// items are re-checked when read, and the state folder obeys the cache folder's rules.
final class OutboxHardeningTests: XCTestCase {
    var state: URL!
    var outboxFolder: URL { state.appendingPathComponent("outbox") }
    var items: URL { outboxFolder.appendingPathComponent("items") }

    override func setUpWithError() throws {
        state = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("launchad-state-\(UUID().uuidString)")
    }

    override func tearDown() { try? FileManager.default.removeItem(at: state) }

    func outbox() throws -> Outbox {
        try Outbox(
            stateDirectory: state, config: OutboxConfig(), fetcher: HTTPClient(connectTimeout: 2, totalTimeout: 4), clock: { Date() })
    }

    func launchadOutbox(_ action: String) throws -> (run: Launchad.Run, json: [String: Any]?) {
        let run = try Launchad.run(["outbox", action, "--state", state.path])
        return (run, (try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8))) as? [String: Any])
    }

    /// `outbox flush`'s status, with its beacons' and records' tallies by name.
    func flushTallies() throws -> (json: [String: Any], beacons: [String: Int], records: [String: Int]) {
        let flushed = try launchadOutbox("flush")
        let json = try XCTUnwrap(flushed.json, flushed.run.stdout + flushed.run.stderr)
        return (json, json["beacons"] as? [String: Int] ?? [:], json["records"] as? [String: Int] ?? [:])
    }

    func mode(_ url: URL) -> Int { ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.posixPermissions] as? Int) ?? -1 }

    /// 60 beacons to a tracker answering in 50 ms; `outbox flush` killed with SIGKILL after 20
    /// arrived: what was answered has left the folder, and the next flush re-sends at most the
    /// requests that were in flight (six connections).
    func testKillNineDuringFlushResendsAtMostTheInFlightRequests() throws {
        let tracker = try Collector()
        tracker.delay = 0.05
        let box = try outbox()
        box.enqueue(beacons: (1...60).map { "\(tracker.url)/t?n=\($0)" }, event: "progress", at: Date(), reach: .any)
        let flush = Process()
        flush.executableURL = URL(fileURLWithPath: Launchad.binary)
        flush.arguments = ["outbox", "flush", "--state", state.path]
        flush.standardOutput = FileHandle.nullDevice
        try flush.run()
        XCTAssertTrue(tracker.wait(for: 20))
        let seenBeforeKill = tracker.received.count
        kill(flush.processIdentifier, SIGKILL)
        flush.waitUntilExit()
        let inFlight = OutboxConfig().connections
        let pending = box.status().pending
        XCTAssertLessThanOrEqual(pending, 60 - seenBeforeKill + inFlight, "answered beacons left the outbox at once")

        tracker.delay = 0
        let again = try launchadOutbox("flush")
        XCTAssertEqual(again.json?["pending"] as? Int, 0, again.run.stderr)
        let resent = tracker.received.count - 60
        XCTAssertLessThanOrEqual(resent, inFlight, "only requests in flight at the kill are sent twice")
        XCTAssertEqual(Set(tracker.received.map(\.target)).count, 60)
    }

    /// 40 beacons left by earlier runs and a tracker answering in 100 ms: a one-second `play`
    /// with `--beacon-wait 0.5` leaves mid-round, and what its sender delivered is gone from the
    /// outbox (before, nothing left until a round of up to 1,000 ended, so every run re-sent them).
    func testAPlayLeavingMidRoundKeepsOnlyWhatWasNotDelivered() throws {
        let tracker = try Collector()
        tracker.delay = 0.1
        let box = try outbox()
        box.enqueue(beacons: (1...40).map { "\(tracker.url)/q?n=\($0)" }, event: "progress", at: Date(), reach: .any)
        let clip = try Fixtures.colourBars(seconds: 1, audio: false)
        let run = try Launchad.run(["play", clip, "--state", state.path, "--beacon-wait", "0.5", "--transition", "none"])
        XCTAssertEqual(run.status, 0, run.stdout)
        let received = tracker.received.count
        XCTAssertGreaterThan(received, 0)
        XCTAssertLessThan(received, 40, "the run left before the tracker had them all")
        let pending = box.status().pending
        XCTAssertLessThanOrEqual(pending, 40 - received + 1, "only the one request in flight may stay")
        XCTAssertGreaterThanOrEqual(pending, 40 - received)
    }

    /// Planted items: a file URL, garbage, a 300 kB file and a symlink. None is opened or
    /// sent; each is moved to `damaged/` and counted in `outbox status`.
    func testDamagedItemsAreSetAsideAndCounted() throws {
        let tracker = try Collector()
        let box = try outbox()
        box.enqueue(beacons: ["\(tracker.url)/ok"], event: "impression", at: Date(), reach: .any)
        let secret = state.appendingPathComponent("secret.txt")
        try Data("do not send".utf8).write(to: secret)
        func item(_ url: String) -> Data { Data(#"{"url":"\#(url)","event":"impression","made_ms":1,"expires_ms":99999999999999}"#.utf8) }
        try item("file://\(secret.path)").write(to: items.appendingPathComponent("000000000000002-00001-000001-00000001.beacon"))
        try Data("{not json".utf8).write(to: items.appendingPathComponent("000000000000002-00001-000002-00000002.beacon"))
        try (item("\(tracker.url)/big") + Data(repeating: 0x20, count: 300_000))
            .write(to: items.appendingPathComponent("000000000000002-00001-000003-00000003.record"))
        try FileManager.default.createSymbolicLink(
            atPath: items.appendingPathComponent("000000000000002-00001-000004-00000004.beacon").path,
            withDestinationPath: secret.path)

        let flushed = try flushTallies()
        XCTAssertEqual(flushed.json["pending"] as? Int, 0)
        XCTAssertEqual(flushed.beacons["delivered"], 1)
        XCTAssertEqual(flushed.beacons["damaged"], 3)
        XCTAssertEqual(flushed.records["damaged"], 1)
        XCTAssertEqual(tracker.received.map(\.target), ["/ok"])
        let aside = try FileManager.default.contentsOfDirectory(atPath: outboxFolder.appendingPathComponent("damaged").path)
        XCTAssertEqual(aside.count, 4)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: items.path).filter { !$0.hasPrefix(".") }, [])
    }

    /// Issue 38, 5: no reach defaults to `.any`. Every item is written with its reach; one on
    /// disk without a `reach` key (an older launchad's, or planted) is read back public-only, so
    /// its loopback URL is refused, never requested.
    func testAnItemWithoutAReachOnDiskIsPublicOnly() throws {
        let tracker = try Collector()
        let box = try outbox()
        box.enqueue(beacons: ["\(tracker.url)/named-by-the-user"], event: "impression", at: Date(), reach: .any)
        let written = try FileManager.default.contentsOfDirectory(atPath: items.path).filter { !$0.hasPrefix(".") }
        XCTAssertEqual(written.count, 1)
        let stored = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: items.appendingPathComponent(written[0]))) as? [String: Any])
        XCTAssertEqual(stored["reach"] as? String, "any", "written with its reach, .any included")
        try Data(#"{"url":"\#(tracker.url)/no-reach","event":"impression","made_ms":1,"expires_ms":99999999999999}"#.utf8)
            .write(to: items.appendingPathComponent("000000000000002-00001-000001-00000001.beacon"))
        try Data(#"{"url":"\#(tracker.url)/pop","event":"play","made_ms":1,"expires_ms":99999999999999,"body":"{}","batch":1}"#.utf8)
            .write(to: items.appendingPathComponent("000000000000002-00001-000002-00000002.record"))
        let flushed = try flushTallies()
        XCTAssertEqual(flushed.json["pending"] as? Int, 0)
        XCTAssertEqual(flushed.beacons["delivered"], 1)
        XCTAssertEqual(flushed.beacons["refused"], 1)
        XCTAssertEqual(flushed.records["refused"], 1)
        let problem = try XCTUnwrap(
            ((flushed.json["hosts"] as? [String: Any])?[ServerName.of(tracker.url)] as? [String: Any])?["last_problem"] as? String)
        XCTAssertTrue(problem.contains("an internal address, and was named by a document from a public address"), problem)
        XCTAssertEqual(tracker.received.map(\.target), ["/named-by-the-user"])
    }

    /// Items whose times or counts are out of range (1e300, -1e300, 9.2e18, 23 digits, a
    /// negative count): `outbox status` and `flush` trapped on them (arithmetic overflow, exit
    /// 132). Each is set aside as damaged; the good one is sent.
    func testItemsWithTimesOutOfRangeAreSetAsideNotATrap() throws {
        let tracker = try Collector()
        let box = try outbox()
        box.enqueue(beacons: ["\(tracker.url)/ok"], event: "impression", at: Date(), reach: .any)
        let values = ["1e300", "-1e300", "9223372036854775807", "99999999999999999999999", "-5"]
        for (i, v) in values.enumerated() {
            let made = v == "-5" ? "1" : v
            try Data(
                #"{"url":"\#(tracker.url)/bad","event":"impression","made_ms":\#(made),"expires_ms":\#(v),"attempts":\#(v),"next_ms":\#(v)}"#
                    .utf8
            )
            .write(to: items.appendingPathComponent("000000000000002-00001-00000\(i)-0000000\(i).beacon"))
        }
        let status = try launchadOutbox("status")
        XCTAssertEqual(status.run.status, 0, status.run.stderr)
        XCTAssertEqual(try XCTUnwrap(status.json, status.run.stderr)["pending"] as? Int, 1)
        let flushed = try launchadOutbox("flush")
        XCTAssertEqual(flushed.run.status, 0, flushed.run.stderr)
        let json = try XCTUnwrap(flushed.json, flushed.run.stdout + flushed.run.stderr)
        XCTAssertEqual((json["beacons"] as? [String: Any])?["damaged"] as? Int, values.count)
        XCTAssertEqual((json["beacons"] as? [String: Any])?["delivered"] as? Int, 1)
        XCTAssertEqual(tracker.received.map(\.target), ["/ok"])
    }

    /// A state folder others may write in, or another user's, is refused with one line; the ad
    /// still plays without its outbox.
    func testAStateFolderOfAnotherUserOrWritableByOthersIsRefused() throws {
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        chmod(state.path, 0o777)
        let open = try launchadOutbox("status")
        XCTAssertEqual(open.run.status, 1)
        XCTAssertEqual(
            open.run.stderr,
            "launchad: outbox_unavailable: state folder: \(state.path) is writable by group or others (mode 777); chmod 700 it\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: outboxFolder.path), "nothing made inside")

        chmod(state.path, 0o700)
        XCTAssertEqual(chown(state.path, 65534, 65534), 0)
        let theirs = try launchadOutbox("status")
        XCTAssertEqual(theirs.run.status, 1)
        XCTAssertTrue(theirs.run.stderr.contains("belongs to another user (uid 65534)"), theirs.run.stderr)

        let clip = try Fixtures.colourBars(seconds: 1, audio: false)
        let play = try Launchad.run(["play", clip, "--state", state.path])
        XCTAssertEqual(play.status, 0)
        XCTAssertEqual(play.events(named: "outbox_unavailable").count, 1)
        XCTAssertEqual(play.events(named: "end").first?["outcome"] as? String, "completed")
    }

    /// Planted `lock` and `send.lock` symlinks are not followed (nothing is created where they
    /// point); what launchad makes is 0700 and 0600, counts.json included.
    func testLockSymlinksAreNotFollowedAndFilesArePrivate() throws {
        let tracker = try Collector()
        let box = try outbox()
        box.enqueue(beacons: ["\(tracker.url)/a"], event: "impression", at: Date(), reach: .any)
        XCTAssertEqual(try box.flush(lockWait: 5), 1)
        XCTAssertEqual(mode(state), 0o700)
        XCTAssertEqual(mode(outboxFolder), 0o700)
        XCTAssertEqual(mode(items), 0o700)
        XCTAssertEqual(mode(outboxFolder.appendingPathComponent("counts.json")), 0o600)
        XCTAssertEqual(mode(outboxFolder.appendingPathComponent("lock")), 0o600)

        let target = state.appendingPathComponent("pointed-at")
        for name in ["lock", "send.lock"] {
            let link = outboxFolder.appendingPathComponent(name)
            try FileManager.default.removeItem(at: link)
            try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: target.path)
        }
        box.enqueue(beacons: ["\(tracker.url)/b"], event: "impression", at: Date(), reach: .any)
        let flushed = try launchadOutbox("flush")
        XCTAssertEqual(flushed.run.status, 1)
        XCTAssertEqual(
            flushed.run.stderr,
            "launchad: cannot send from the outbox: \(outboxFolder.path)/send.lock is a symlink; launchad will not follow it\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: target.path), "no file made through a planted symlink")
    }
}
