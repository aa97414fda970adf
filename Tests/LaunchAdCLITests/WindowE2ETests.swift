import Foundation
import LaunchAdTestSupport
import XCTest

/// The one real-window test: Xvfb with a window manager (openbox); xdotool minimizes and
/// re-activates the real window, as a person switching apps would.
final class WindowE2ETests: XCTestCase {
    private var xvfb: Process?
    private var wm: Process?
    private var display = ""

    override func setUpWithError() throws {
        for bin in ["/usr/bin/Xvfb", "/usr/bin/openbox", "/usr/bin/xdotool"] where !FileManager.default.isExecutableFile(atPath: bin) {
            throw XCTSkip("\(bin) is not installed (scripts/setup.sh --test installs it)")
        }
        (xvfb, display, wm) = try Xvfb.withOpenbox(["-screen", "0", "1280x1024x24", "-nolisten", "tcp"])
    }

    override func tearDown() {
        for p in [wm, xvfb] { p?.terminateIfRunning(); p?.waitUntilExit() }
    }

    private func xdotool(_ args: [String]) throws -> String {
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = display
        return try Fixtures.run("/usr/bin/xdotool", args, environment: env).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The ad's window once it has the focus (as a viewer's window would before it is minimized).
    private func focusedAdWindow(file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let id = try xdotool(["search", "--sync", "--name", "^LaunchAd$"]).split(separator: "\n").first.map(String.init) ?? ""
        XCTAssertFalse(id.isEmpty, "window found", file: file, line: line)
        XCTAssertTrue(Wait.until { (try? xdotool(["getactivewindow"])) == id }, "the ad's window has the focus", file: file, line: line)
        return id
    }

    func testMinimizeAndRestorePauseAndResumeTheRealWindow() throws {
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = display
        env["SDL_AUDIODRIVER"] = "dummy"
        env.removeValue(forKey: "SDL_VIDEODRIVER")
        // --wait 15: a loaded machine's openbox may map the window later than the default 3 s; the wait is not tested here.
        let run = try LiveRun(["play", Fixtures.media("sample-ad.mp4"), "--transition", "none", "--wait", "15"], environment: env)
        let first = try XCTUnwrap(run.waitFor("first_frame"), "the ad reached the screen")
        XCTAssertEqual(run.events(named: "window").first?["video_driver"] as? String, "x11")
        let id = try focusedAdWindow()
        _ = try xdotool(["windowminimize", id])
        // Waits with room for a loaded machine's window manager (they end early when the ad does).
        let pause = try XCTUnwrap(run.waitFor("pause", timeout: 20))
        Thread.sleep(forTimeInterval: 1.5)  // the pause itself: its length is what shown_ms must leave out
        _ = try xdotool(["windowactivate", id])
        let resume = try XCTUnwrap(run.waitFor("resume", timeout: 20))
        XCTAssertEqual(run.finish(timeout: 20), 0)

        XCTAssertTrue(["minimized", "focus_lost", "hidden"].contains(pause["reason"] as? String ?? ""), "\(pause)")
        XCTAssertTrue(["restored", "focus_gained", "shown"].contains(resume["reason"] as? String ?? ""), "\(resume)")
        let end = try XCTUnwrap(run.events(named: "end").first)
        XCTAssertEqual(end["outcome"] as? String, "completed")
        let shown = try XCTUnwrap(end["shown_ms"] as? Int)
        let wall = (end["t_ms"] as? Int ?? 0) - (first["t_ms"] as? Int ?? 0)
        let paused = (resume["t_ms"] as? Int ?? 0) - (pause["t_ms"] as? Int ?? 0)
        XCTAssertGreaterThan(paused, 1200)
        XCTAssertEqual(Double(shown), 5500, accuracy: 400, "shown_ms leaves the paused time out")
        XCTAssertGreaterThan(wall, shown + 1200, "wall time includes it")
    }

