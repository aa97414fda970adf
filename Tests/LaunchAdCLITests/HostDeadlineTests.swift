import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

/// The ad never holds its host (issue 37): whatever the window manager, the display, the sound
/// server or the player's own thread does, `launch --then APP` starts APP by `--wait` + 2 s and
/// `play` ends with its one `end` and its exit code, and a SIGTERM, SIGINT or SIGHUP ends a run
/// within about a second. Each case is made the way it fails: a window manager (python3-xlib,
/// `WindowManagers/holding_wm.py`) that takes map requests and never maps, or maps 5 s late; a
/// sound server that takes the connection and never answers; the player's thread blocked for
/// good at a step (the debug build's `LAUNCHAD_TEST_BLOCK_PLAYER` seam). Times are upper bounds
/// with room for a loaded machine, never measurements.
final class HostDeadlineTests: XCTestCase {
    private var processes: [Process] = []
    private var display = ""
    private var folder: URL!

    override func setUpWithError() throws {
        for bin in ["/usr/bin/Xvfb", "/usr/bin/python3"] where !FileManager.default.isExecutableFile(atPath: bin) {
            throw XCTSkip("\(bin) is not installed (scripts/setup.sh --test installs it)")
        }
        folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("launchad-deadline-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let (xvfb, display) = try Xvfb.start(["-screen", "0", "640x480x24", "-nolisten", "tcp"])
        processes.append(xvfb)
        self.display = display
    }

    override func tearDown() {
        for p in processes.reversed() where p.isRunning {
            p.terminateIfRunning()
            p.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: folder)
    }

    // MARK: The screen's keepers

    /// A window manager that holds windows back: `mapAfter` nil never maps them.
    private func holdingWindowManager(mapAfter: Double?) throws {
        let script = Fixtures.repoRoot.appendingPathComponent("Tests/LaunchAdCLITests/WindowManagers/holding_wm.py").path
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = [script, mapAfter.map { "\($0)" } ?? "never"]
        p.environment = ["DISPLAY": display, "PATH": "/usr/bin:/bin"]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        processes.append(p)
        let said = String(decoding: Launchad.read(out.fileHandleForReading, until: "\n"), as: UTF8.self)
        guard said.contains("ready") else {
            throw XCTSkip("the test window manager did not start (python3-xlib missing? scripts/setup.sh --test installs it)")
        }
    }

    private func openbox() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/openbox") else {
            throw XCTSkip("/usr/bin/openbox is not installed (scripts/setup.sh --test installs it)")
        }
        // A fresh screen with openbox on it in place of setUp's (Xvfb.withOpenbox starts both once
        // more when openbox does not take over).
        for p in processes where p.isRunning {
            p.terminateIfRunning()
            p.waitUntilExit()
        }
        let (xvfb, display, wm) = try Xvfb.withOpenbox(["-screen", "0", "640x480x24", "-nolisten", "tcp"])
        processes = [xvfb, wm]
        self.display = display
    }

    /// A sound server that takes the connection and never answers: SDL's PulseAudio driver
    /// waits for it with no limit, on the player's thread, as it starts SDL's sound.
    private func muteSoundServer() throws -> String {
        let socket = folder.appendingPathComponent("pulse.sock").path
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = [
            "-c",
            """
            import socket, sys
            s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(8)
            print("ready", flush=True)
            held = []
            while True: held.append(s.accept()[0])
            """,
            socket
        ]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        processes.append(p)
        _ = Launchad.read(out.fileHandleForReading, until: "ready")
        return "unix:" + socket
    }

    private func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = display
        env["SDL_AUDIODRIVER"] = "dummy"
        env.removeValue(forKey: "SDL_VIDEODRIVER")
        env.removeValue(forKey: "WAYLAND_DISPLAY")
        for (k, v) in extra { env[k] = v }
        return env
    }

    // MARK: Runs

    /// A 1 s red picture, or the sample video.
    private func picture() throws -> String { try Fixtures.write("deadline-red.png", Fixtures.solidPNG("red", size: "320x240")) }
    private var video: String { Fixtures.repoRoot.appendingPathComponent("Media/sample-ad.mp4").path }

    /// The app `launch` starts: it writes when it started (/proc/uptime: the clock of launchad's
    /// `t_ms`) and its parent's pid to `marker`, then exits with 7, or on SIGTERM with 5.
    private func app(_ marker: String, lingers: Bool = false) -> [String] {
        let started = "echo \"$(cut -d ' ' -f 1 /proc/uptime) $PPID\" > '\(marker)'; "
        let body = started + (lingers ? "trap 'exit 5' TERM; while :; do sleep 0.05; done" : "exit 7")
        return ["/bin/sh", "-c", body]
    }

    /// When the app started, in seconds on launchad's own clock (its events' `t_ms`, from its
    /// exec: a loaded machine's slow start is in it), and launchad's pid; nil if it never did.
    private func appStart(_ marker: String, _ run: LiveRun) -> (seconds: Double, launchad: Int32)? {
        guard let text = try? String(contentsOfFile: marker, encoding: .utf8) else { return nil }
        let parts = text.split(separator: " ")
        guard parts.count == 2, let at = Double(parts[0]), let pid = Int32(parts[1].trimmingCharacters(in: .whitespacesAndNewlines))
        else { return nil }
        return (at - run.startUptime, pid)
    }

    private func cachedAd(seconds: Double = 2) throws -> [String] {
        let (manifest, cache) = try cachedRedAd(in: folder, seconds: seconds, size: "320x240")
        return ["launch", "--manifest", manifest, "--cache", cache, "--retries", "0"]
    }

    /// Runs to its end (killed after `limit` seconds: a hang fails here); its status, and when
    /// it ended in seconds on its own clock (its `end`'s `t_ms`; wall time without one).
    private func finish(_ run: LiveRun, limit: Double) -> (status: Int32, seconds: Double) {
        let status = run.finish(timeout: limit)
        let endMs = run.events(named: "end").last?["t_ms"] as? Int
        return (status, endMs.map { Double($0) / 1000 } ?? run.seconds)
    }

    private func assertOneEnd(_ run: LiveRun, _ outcome: String, file: StaticString = #filePath, line: UInt = #line) {
        let names = run.events.compactMap { $0["event"] as? String }
        XCTAssertEqual(names.filter { $0 == "end" }.count, 1, "\(names)", file: file, line: line)
        XCTAssertEqual(names.last, "end", "\(names)", file: file, line: line)
        XCTAssertEqual(run.events(named: "end").first?["outcome"] as? String, outcome, file: file, line: line)
    }

    private func errorCode(_ run: LiveRun) -> String? { run.events(named: "error").last?["code"] as? String }

    /// `play FILE --wait 2` ends `error` `code`, exit 1, by `--wait` + 2 s (and room for a start);
    /// `launch --wait 2 --then APP` of a cached ad starts APP by `--wait` + 2 s, ends `error`
    /// `code` and returns APP's status. `options`: more of both command lines.
    private func assertPlayAndLaunchEndOnTime(
        _ file: String, _ env: [String: String], code: String, options: [String] = [], line: UInt = #line
    ) throws {
        let play = try LiveRun(["play", file, "--wait", "2", "--duration", "1"] + options, environment: env)
        let (status, seconds) = finish(play, limit: 20)
        XCTAssertEqual(status, 1, file, line: line)
        XCTAssertLessThan(seconds, 2 + 2 + 1, "--wait + 2 s", line: line)
        assertOneEnd(play, "error", line: line)
        XCTAssertEqual(errorCode(play), code, line: line)
        XCTAssertTrue(play.events(named: "first_frame").isEmpty, "nothing was on screen", line: line)

        let marker = folder.appendingPathComponent("app").path
        try? FileManager.default.removeItem(atPath: marker)
        let launch = try LiveRun(try cachedAd() + ["--wait", "2"] + options + ["--then"] + app(marker), environment: env)
        let (launchStatus, _) = finish(launch, limit: 20)
        let started = try XCTUnwrap(appStart(marker, launch), "the app started", line: line)
        XCTAssertLessThan(started.seconds, 2 + 2 + 0.5, "--wait + 2 s, and the app's shell starting", line: line)
        XCTAssertEqual(launchStatus, 7, "the app's status", line: line)
        assertOneEnd(launch, "error", line: line)
        XCTAssertEqual(errorCode(launch), code, line: line)
        XCTAssertTrue(launch.events(named: "handoff").isEmpty, "no picture was on screen to hold", line: line)
    }

    // MARK: A window manager that never maps

    func testUnderAWindowManagerThatNeverMapsPlayEndsAtItsWaitWithWindowUnavailable() throws {
        try holdingWindowManager(mapAfter: nil)
        let run = try LiveRun(["play", video, "--wait", "2"], environment: environment())
        let (status, seconds) = finish(run, limit: 20)
        XCTAssertEqual(status, 1)
        XCTAssertLessThan(seconds, 2 + 2, "--wait + 2 s")
        assertOneEnd(run, "error")
        XCTAssertEqual(errorCode(run), "window_unavailable")
    }

    func testUnderAWindowManagerThatNeverMapsLaunchStartsItsAppByTheWait() throws {
        try holdingWindowManager(mapAfter: nil)
        try assertPlayAndLaunchEndOnTime(try picture(), environment(), code: "window_unavailable")
    }

    // MARK: A window manager that maps late

    func testAWindowMappedFiveSecondsLateShowsTheAdWithinALongWait() throws {
        try holdingWindowManager(mapAfter: 5)
        let run = try LiveRun(["play", try picture(), "--wait", "9", "--duration", "1"], environment: environment())
        let (status, _) = finish(run, limit: 25)
        XCTAssertEqual(status, 0)
        assertOneEnd(run, "completed")
        let first = try XCTUnwrap(run.events(named: "first_frame").first?["t_ms"] as? Int, "the ad was shown")
        XCTAssertGreaterThan(first, 4000, "once mapped, not before")
    }

    func testAWindowMappedFiveSecondsLateDoesNotHoldTheAppPastTheWait() throws {
        try holdingWindowManager(mapAfter: 5)
        try assertPlayAndLaunchEndOnTime(try picture(), environment(), code: "window_unavailable")
    }

    // MARK: The player's thread stuck

    func testAThreadStuckOpeningTheWindowEndsPlayAndStartsTheApp() throws {
        try openbox()
        try assertPlayAndLaunchEndOnTime(
            try picture(), environment(["LAUNCHAD_TEST_BLOCK_PLAYER": "openingWindow"]), code: "window_unavailable",
            options: ["--stall-timeout", "2"])
    }

    func testAThreadStuckAfterTheFirstFrameHandsTheScreenToTheApp() throws {
        try openbox()
        let screen = try XScreen(display)
        let marker = folder.appendingPathComponent("app").path
        let run = try LiveRun(
            try cachedAd(seconds: 20) + ["--wait", "2", "--stall-timeout", "2", "--then"] + app(marker, lingers: true),
            environment: environment(["LAUNCHAD_TEST_BLOCK_PLAYER": "turning"]))
        let shown = try XCTUnwrap(run.waitFor("first_frame", timeout: 10)?["t_ms"] as? Int, "the ad was on screen")
        XCTAssertTrue(Wait.forFile(marker, timeout: 10), "the app started")
        let started = try XCTUnwrap(appStart(marker, run))
        XCTAssertLessThan(started.seconds, Double(shown) / 1000 + 2 + 2, "the silence (2 s) after the first frame, and room")
        // The stuck ad's window is off the screen, the app's to take.
        XCTAssertTrue(Wait.until(timeout: 5) { screen.window(ofProcess: started.launchad) == nil }, "the ad's window left the screen")
        XCTAssertEqual(run.waitFor("end", timeout: 5)?["outcome"] as? String, "error")
        XCTAssertEqual(errorCode(run), "player_stuck")
        // launchad waits for its app as exec would: a SIGTERM now is the app's, and its status launchad's.
        kill(started.launchad, SIGTERM)
        XCTAssertEqual(run.finish(timeout: 10), 5)
        assertOneEnd(run, "error")
    }

    func testASoundServerThatNeverAnswersHoldsNeitherPlayNorTheApp() throws {
        try openbox()
        let env = environment(["SDL_AUDIODRIVER": "pulseaudio", "PULSE_SERVER": try muteSoundServer()])
        try assertPlayAndLaunchEndOnTime(video, env, code: "player_stuck", options: ["--stall-timeout", "2"])
    }

    /// SDL's disk driver writing to a FIFO nobody reads: its open blocks, on the engine's own
    /// thread (not the player's), so the video never starts and the ad's own wait ends it.
    func testASoundDeviceWhoseOpenBlocksCostsTheAdNotTheApp() throws {
        try openbox()
        let fifo = folder.appendingPathComponent("audio.fifo").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let env = environment(["SDL_AUDIODRIVER": "disk", "SDL_DISKAUDIOFILE": fifo])
        let play = try LiveRun(["play", video, "--wait", "2"], environment: env)
        let (status, seconds) = finish(play, limit: 20)
        XCTAssertEqual(status, 3, "no first frame within --wait: timeout")
        XCTAssertLessThan(seconds, 2 + 2 + 1)
        assertOneEnd(play, "timeout")
    }

    // MARK: Signals

    func testASignalEndsARunStuckAnywhereWithinASecond() throws {
        try openbox()
        // Stuck in the sound server's start-up (SDL's PulseAudio driver polls for an answer that
        // never comes): the signal was noted, and nothing ever looked at it.
        let mute = environment(["SDL_AUDIODRIVER": "pulseaudio", "PULSE_SERVER": try muteSoundServer()])
        let held = try LiveRun(["play", video, "--wait", "30", "--stall-timeout", "30"], environment: mute)
        XCTAssertTrue(isStuck(held, in: "poll"), "waiting for the sound server")
        let heldSignalled = Date()
        kill(held.pid, SIGTERM)
        XCTAssertEqual(held.finish(timeout: 10), 0, "a quit ends an ad as skipped")
        XCTAssertLessThan(Date().timeIntervalSince(heldSignalled), 2)
        assertOneEnd(held, "skipped")

        for (step, sig) in [("openingWindow", SIGTERM), ("turning", SIGINT), ("openingWindow", SIGHUP)] {
            let run = try LiveRun(
                ["play", try picture(), "--wait", "30", "--stall-timeout", "30", "--duration", "30"],
                environment: environment(["LAUNCHAD_TEST_BLOCK_PLAYER": step]))
            // Stuck before its window, or after its first frame.
            XCTAssertTrue(isStuck(run), "\(step)")
            if step == "turning" { XCTAssertNotNil(run.waitFor("first_frame", timeout: 10)) }
            let signalled = Date()
            kill(run.pid, sig)
            let status = run.finish(timeout: 10)
            XCTAssertLessThan(Date().timeIntervalSince(signalled), 2, "\(step), signal \(sig)")
            XCTAssertEqual(status, 0, "a quit ends an ad as skipped")
            assertOneEnd(run, "skipped")
        }

        // launch: the app starts and gets the signal (it was meant for the whole run); its
        // status, 128 + 15 (sleep ended by the TERM passed on), is launchad's.
        let launch = try LiveRun(
            try cachedAd() + ["--wait", "30", "--stall-timeout", "30", "--then", "/bin/sleep", "30"],
            environment: environment(["LAUNCHAD_TEST_BLOCK_PLAYER": "openingWindow"]))
        XCTAssertTrue(isStuck(launch))
        let signalled = Date()
        kill(launch.pid, SIGTERM)
        XCTAssertEqual(launch.finish(timeout: 10), 128 + SIGTERM)
        XCTAssertLessThan(Date().timeIntervalSince(signalled), 2)
        assertOneEnd(launch, "skipped")
    }

    /// Waits until the run's main thread sleeps in a kernel function whose name holds `call`:
    /// `pause` (held by the test seam), `poll` (waiting for a server's answer).
    private func isStuck(_ run: LiveRun, in call: String = "pause") -> Bool {
        Wait.until(timeout: 10) {
            (try? String(contentsOfFile: "/proc/\(run.pid)/task/\(run.pid)/wchan", encoding: .utf8))?.contains(call) == true
        }
    }
}
