import Foundation
import LaunchAdTestSupport
import XCTest

/// `--control stdin`: a host process drives the ad as a viewer would.
final class ControlChannelTests: XCTestCase {
    func testHostPausesResumesMutesAndEnds() throws {
        let clip = try Fixtures.colourBars(seconds: 4)
        let run = try LiveRun(["play", clip, "--control", "stdin"], environment: Launchad.headlessEnvironment())
        XCTAssertNotNil(run.waitFor("first_frame"))
        XCTAssertNotNil(run.waitFor("quartile"), "a second of the ad shown before the pause")
        run.send("pause")
        XCTAssertNotNil(run.waitFor("pause"))
        Thread.sleep(forTimeInterval: 0.8)  // the pause itself: its length is what shown_ms must leave out
        run.send("resume")
        run.send("mute")
        run.send("bogus")
        run.send("unmute")
        XCTAssertNotNil(run.waitFor("unmute"))
        run.send("end")
        XCTAssertEqual(run.finish(), 0)
        XCTAssertEqual(run.events(named: "pause").first?["reason"] as? String, "host")
        XCTAssertEqual(run.events(named: "resume").first?["reason"] as? String, "host")
        XCTAssertEqual(run.events(named: "control_error").first?["line"] as? String, "bogus")
        let end = try XCTUnwrap(run.events(named: "end").first)
        XCTAssertEqual(end["outcome"] as? String, "ended_by_host")
        // Shown time leaves the pause (0.8 s or more, as the run's own pause and resume events say) out.
        let shown = try XCTUnwrap(end["shown_ms"] as? Int)
        let wall = (end["t_ms"] as? Int ?? 0) - (run.events(named: "first_frame").first?["t_ms"] as? Int ?? 0)
        let paused = (run.events(named: "resume").first?["t_ms"] as? Int ?? 0) - (run.events(named: "pause").first?["t_ms"] as? Int ?? 0)
        XCTAssertGreaterThanOrEqual(paused, 800)
        XCTAssertGreaterThanOrEqual(wall - shown, paused - 100, "wall \(wall) ms, shown \(shown) ms, paused \(paused) ms")
    }

    func testHostSkipAndClick() throws {
        let clip = try Fixtures.colourBars(seconds: 3, audio: false)
        let skip = try LiveRun(["play", clip, "--control", "stdin"], environment: Launchad.headlessEnvironment())
        XCTAssertNotNil(skip.waitFor("first_frame"))
        skip.send("skip")
        XCTAssertEqual(skip.finish(), 0)
        XCTAssertEqual(skip.events(named: "end").first?["outcome"] as? String, "skipped")

        let click = try LiveRun(
            ["play", clip, "--control", "stdin", "--link", "https://example.com/x"],
            environment: Launchad.headlessEnvironment())
        XCTAssertNotNil(click.waitFor("first_frame"))
        click.send("click")
        XCTAssertEqual(click.finish(), 0)
        XCTAssertEqual(click.events(named: "click").first?["link"] as? String, "https://example.com/x")
        XCTAssertEqual(click.events(named: "end").first?["outcome"] as? String, "clicked")
    }
}

/// The control channel takes no byte past the line that ends the ad: the next reader of stdin
/// gets the rest whole.
final class ControlChannelHandOverTests: XCTestCase {
    func testTheNextReaderGetsEverythingAfterTheEndingLine() throws {
        let clip = try Fixtures.colourBars(seconds: 3, audio: false)
        for attempt in 1...3 {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/bin/sh")
            // launchad plays, then the shell (the next reader, as an app after `launch --then`) reads a line.
            p.arguments = ["-c", "\"$0\" play \"$1\" --control stdin; read line; echo \"next: $line\"", Launchad.binary, clip]
            p.environment = Launchad.headlessEnvironment()
            let input = Pipe(), output = Pipe()
            p.standardInput = input
            p.standardOutput = output
            p.standardError = FileHandle.nullDevice
            try p.run()
            var seen = Launchad.read(output.fileHandleForReading, until: "first_frame")
            input.fileHandleForWriting.write(Data("skip\n".utf8))
            seen.append(Launchad.read(output.fileHandleForReading, until: "\"event\":\"skip\""))
            input.fileHandleForWriting.write(Data("hello-app\n".utf8))
            seen.append(output.fileHandleForReading.readDataToEndOfFile())
            p.waitUntilExit()
            let text = String(decoding: seen, as: UTF8.self)
            XCTAssertTrue(text.contains("\"outcome\":\"skipped\""), "attempt \(attempt): \(text)")
            XCTAssertTrue(text.hasSuffix("next: hello-app\n"), "attempt \(attempt): \(text)")
        }
    }

    /// `skip` before the first frame is answered with `control_error`, not dropped.
    func testASkipBeforeTheFirstFrameIsAnswered() throws {
        let run = try Launchad.run(
            ["play", try Fixtures.colourBars(seconds: 1, audio: false), "--control", "stdin"],
            stdin: Data("skip\n".utf8))
        let error = try XCTUnwrap(run.events(named: "control_error").first, run.stdout)
        XCTAssertEqual(error["line"] as? String, "skip")
        XCTAssertEqual(run.events.last?["outcome"] as? String, "completed")
    }
}