    /// A VAST ad in a real window: minimizing and re-activating it sends the tag's pause and
    /// resume beacons; closing it (Alt+F4, openbox's close) sends closeLinear.
    func testAVASTAdsPauseResumeAndCloseBeaconsFollowTheRealWindow() throws {
        let nginx = try Nginx()
        defer { nginx.stop() }
        // Long enough that the close lands while it plays, however slowly xdotool answers.
        try nginx.put("ad.mp4", Data(contentsOf: URL(fileURLWithPath: Fixtures.colourBars(seconds: 10, audio: true))))
        let media = VASTTags.mediaFile("\(nginx.base)/ad.mp4")
        let tag = try nginx.put(
            "tag.xml",
            Data(VASTTags.document(version: "4.0", [VASTTags.inlineAd(id: "x", track: "\(nginx.base)/track", media: [media])]).utf8))
        let state = NSTemporaryDirectory() + "launchad-window-vast-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: state) }
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = display
        env["SDL_AUDIODRIVER"] = "dummy"
        env.removeValue(forKey: "SDL_VIDEODRIVER")
        let run = try LiveRun(["play", "--vast", tag, "--state", state, "--transition", "none", "--wait", "15"], environment: env)
        XCTAssertNotNil(run.waitFor("first_frame"), "the ad reached the screen")
        let id = try focusedAdWindow()
        _ = try xdotool(["windowminimize", id])
        XCTAssertNotNil(run.waitFor("pause", timeout: 20))
        _ = try xdotool(["windowactivate", "--sync", id])
        XCTAssertNotNil(run.waitFor("resume", timeout: 20))
        XCTAssertTrue(Wait.until { (try? xdotool(["getwindowfocus"])) == id }, "the keys go to the ad's window")
        // openbox acts on its Alt+F4 binding a moment after the activation, and nothing tells when:
        // pressed again, as a viewer would, until the ad's skip says the close arrived.
        for _ in 0..<3 where run.events(named: "skip").isEmpty {
            _ = try xdotool(["key", "--window", id, "alt+F4"])
            run.waitFor("skip", timeout: 2)
        }
        XCTAssertEqual(run.finish(timeout: 20), 0)
        XCTAssertEqual(run.events(named: "skip").first?["via"] as? String, "close")
        Wait.until(timeout: 20) { nginx.tracked.contains { $0.contains("/closeLinear") } }
        let names = nginx.tracked.map { $0.dropFirst("/track/x/".count).prefix { $0 != "?" } }
        XCTAssertEqual(
            names.filter { ["impression", "start", "pause", "resume", "closeLinear", "complete"].contains(String($0)) },
            ["impression", "start", "pause", "resume", "closeLinear"])
    }

    /// In a real, focused window the ad is viewable after 2 continuous seconds: `Viewable` is
    /// sent while it plays (not `ViewUndetermined`, which the dummy driver gives).
    func testAVASTAdInARealWindowIsViewableAfterTwoSeconds() throws {
        let nginx = try Nginx()
        defer { nginx.stop() }
        try nginx.put("ad.mp4", Data(contentsOf: URL(fileURLWithPath: Fixtures.colourBars(seconds: 4, audio: true))))
        let track = "\(nginx.base)/track"
        let viewable =
            "<ViewableImpression><Viewable><![CDATA[\(track)/view/yes]]></Viewable><NotViewable><![CDATA[\(track)/view/no]]></NotViewable>"
            + "<ViewUndetermined><![CDATA[\(track)/view/unknown]]></ViewUndetermined></ViewableImpression>"
        let xml = VASTTags.document(
            version: "4.1", [VASTTags.inlineAd(id: "v", track: track, media: [VASTTags.mediaFile("\(nginx.base)/ad.mp4")])]
        )
        .replacingOccurrences(of: "<AdTitle>v</AdTitle>", with: "<AdTitle>v</AdTitle>\(viewable)")
        let tag = try nginx.put("tag.xml", Data(xml.utf8))
        let state = NSTemporaryDirectory() + "launchad-window-view-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: state) }
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = display
        env["SDL_AUDIODRIVER"] = "dummy"
        env.removeValue(forKey: "SDL_VIDEODRIVER")
        let run = try LiveRun(
            ["play", "--vast", tag, "--state", state, "--transition", "none", "--beacon-wait", "5", "--wait", "15"], environment: env)
        XCTAssertEqual(run.finish(timeout: 30), 0)
        XCTAssertTrue(run.events(named: "pause").isEmpty, "nothing took the focus: \(run.events)")
        let got = nginx.tracked(until: { $0.contains { $0.hasPrefix("view/") } && $0.contains { $0.hasPrefix("v/complete") } })
        XCTAssertEqual(got.filter { $0.hasPrefix("view/") }, ["view/yes"], "\(got)")
        let view = try XCTUnwrap(got.firstIndex(of: "view/yes"))
        XCTAssertLessThan(view, try XCTUnwrap(got.firstIndex { $0.hasPrefix("v/complete") }), "sent while it played")
    }
}
