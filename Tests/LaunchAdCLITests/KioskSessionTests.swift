import Foundation
import LaunchAdTestSupport
import XCTest

/// The shipped X11 kiosk session (packaging/libexec/x11-session) starts launchad only once its
/// window manager owns the screen, not beside it. Run under an Xvfb, with the launch replaced by
/// a probe that notes whether a window manager was there when it started.
final class KioskSessionTests: XCTestCase {
    private var xvfb: Process?
    private var session: Process?
    private var display = ""
    private var dir = ""

    override func setUpWithError() throws {
        for bin in ["/usr/bin/Xvfb", "/usr/bin/openbox", "/usr/bin/xprop"] where !FileManager.default.isExecutableFile(atPath: bin) {
            throw XCTSkip("\(bin) is not installed (scripts/setup.sh --test installs it)")
        }
        (xvfb, display) = try Xvfb.start(["-screen", "0", "640x480x24", "-nolisten", "tcp"])
        dir = NSTemporaryDirectory() + "launchad-x11-session-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/bin", withIntermediateDirectories: true)
    }

    override func tearDown() {
        // The session's openbox outlives the launch (in a kiosk, the X server ends with the launch
        // and takes it along): it goes with the server here too, and only then has the session
        // ended for Foundation, which watches a descriptor openbox inherited.
        xvfb?.terminateIfRunning()
        xvfb?.waitUntilExit()
        session?.waitUntilExit()
        try? FileManager.default.removeItem(atPath: dir)
    }

    private func write(_ path: String, _ text: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(chmod(path, 0o755), 0)
    }

    /// Runs the session with `openbox` on PATH being `fakeOpenbox`, and returns what the probe
    /// saw on the root window as the launch started, once it has.
    private func runSession(openbox fakeOpenbox: String) throws -> String {
        let script = try String(contentsOf: Fixtures.repoRoot.appendingPathComponent("packaging/libexec/x11-session"), encoding: .utf8)
        XCTAssertTrue(script.contains("exec /usr/libexec/launchad/kiosk-launch\n"), "the session ends by starting the launch")
        try write(dir + "/x11-session", script.replacingOccurrences(of: "/usr/libexec/launchad/kiosk-launch", with: dir + "/probe"))
        try write(
            dir + "/probe",
            "#!/bin/sh\nxprop -root _NET_SUPPORTING_WM_CHECK > \"\(dir)/seen.tmp\" 2>&1\nmv \"\(dir)/seen.tmp\" \"\(dir)/seen\"\n")
        try write(dir + "/bin/openbox", fakeOpenbox)
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = display
        env["PATH"] = dir + "/bin:" + (env["PATH"] ?? "/usr/bin:/bin")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = [dir + "/x11-session"]
        p.environment = env
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        session = p
        XCTAssertTrue(Wait.forFile(dir + "/seen", timeout: 20), "the launch started")
        return try String(contentsOfFile: dir + "/seen", encoding: .utf8)
    }

    /// openbox a second late (a slow machine, a cold disk): the launch waits for it.
    func testTheLaunchWaitsUntilTheWindowManagerOwnsTheScreen() throws {
        let seen = try runSession(openbox: "#!/bin/sh\nsleep 1\nexec /usr/bin/openbox --sm-disable\n")
        XCTAssertTrue(seen.contains("window id #"), "openbox managed the screen when the launch started: \(seen)")
    }

    /// No window manager at all (openbox missing or failing at once): the launch starts anyway, without waiting out the bound.
    func testAWindowManagerThatExitsDoesNotHoldTheLaunch() throws {
        let started = Date()
        let seen = try runSession(openbox: "#!/bin/sh\nexit 1\n")
        XCTAssertFalse(seen.contains("window id #"), seen)
        XCTAssertLessThan(Date().timeIntervalSince(started), 9, "not the 10 s bound")
    }
}
