import Foundation
import LaunchAdTestSupport
import XCTest

/// A stream that stops coming mid-play: the ad ends `error` `media_stalled` after
/// `--stall-timeout`, claims nothing the viewer did not see, and the systemd watchdog hears no
/// ping from the moment pictures stop arriving on schedule.
final class StallWatchdogTests: XCTestCase {
    var nginx: Nginx!
    var state: String!

    override func setUpWithError() throws {
        nginx = try Nginx()
        state = NSTemporaryDirectory() + "launchad-stall-state-\(UUID().uuidString)"
    }

    override func tearDown() {
        nginx.stop()
        try? FileManager.default.removeItem(atPath: state)
    }

    /// A 6 s video with sound, noisy enough (about 2.5 MB) that the first 1 MiB range holds only
    /// its first seconds; `/stall/` then sends 2 bytes a second, as the media server did.
    func stallingURL() throws -> String {
        let clip = try Fixtures.make(
            "stall-noise-6s.mp4",
            [
                "-f", "lavfi", "-i", "testsrc2=s=320x240:r=25:d=6,noise=alls=40:allf=t+u",
                "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=6",
                "-c:v", "libx264", "-crf", "14", "-pix_fmt", "yuv420p", "-g", "25", "-c:a", "aac", "-ac", "2",
                "-movflags", "+faststart", "-t", "6"
            ])
        let data = try Data(contentsOf: URL(fileURLWithPath: clip))
        XCTAssertGreaterThan(data.count, 2 << 20, "the stall must come after the first range")
        return try nginx.put("stall/ad.mp4", data)
    }

    func testAStalledStreamEndsMediaStalledWithoutCompleteAndStopsTheWatchdog() throws {
        let url = try stallingURL()
        let listener = try NotifyListener()
        let collector = try Collector()
        let run = try Launchad.run(
            [
                "play", url, "--size", "320x240", "--transition", "none", "--state", state,
                "--report", "\(collector.url)/pop", "--beacon-wait", "5"
            ],
            environment: Launchad.headlessEnvironment(["NOTIFY_SOCKET": listener.address, "WATCHDOG_USEC": "400000"]))
        XCTAssertEqual(run.status, 1, run.stdout + run.stderr)
        let error = try XCTUnwrap(run.events(named: "error").first, run.stdout)
        XCTAssertEqual(error["code"] as? String, "media_stalled", run.stdout)
        XCTAssertEqual(run.events(named: "complete").count, 0, run.stdout)
        let end = try XCTUnwrap(run.events(named: "end").first)
        XCTAssertEqual(end["outcome"] as? String, "error")
        XCTAssertEqual(run.events(named: "end").count, 1)

        // Shown time leaves the frozen picture out: at least the stall limit (less the tolerance)
        // of the time between the first frame and the error was not shown time.
        let shown = try XCTUnwrap(end["shown_ms"] as? Int)
        let first = try XCTUnwrap(run.events(named: "first_frame").first?["t_ms"] as? Int)
        let stalledAt = try XCTUnwrap(error["t_ms"] as? Int)
        XCTAssertGreaterThanOrEqual(stalledAt - first - shown, 3000 - 250, run.stdout)
        XCTAssertGreaterThanOrEqual(error["stalled_ms"] as? Int ?? 0, 3000)
        // Quartiles only for time really shown (6 s: 1.5 s each).
        for q in run.events(named: "quartile").compactMap({ $0["quartile"] as? Int }) {
            XCTAssertLessThanOrEqual(6000 * q / 100, shown, "quartile \(q) with \(shown) ms shown: \(run.stdout)")
        }
        XCTAssertLessThan(shown, 4500, "the stream stalled well before its end")

        // The watchdog: READY once the first picture was on screen, pings while playing, none
        // after the stall was seen, and the status says so.
        let said = listener.assignments
        XCTAssertEqual(said.filter { $0 == "READY=1" }.count, 1, "\(said)")
        XCTAssertLessThan(try XCTUnwrap(said.firstIndex(of: "READY=1")), try XCTUnwrap(said.firstIndex(of: "WATCHDOG=1")), "\(said)")
        let stalled = try XCTUnwrap(said.firstIndex { $0.hasPrefix("STATUS=stalled: no new picture of ad.mp4") }, "\(said)")
        XCTAssertTrue(said[..<stalled].contains("WATCHDOG=1"), "\(said)")
        XCTAssertFalse(said[stalled...].contains("WATCHDOG=1"), "no ping once pictures stopped coming: \(said)")
        XCTAssertEqual(said.last, "STATUS=ad.mp4 ended: error", "\(said)")

        // The play record says so too.
        XCTAssertTrue(collector.wait(for: 1), "a record arrives")
        let record = try XCTUnwrap(collector.records.first)
        XCTAssertEqual(record["outcome"] as? String, "error")
        XCTAssertEqual(record["error"] as? String, "media_stalled")
        XCTAssertEqual(record["shown_ms"] as? Int, shown)
    }

