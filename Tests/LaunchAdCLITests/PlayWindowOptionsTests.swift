import Foundation
import LaunchAdTestSupport
import XCTest

/// Options that reach outside the ad: fullscreen windows, opening links, fonts.
final class PlayWindowOptionsTests: XCTestCase {
    func testFullscreenTakesTheWholeDisplay() throws {
        let clip = try Fixtures.colourBars(seconds: 1, audio: false)
        let run = try Launchad.run(["play", clip, "--fullscreen"])
        XCTAssertEqual(run.status, 0)
        let window = try XCTUnwrap(run.events(named: "window").first)
        XCTAssertEqual(window["fullscreen"] as? Bool, true)
        // SDL's dummy display is 1024x768.
        XCTAssertEqual(window["width"] as? Int, 1024)
        XCTAssertEqual(window["height"] as? Int, 768)
    }

    func testOpenLinksRunsXdgOpenWithTheLink() throws {
        let clip = try Fixtures.colourBars(seconds: 2, audio: false)
        let bin = Fixtures.directory.appendingPathComponent("fake-bin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let record = bin.appendingPathComponent("opened.txt").path
        let script = bin.appendingPathComponent("xdg-open").path
        try "#!/bin/sh\necho \"$1\" > \(record)\n".write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        var env = Launchad.headlessEnvironment()
        env["PATH"] = bin.path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        let run = try LiveRun(
            ["play", clip, "--control", "stdin", "--link", "https://example.com/sale?a=1", "--open-links"], environment: env)
        XCTAssertNotNil(run.waitFor("first_frame"))
        run.send("click")
        XCTAssertEqual(run.finish(), 0)
        XCTAssertEqual(run.events(named: "end").first?["outcome"] as? String, "clicked")
        Wait.forFile(record)
        XCTAssertEqual(try String(contentsOfFile: record, encoding: .utf8), "https://example.com/sale?a=1\n")
    }

    /// xdg-open exits 4 when no browser starts: `link_open_failed` with the status, before `end`.
    func testAnOpenerThatFailsIsSaidWithItsStatus() throws {
        let clip = try Fixtures.colourBars(seconds: 2, audio: false)
        let bin = Fixtures.directory.appendingPathComponent("failing-bin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let script = bin.appendingPathComponent("xdg-open").path
        try "#!/bin/sh\nexit 4\n".write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        var env = Launchad.headlessEnvironment()
        env["PATH"] = bin.path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        let run = try LiveRun(["play", clip, "--control", "stdin", "--link", "https://example.com/", "--open-links"], environment: env)
        XCTAssertNotNil(run.waitFor("first_frame"))
        run.send("click")
        XCTAssertEqual(run.finish(), 0)
        let failed = try XCTUnwrap(run.events(named: "link_open_failed").first, "\(run.events)")
        XCTAssertEqual(failed["message"] as? String, "xdg-open exited with status 4")
        XCTAssertEqual(run.events(named: "end").first?["outcome"] as? String, "clicked")
        XCTAssertEqual(run.events.last?["event"] as? String, "end", "end stays the last event")
    }

    func testWithoutXdgOpenTheClickStillEndsTheAdAndSaysWhy() throws {
        let clip = try Fixtures.colourBars(seconds: 2, audio: false)
        var env = Launchad.headlessEnvironment()
        env["PATH"] = "/nonexistent"
        let run = try LiveRun(["play", clip, "--control", "stdin", "--link", "https://example.com/", "--open-links"], environment: env)
        XCTAssertNotNil(run.waitFor("first_frame"))
        run.send("click")
        XCTAssertEqual(run.finish(), 0)
        XCTAssertNotNil(run.events(named: "link_open_failed").first)
        XCTAssertEqual(run.events(named: "end").first?["outcome"] as? String, "clicked")
        XCTAssertEqual(run.events.last?["event"] as? String, "end", "end stays the last event")
    }

    func testAMissingFontStillDrawsTheRingAndSaysSo() throws {
        let clip = try Fixtures.colourBars(seconds: 1, audio: false)
        let run = try Launchad.run(["play", clip, "--font", "/nonexistent/font.ttf"])
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(run.events(named: "font_missing").count, 1)
    }

    func testALabelTheFontCannotDrawIsReported() throws {
        let clip = try Fixtures.colourBars(seconds: 1, audio: false)
        let run = try Launchad.run(["play", clip, "--skip-label", "跳过"])
        XCTAssertEqual(run.status, 0)
        XCTAssertTrue((run.events(named: "font_missing").first?["message"] as? String ?? "").contains("跳过"))
        let ok = try Launchad.run(["play", clip, "--skip-label", "Passer"])
        XCTAssertTrue(ok.events(named: "font_missing").isEmpty)
    }
}
