import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

/// `launch --then APP`: the ad's last picture stays until the app's window is there. Under Xvfb
/// (white root window, so an empty screen shows as white) with openbox, ffmpeg captures the
/// screen every 40 ms across the hand-off: every capture shows the ad (red) or the app (blue,
/// or its window before its first paint), never the empty desktop.
final class HandOffTests: XCTestCase {
    private var xvfb: Process?
    private var wm: Process?
    private var display = ""
    var folder: URL!

    override func setUpWithError() throws {
        folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("launchad-handoff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        for p in [wm, xvfb] { p?.terminateIfRunning(); p?.waitUntilExit() }
        try? FileManager.default.removeItem(at: folder)
    }

    private func startX() throws {
        for bin in ["/usr/bin/Xvfb", "/usr/bin/openbox", "/usr/bin/ffmpeg"] where !FileManager.default.isExecutableFile(atPath: bin) {
            throw XCTSkip("\(bin) is not installed (scripts/setup.sh --test installs it)")
        }
        (xvfb, display, wm) = try Xvfb.withOpenbox(["-screen", "0", "640x480x24", "-nolisten", "tcp", "-wr"])
    }

    private var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = display
        env["SDL_AUDIODRIVER"] = "dummy"
        env.removeValue(forKey: "SDL_VIDEODRIVER")
        env.removeValue(forKey: "WAYLAND_DISPLAY")
        return env
    }