    /// The same stall in a VAST ad: the Error URI gets 405, no `complete` beacon.
    func testAStalledVASTMediaFileSendsError405AndNoComplete() throws {
        let url = try stallingURL()
        let track = "\(nginx.base)/track"
        let tag = VASTTags.document([
            VASTTags.inlineAd(
                id: "st", track: track, media: [VASTTags.mediaFile(url)],
                events: ["start", "firstQuartile", "midpoint", "complete"])
        ])
        let run = try Launchad.run([
            "play", "--vast", try nginx.put("stall.xml", Data(tag.utf8)), "--size", "320x240",
            "--transition", "none", "--state", state, "--stall-timeout", "1.5"
        ])
        XCTAssertEqual(run.status, 1, run.stdout + run.stderr)
        let error = try XCTUnwrap(run.events(named: "error").first, run.stdout)
        XCTAssertEqual(error["code"] as? String, "media_stalled")
        XCTAssertEqual(error["vast_error"] as? Int, 405, run.stdout)
        // Room for a loaded machine: the wait ends as soon as the beacon is in nginx's log.
        Wait.until(timeout: 20) { nginx.tracked.contains { $0.hasPrefix("/track/st/error") } }
        let got = nginx.tracked
        XCTAssertEqual(
            got.filter { $0.hasPrefix("/track/st/error") }.map { $0.split(separator: "?").last.map(String.init) }, ["code=405"], "\(got)")
        XCTAssertTrue(got.contains { $0.hasPrefix("/track/st/impression") }, "\(got)")
        XCTAssertFalse(got.contains { $0.hasPrefix("/track/st/complete") || $0.hasPrefix("/track/st/midpoint") }, "\(got)")
    }

    /// A notify socket nobody listens on (systemd gone, a stale variable) changes nothing.
    func testADeadNotifySocketNeverStopsPlayback() throws {
        let clip = try Fixtures.colourBars(seconds: 1, audio: true)
        let dead = NSTemporaryDirectory() + "launchad-no-listener-\(UUID().uuidString)"
        let run = try Launchad.run(
            ["play", clip, "--transition", "none"],
            environment: Launchad.headlessEnvironment(["NOTIFY_SOCKET": dead, "WATCHDOG_USEC": "100000"]))
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertEqual(run.events(named: "end").first?["outcome"] as? String, "completed")
        XCTAssertEqual(run.stderr, "")
    }

    /// An abstract socket name (`@...`, as systemd uses in containers) is reached too; a played
    /// ad is READY, pinged and ends with its outcome in the status, whoever WATCHDOG_PID names.
    func testAnAbstractNotifySocketHearsReadyPingsAndTheOutcome() throws {
        let listener = try NotifyListener(abstract: true)
        let clip = try Fixtures.colourBars(seconds: 1, audio: true)
        let run = try Launchad.run(
            ["play", clip, "--transition", "none"],
            // As under the kiosk units: systemd's WATCHDOG_PID names xinit, not launchad.
            environment: Launchad.headlessEnvironment([
                "NOTIFY_SOCKET": listener.address, "WATCHDOG_USEC": "200000",
                "WATCHDOG_PID": "1"
            ]))
        XCTAssertEqual(run.status, 0, run.stdout)
        let said = listener.assignments
        XCTAssertEqual(said.filter { $0 == "READY=1" }.count, 1, "\(said)")
        XCTAssertTrue(said.contains("WATCHDOG=1"), "\(said)")
        XCTAssertTrue(said.contains("STATUS=showing \(URL(fileURLWithPath: clip).lastPathComponent)"), "\(said)")
        XCTAssertEqual(said.last, "STATUS=\(URL(fileURLWithPath: clip).lastPathComponent) ended: completed", "\(said)")
    }
}

/// `launch --then APP` under a `Type=notify` unit: ready when the app starts (also after a run
/// with no ad), and pinged while the app runs.
final class LaunchWatchdogTests: XCTestCase {
    func testTheAppsStartIsReadyAndPingsGoOnWhileItRuns() throws {
        let listener = try NotifyListener()
        let cache = NSTemporaryDirectory() + "launchad-watchdog-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let run = try Launchad.run(
            [
                "launch", "--manifest", "http://127.0.0.1:\(try freePort())/m.json", "--cache", cache,
                "--retries", "0", "--then", "sh", "-c", "sleep 0.6"
            ],
            environment: Launchad.headlessEnvironment(["NOTIFY_SOCKET": listener.address, "WATCHDOG_USEC": "100000"]))
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.events(named: "end").first?["outcome"] as? String, "no_ad")
        let said = listener.assignments
        let ready = try XCTUnwrap(said.firstIndex(of: "READY=1"), "\(said)")
        XCTAssertTrue(said[ready + 1].hasPrefix("STATUS=running sh (pid "), "\(said)")
        XCTAssertTrue(said[ready...].contains("WATCHDOG=1"), "\(said)")
    }
}
