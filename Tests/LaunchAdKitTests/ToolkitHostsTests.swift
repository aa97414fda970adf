import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

/// examples/gtk4-host (GTK 4: a GtkGLArea, or --buffer into a GdkMemoryTexture) and
/// examples/qt6-host (Qt 6 Widgets: a QOpenGLWidget, or --buffer into a QImage) as their users
/// run them, under Xvfb with openbox, their windows read back: the ad in the content area below
/// the header bar or tool bar, the bar kept, then the application's green; clicks, keys, focus
/// and SIGTERM reaching the ad through the host; the command line's events.
final class ToolkitHostsTests: XCTestCase {
    private var xvfb: Process?
    private var openbox: Process?
    private var display = ""
    private var screen: XScreen!

    override func setUpWithError() throws {
        try ExampleHosts.built.get()
        for bin in ["/usr/bin/Xvfb", "/usr/bin/openbox", "/usr/bin/xdotool"] where !FileManager.default.isExecutableFile(atPath: bin) {
            XCTFail("\(bin) is missing (bash scripts/setup.sh --test)")
        }
        (xvfb, display, openbox) = try Xvfb.withOpenbox(["-screen", "0", "1600x1000x24", "-nolisten", "tcp"])
        screen = try XScreen(display)
    }

    override func tearDown() {
        openbox?.terminateIfRunning()
        xvfb?.terminateIfRunning()
    }

    /// A red clip, no sound: red is easy to find on screen.
    private func redClip(seconds: Double = 1.5) throws -> String {
        try Fixtures.make(
            "embed-red-\(seconds)s.mp4",
            ["-f", "lavfi", "-i", "color=c=red:s=640x360:d=\(seconds):r=25", "-c:v", "libx264", "-pix_fmt", "yuv420p"])
    }

    private func start(_ host: String, _ args: [String]) throws -> HostProcess {
        try HostProcess(
            ExampleHosts.path(host), args,
            // X11 said outright: other tests of this process set SDL_VIDEODRIVER=dummy. No
            // accessibility bus under Xvfb.
            environment: ["DISPLAY": display, "SDL_VIDEODRIVER": "x11", "SDL_AUDIODRIVER": "dummy", "GTK_A11Y": "none", "NO_AT_BRIDGE": "1"]
        )
    }

    /// Where the host's content area is on screen, from its "content WxH+X+Y scale S" line and
    /// its window's place.
    private func contentArea(_ host: HostProcess, file: StaticString = #filePath, line: UInt = #line) throws -> Rect {
        let said = try XCTUnwrap(host.waitFor(prefix: "content "), host.output, file: file, line: line)
        let n = said.split(whereSeparator: { " x+".contains($0) }).dropFirst().prefix(4).compactMap { Int($0) }
        XCTAssertEqual(n.count, 4, said, file: file, line: line)
        var window: Rect?
        XCTAssertTrue(
            Wait.until(timeout: 10) {
                window = self.screen.window(ofProcess: host.pid); return window != nil
            }, "its window", file: file, line: line)
        let w = try XCTUnwrap(window, file: file, line: line)
        return Rect(x: w.x + n[2], y: w.y + n[3], width: n[0], height: n[1])
    }

    private func pixel(_ x: Int, _ y: Int) -> (r: UInt8, g: UInt8, b: UInt8)? {
        (try? screen.grab(Rect(x: x, y: y, width: 1, height: 1)))?[0, 0]
    }

    private func isRed(_ p: (r: UInt8, g: UInt8, b: UInt8)?) -> Bool { p.map { $0.r > 200 && $0.g < 60 && $0.b < 60 } ?? false }
    private func isGreen(_ p: (r: UInt8, g: UInt8, b: UInt8)?) -> Bool {
        p.map { abs(Int($0.r) - 0x20) < 8 && abs(Int($0.g) - 0xA0) < 8 && abs(Int($0.b) - 0x40) < 8 } ?? false
    }

    /// The ad in the content area (its red in the middle), the bar above it kept (light, not
    /// the ad's), then the application's green; exit 0 and the command line's events.
    private func assertPlays(_ host: String, _ mode: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let clip = try redClip()
        let p = try start(host, mode + [clip, "--transition", "none"])
        defer { p.stop() }
        let content = try contentArea(p, file: file, line: line)
        XCTAssertNotNil(p.waitFor("event first_frame"), "first_frame: " + p.output, file: file, line: line)
        // The colours are the test, not how soon a loaded machine's X server shows them: each wait
        // ends as soon as its colour is on screen.
        XCTAssertTrue(
            Wait.until(timeout: 20) { self.isRed(self.pixel(content.midX, content.midY)) }, "the ad's red in the content area", file: file,
            line: line)
        let bar = pixel(content.midX, content.y - 12)
        XCTAssertTrue(
            bar.map { $0.r > 150 && $0.g > 150 && $0.b > 150 } ?? false, "the bar kept above the ad: \(String(describing: bar))",
            file: file, line: line)
        XCTAssertNotNil(p.waitFor("event end completed"), "end completed: " + p.output, file: file, line: line)
        XCTAssertTrue(
            Wait.until(timeout: 20) { self.isGreen(self.pixel(content.midX, content.midY)) }, "the application's green again", file: file,
            line: line)
        XCTAssertEqual(p.finish(), 0, p.output, file: file, line: line)
        XCTAssertEqual(p.lines, try ["ready"] + ExampleHosts.commandLineEvents([clip, "--transition", "none"]), file: file, line: line)
    }