    private func start(_ exe: String, _ args: [String], input: Pipe? = nil) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = args
        p.environment = environment
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        if let input { p.standardInput = input }
        try p.run()
        return p
    }

    /// Counts of (white, red, blue) pixels in each 64x48 capture.
    private func classify(_ raw: Data) -> [(white: Int, red: Int, blue: Int)] {
        let size = 64 * 48 * 3
        return stride(from: 0, to: raw.count - size + 1, by: size).map { start in
            var counts = (white: 0, red: 0, blue: 0)
            for i in stride(from: start, to: start + size, by: 3) {
                let (r, g, b) = (raw[i], raw[i + 1], raw[i + 2])
                if r > 220 && g > 220 && b > 220 { counts.white += 1 }
                if r > 180 && g < 80 && b < 80 { counts.red += 1 }
                if b > 180 && r < 80 && g < 80 { counts.blue += 1 }
            }
            return counts
        }
    }

    func testTheAdStaysUntilTheAppsWindowIsMappedAndTheScreenIsNeverEmpty() throws {
        try startX()
        let (manifest, cache) = try cachedRedAd(in: folder, seconds: 1.5)
        let blue = try Fixtures.write("handoff-blue.png", Fixtures.solidPNG("blue", size: "640x480"))
        // The app starts its window half a second late, from a child of the shell (not the
        // process launchad started): found through the process tree.
        let app = "sleep 0.5; \(Launchad.binary) play \(blue) --fullscreen --duration 3 --transition none --events /dev/null; true"
        let run = try LiveRun(
            [
                "launch", "--manifest", manifest, "--cache", cache, "--fullscreen", "--retries", "0",
                "--hold", "10", "--then", "sh", "-c", app
            ], environment: environment)
        XCTAssertNotNil(run.waitFor("first_frame"), "the ad reached the screen")
        let frames = folder.appendingPathComponent("frames.rgb").path
        let input = Pipe()
        let capture = try start(
            "/usr/bin/ffmpeg",
            [
                "-y", "-loglevel", "error", "-f", "x11grab", "-framerate", "25", "-video_size", "640x480",
                "-i", display, "-t", "20", "-vf", "scale=64:48", "-f", "rawvideo", "-pix_fmt", "rgb24", frames
            ],
            input: input)
        let handoff = run.waitFor("handoff", timeout: 20)
        // The app's picture for a while: its first paint can come well after its window is mapped
        // on a loaded machine, so the capture runs until 20 frames (64x48 RGB each) show it.
        let appFrames = {
            ((try? Data(contentsOf: URL(fileURLWithPath: frames))).map(self.classify) ?? []).filter { $0.blue > 64 * 48 * 9 / 10 }.count
        }
        Wait.until(timeout: 15) { appFrames() >= 20 }
        input.fileHandleForWriting.write(Data("q".utf8))
        capture.waitUntilExit()
        XCTAssertEqual(run.finish(timeout: 20), 0)

        XCTAssertEqual(handoff?["via"] as? String, "app_window", "\(run.events)")
        let captures = classify(try Data(contentsOf: URL(fileURLWithPath: frames)))
        XCTAssertGreaterThan(captures.count, 25, "a second or more of captures")
        let total = 64 * 48
        for (i, c) in captures.enumerated() {
            XCTAssertLessThan(c.white, total / 50, "capture \(i) shows the empty desktop: \(c)")
        }
        // Black is a window fading in (the ad's first frames, the app's own fade-in): never white.
        let coloured = captures.filter { $0.red > total * 9 / 10 || $0.blue > total * 9 / 10 }
        XCTAssertGreaterThan(coloured.first?.red ?? 0, total * 9 / 10, "the ad first: \(captures)")
        XCTAssertGreaterThan(captures.last?.blue ?? 0, total * 9 / 10, "the app last")
        let firstBlue = try XCTUnwrap(captures.firstIndex { $0.blue > total * 9 / 10 })
        XCTAssertFalse(captures[firstBlue...].contains { $0.red > total / 10 }, "the ad does not come back")
    }

    /// xmessage sets no _NET_WM_PID: its window is found as the new window naming no owner,
    /// long before the 10 s hold.
    func testAnAppWithoutNetWMPidIsFoundByItsNewWindow() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/xmessage") else {
            throw EnvironmentSkip.because("xmessage is not installed (x11-utils; scripts/setup.sh --test installs it)")
        }
        try startX()
        let (manifest, cache) = try cachedRedAd(in: folder, seconds: 1.5)
        let run = try LiveRun(
            [
                "launch", "--manifest", manifest, "--cache", cache, "--fullscreen", "--retries", "0",
                "--hold", "10", "--then", "sh", "-c", "sleep 0.3; exec xmessage -timeout 2 -geometry 300x200 no-pid-here"
            ], environment: environment)
        let handoff = try XCTUnwrap(run.waitFor("handoff", timeout: 20), "\(run.events)")
        XCTAssertEqual(run.finish(timeout: 20), 0)
        XCTAssertEqual(handoff["via"] as? String, "app_window", "\(run.events)")
        XCTAssertLessThan(handoff["waited_ms"] as? Int ?? 10_000, 5000, "not the whole hold")
    }

    /// Where windows cannot be seen (no X11: SDL's dummy driver), the picture stays --hold
    /// seconds; an app that ends first ends the hold at once.
    func testWithoutX11TheHoldLastsHoldSecondsOrUntilTheAppEnds() throws {
        let (manifest, cache) = try cachedRedAd(in: folder, seconds: 1.5)
        let held = try Launchad.run([
            "launch", "--manifest", manifest, "--cache", cache, "--size", "320x240", "--retries", "0",
            "--hold", "0.4", "--then", "sleep", "1"
        ])
        XCTAssertEqual(held.status, 0, held.stdout + held.stderr)
        let handoff = try XCTUnwrap(held.events(named: "handoff").first, held.stdout)
        XCTAssertEqual(handoff["via"] as? String, "hold")
        XCTAssertGreaterThanOrEqual(handoff["waited_ms"] as? Int ?? 0, 400)
        XCTAssertEqual(held.events.last?["event"] as? String, "end", "end stays the last event")

        let quick = try Launchad.run([
            "launch", "--manifest", manifest, "--cache", cache, "--size", "320x240", "--retries", "0",
            "--hold", "30", "--then", "true"
        ])
        XCTAssertEqual(quick.events(named: "handoff").first?["via"] as? String, "app_exited", quick.stdout)
        XCTAssertLessThan(quick.seconds, 25, "not the 30 s hold")
    }
}
