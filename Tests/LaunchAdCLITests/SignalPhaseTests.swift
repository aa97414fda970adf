import Foundation
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdTestSupport
import XCTest

/// Issue 29 defect 10: a SIGTERM at each phase of a run (systemd stopping the unit) ends it
/// promptly, with its one `end` event: as `launch` starts, before SDL (it was a kill, status 143,
/// with no `end` and no app); while a VAST tag's server holds its answer; during the post-ad
/// `--beacon-wait` (both were held to their full timeouts).
final class SignalPhaseTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("launchad-signals-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    /// Starts launchad; its stdout is read by the caller.
    func start(_ args: [String]) throws -> (Process, Pipe) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Launchad.binary)
        p.arguments = args
        p.environment = Launchad.headlessEnvironment()
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = FileHandle.nullDevice
        try p.run()
        return (p, pipe)
    }

    /// Waits until the start-up code made its loading thread (right after it set the signal
    /// handlers): SDL, after FFmpeg's 30-40 ms of loading, is not up yet.
    func waitForTheStartUpThread(_ p: Process) {
        Wait.forThreads(of: p.processIdentifier, atLeast: 2)
    }

    /// Reads the rest of stdout and waits for the exit: the event lines, and seconds from now.
    func finish(_ p: Process, _ pipe: Pipe, seen: Data = Data()) -> (events: [[String: Any]], seconds: Double) {
        let began = Date()
        var out = seen
        out.append(pipe.fileHandleForReading.readDataToEndOfFile())
        p.waitUntilExit()
        let events = String(decoding: out, as: UTF8.self).split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        return (events, Date().timeIntervalSince(began))
    }

    /// A SIGTERM as `launch` starts (its start-up thread exists, SDL does not): the cached ad
    /// ends with its `end`, the app is started and gets the signal (the stop was meant for the
    /// run), and launchad exits with the app's status instead of being killed.
    func testATerminateAsLaunchStartsEndsTheAdAndReachesTheApp() throws {
        let state = folder.appendingPathComponent("state").path
        let (manifest, cache) = try cachedRedAd(in: folder, seconds: 20, size: "320x240", state: state)
        let (p, pipe) = try start([
            "launch", "--manifest", manifest, "--cache", cache, "--state", state, "--size", "320x240", "--transition", "none",
            "--then", "sleep", "60"
        ])
        waitForTheStartUpThread(p)
        kill(p.processIdentifier, SIGTERM)
        let (events, seconds) = finish(p, pipe)
        XCTAssertEqual(p.terminationReason, .exit, "the signal killed launch")
        XCTAssertEqual(p.terminationStatus, 128 + SIGTERM, "the app's status: sleep ended by the TERM passed on")
        XCTAssertEqual(events.filter { $0["event"] as? String == "end" }.count, 1, "\(events)")
        XCTAssertEqual(events.last?["event"] as? String, "end")
        XCTAssertEqual(events.last?["outcome"] as? String, "skipped")
        XCTAssertLessThan(seconds, 15, "a 20 s ad and a 60 s app: the run was held")
    }

    /// A SIGTERM while the tag's server has taken the request and not answered (`--vast-timeout
    /// 30`): the fetch is given up at once and the run ends with its `end`.
    func testATerminateDuringVASTResolutionEndsTheRunPromptly() throws {
        let server = try Collector(status: 200)
        server.hang = true
        let (p, pipe) = try start([
            "play", "--vast", "\(server.url)/tag", "--vast-timeout", "30", "--state", folder.appendingPathComponent("state").path
        ])
        XCTAssertTrue(server.wait(for: 1), "the tag was asked for")
        kill(p.processIdentifier, SIGTERM)
        let (events, seconds) = finish(p, pipe)
        server.hang = false
        XCTAssertEqual(p.terminationReason, .exit)
        XCTAssertEqual(events.filter { $0["event"] as? String == "end" }.count, 1, "\(events)")
        XCTAssertEqual(events.last?["event"] as? String, "end")
        XCTAssertLessThan(seconds, 10, "held to --vast-timeout 30")
    }

    /// A SIGTERM during `--beacon-wait 60` while a beacon's server holds its answer: the ad's
    /// `end` is out, and the process exits at once (the beacon stays owed for the next run).
    func testATerminateDuringTheBeaconWaitEndsTheRunPromptly() throws {
        try signalDuringTheBeaconWait(SIGTERM)
    }

    /// A SIGHUP (a closed terminal or session) before SDL starts killed `play` with no `end`
    /// (its source came up with SDL), and one during `--beacon-wait` killed it after its `end`
    /// (the source reset the signal to its default when the ad ended). Now both end the run as
    /// a SIGTERM does.
    func testAHangupBeforeSDLOrDuringTheBeaconWaitEndsTheRunAsTerminateDoes() throws {
        let (p, pipe) = try start(["play", Fixtures.media("sample-ad.mp4"), "--state", folder.appendingPathComponent("s").path])
        waitForTheStartUpThread(p)
        kill(p.processIdentifier, SIGHUP)
        let (events, _) = finish(p, pipe)
        XCTAssertEqual(p.terminationReason, .exit, "the hangup killed play")
        XCTAssertEqual(p.terminationStatus, 0)
        XCTAssertEqual(events.filter { $0["event"] as? String == "end" }.count, 1, "\(events)")
        XCTAssertEqual(events.last?["outcome"] as? String, "skipped")
        try signalDuringTheBeaconWait(SIGHUP)
    }

    /// Sends `sig` during `--beacon-wait 60` while a beacon's server holds its answer.
    func signalDuringTheBeaconWait(_ sig: Int32) throws {
        let tracker = try Collector()
        tracker.hang = true
        let state = folder.appendingPathComponent("state-\(sig)")
        let box = try Outbox(
            stateDirectory: state, config: OutboxConfig(), fetcher: HTTPClient(connectTimeout: 2, totalTimeout: 4), clock: { Date() })
        box.enqueue(beacons: ["\(tracker.url)/t?e=impression"], event: "impression", at: Date(), reach: .any)
        let png = try Fixtures.write("signal-red.png", Fixtures.solidPNG("red"))
        let (p, pipe) = try start(["play", png, "--duration", "0.3", "--transition", "none", "--state", state.path, "--beacon-wait", "60"])
        let seen = Launchad.read(pipe.fileHandleForReading, until: #""event":"end""#)
        XCTAssertTrue(tracker.wait(for: 1), "the owed beacon is being sent")
        kill(p.processIdentifier, sig)
        let (events, seconds) = finish(p, pipe, seen: seen)
        tracker.hang = false
        XCTAssertEqual(p.terminationReason, .exit, "signal \(sig) killed play")
        XCTAssertEqual(p.terminationStatus, 0)
        XCTAssertEqual(events.filter { $0["event"] as? String == "end" }.count, 1)
        XCTAssertEqual(events.last?["outcome"] as? String, "completed")
        XCTAssertLessThan(seconds, 10, "held to --beacon-wait 60")
        XCTAssertEqual(box.status().pending, 1, "still owed")
    }
}