    func testTheGTKHostPlaysTheAdInAGLArea() throws { try assertPlays("gtk4-host", []) }
    func testTheGTKHostPlaysTheAdThroughTheBuffer() throws { try assertPlays("gtk4-host", ["--buffer"]) }
    func testTheQtHostPlaysTheAdInAnOpenGLWidget() throws { try assertPlays("qt6-host", []) }
    func testTheQtHostPlaysTheAdThroughTheBuffer() throws { try assertPlays("qt6-host", ["--buffer"]) }

    private func xdotool(_ args: [String]) throws -> String {
        try Fixtures.run("/usr/bin/xdotool", args, environment: ["DISPLAY": display]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A click on the skip button, where the ad laid it out in the content area (the host maps
    /// its widget's coordinates to the ad's pixels): the ad ends skipped.
    private func assertClickSkips(_ host: String, _ mode: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let p = try start(host, mode + [try redClip(seconds: 20), "--skip-after", "0", "--transition", "none"])
        defer { p.stop() }
        let content = try contentArea(p, file: file, line: line)
        XCTAssertNotNil(p.waitFor("event skip_available"), "skip_available: " + p.output, file: file, line: line)
        let layout = AdLayout(window: content.size, mode: .fullscreen, skipStyle: .text, picture: Size(width: 640, height: 360))
        let button = layout.skipButton
        _ = try xdotool(["mousemove", "--sync", "\(content.x + button.midX)", "\(content.y + button.midY)", "click", "1"])
        XCTAssertNotNil(p.waitFor("event end skipped"), "end skipped: " + p.output, file: file, line: line)
        XCTAssertEqual(p.finish(), 0, p.output, file: file, line: line)
    }

    func testAClickOnTheSkipButtonInTheGTKHostSkips() throws { try assertClickSkips("gtk4-host", []) }
    func testAClickOnTheSkipButtonInTheQtHostsBufferSkips() throws { try assertClickSkips("qt6-host", ["--buffer"]) }

    /// The host playing a 20 s red clip (skip allowed at once) once `event` came, and its window's id.
    private func playing(_ host: String, until event: String, file: StaticString, line: UInt) throws -> (HostProcess, String) {
        let p = try start(host, [try redClip(seconds: 20), "--skip-after", "0", "--transition", "none"])
        _ = try contentArea(p, file: file, line: line)
        XCTAssertNotNil(p.waitFor("event \(event)"), "\(event): " + p.output, file: file, line: line)
        let id = try xdotool(["search", "--sync", "--pid", "\(p.pid)"]).split(separator: "\n").last.map(String.init) ?? ""
        return (p, id)
    }

    /// Escape skips (the host forwards its keys); minimizing pauses and restoring resumes (its
    /// window's state); SIGTERM, the host's own handler, ends the ad and the host at once.
    private func assertKeysFocusAndSIGTERM(_ host: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let (p, id) = try playing(host, until: "first_frame", file: file, line: line)
        defer { p.stop() }
        _ = try xdotool(["windowminimize", "--sync", id])
        XCTAssertNotNil(p.waitFor("event pause"), "pause: " + p.output, file: file, line: line)
        _ = try xdotool(["windowactivate", "--sync", id])
        XCTAssertNotNil(p.waitFor("event resume"), "resume: " + p.output, file: file, line: line)
        p.signal(SIGTERM)
        XCTAssertNotNil(p.waitFor("event end ended_by_host"), "end ended_by_host: " + p.output, file: file, line: line)
        XCTAssertEqual(p.finish(), 0, p.output, file: file, line: line)
        // Turned while minimized with no GL context current: paused, nothing to warn about.
        XCTAssertFalse(p.output.contains("render_error"), p.output, file: file, line: line)
        // Escape, in a second run: skipped.
        let (q, qid) = try playing(host, until: "skip_available", file: file, line: line)
        defer { q.stop() }
        _ = try xdotool(["windowactivate", "--sync", qid])
        _ = try xdotool(["key", "Escape"])  // XTEST, to the focused window (GTK ignores sent events)
        XCTAssertNotNil(q.waitFor("event end skipped"), "end skipped: " + q.output, file: file, line: line)
        XCTAssertEqual(q.finish(), 0, q.output, file: file, line: line)
    }

    func testTheGTKHostForwardsKeysAndFocusAndHonoursSIGTERM() throws { try assertKeysFocusAndSIGTERM("gtk4-host") }
    func testTheQtHostForwardsKeysAndFocusAndHonoursSIGTERM() throws { try assertKeysFocusAndSIGTERM("qt6-host") }
}
