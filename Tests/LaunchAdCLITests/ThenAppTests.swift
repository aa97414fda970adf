import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

/// `--then` behaves like exec: the app is looked up on PATH, shares launchad's process group,
/// inherits only stdin, stdout and stderr, and launchad returns when it does. Signals end an
/// ad the same way whether they are TERM or HUP.
final class ThenAppTests: XCTestCase {
    var cache: URL!

    override func setUpWithError() throws {
        cache = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("launchad-then-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: cache) }

    /// No server: `no_ad` at once, then the app.
    func launch(then: [String]) throws -> Launchad.Run {
        try Launchad.run(
            [
                "launch", "--manifest", "http://127.0.0.1:\(try freePort())/m.json", "--cache", cache.path,
                "--retries", "0", "--then"
            ] + then)
    }

    /// launchad empties its own Compose table (XCOMPOSEFILE, for a faster window start-up), but
    /// the app gets the environment launchad was given: without the variable, or with the
    /// user's own value.
    func testTheAppGetsTheEnvironmentLaunchadWasGiven() throws {
        let show = ["sh", "-c", "echo \"compose=${XCOMPOSEFILE-unset}\""]
        let args = ["launch", "--manifest", "http://127.0.0.1:\(try freePort())/m.json", "--cache", cache.path, "--retries", "0", "--then"]
        // This test process links launchad's start-up code too, which set the variable here.
        var env = Launchad.headlessEnvironment()
        env["XCOMPOSEFILE"] = nil
        let plain = try Launchad.run(args + show, environment: env)
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertTrue(plain.stdout.contains("compose=unset\n"), plain.stdout)
        env["XCOMPOSEFILE"] = "/home/someone/.XCompose"
        let own = try Launchad.run(args + show, environment: env)
        XCTAssertEqual(own.status, 0, own.stderr)
        XCTAssertTrue(own.stdout.contains("compose=/home/someone/.XCompose\n"), own.stdout)
    }

    /// A SIGTERM in `play`'s first milliseconds, before SDL starts (and could turn it into its
    /// quit event), ends the ad like a later one: `skip` via close, one `end`, exit 0; before,
    /// it killed `play` with no `end` (status 143).
    func testATerminateBeforeSDLStartsEndsTheAdWithItsEndEvent() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Launchad.binary)
        p.arguments = ["play", Fixtures.media("sample-ad.mp4")]
        p.environment = Launchad.headlessEnvironment()
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = FileHandle.nullDevice
        try p.run()
        // The start-up code makes its loading thread right after it sets the handlers: a second
        // thread means they are set, and SDL (after FFmpeg's 30-40 ms of loading) is not up yet.
        Wait.forThreads(of: p.processIdentifier, atLeast: 2)
        kill(p.processIdentifier, SIGTERM)
        let out = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        let events = String(decoding: out, as: UTF8.self).split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        XCTAssertEqual(p.terminationReason, .exit, "the signal killed play")
        XCTAssertEqual(p.terminationStatus, 0)
        XCTAssertEqual(events.filter { $0["event"] as? String == "end" }.count, 1)
        XCTAssertEqual(events.last?["outcome"] as? String, "skipped")
        XCTAssertNil(events.first { $0["event"] as? String == "first_frame" }, "ended before any picture")
    }

    /// A grandchild left in the background (its own output elsewhere) does not hold launchad up:
    /// it returns the app's status at once, not when the grandchild ends 20 s later.
    func testLaunchReturnsWhenTheAppDoes() throws {
        let run = try launch(then: ["sh", "-c", "sleep 20 >/dev/null 2>&1 </dev/null & exit 3"])
        XCTAssertEqual(run.status, 3, run.stderr)
        XCTAssertLessThan(run.seconds, 10, "waited for the grandchild")
    }

    /// Only descriptors 0, 1 and 2 reach the app; it is in launchad's process group. (The shell
    /// writes on its own stdout: a redirection or a pipe would open descriptors of its own.)
    func testTheAppInheritsOnlyStdioAndTheProcessGroup() throws {
        let run = try launch(then: ["sh", "-c", "ls /proc/$$/fd; echo --; cut -d' ' -f5 /proc/$$/stat /proc/$PPID/stat"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = run.stdout.split(separator: "\n").filter { !$0.hasPrefix("{") }
        guard let split = lines.firstIndex(of: "--") else { return XCTFail(run.stdout) }
        XCTAssertEqual(Array(lines[..<split]), ["0", "1", "2"])
        let groups = lines[(split + 1)...]
        XCTAssertEqual(groups.count, 2)
        XCTAssertEqual(groups.first, groups.last, "the app's process group is launchad's")
    }

    /// PATH lookup with no `env` in between: `A=B prog` names a program called `A=B`.
    func testTheProgramIsLookedUpOnPathAsIs() throws {
        let run = try launch(then: ["A=B", "true"])
        XCTAssertEqual(run.status, 127)
        XCTAssertTrue(run.stderr.hasSuffix("launchad: cannot start A=B: No such file or directory\n"), run.stderr)
        // The event stream says it too, before its `end`.
        let failed = try XCTUnwrap(run.events(named: "app_not_started").first, run.stdout)
        XCTAssertEqual(failed["app"] as? String, "A=B")
        XCTAssertEqual(failed["message"] as? String, "cannot start A=B: No such file or directory")
        XCTAssertEqual(run.events.last?["event"] as? String, "end")
        XCTAssertEqual(try launch(then: ["sh", "-c", "exit 7"]).status, 7)
    }

    /// SIGHUP ends a playing ad as SIGTERM does: the `end` event, the same outcome and status.
    func testHangupEndsAnAdLikeTerminate() throws {
        var results: [(Int32, String?, Int)] = []
        for sig in [SIGTERM, SIGHUP] {
            let image = try Fixtures.write("hup-red.png", try Fixtures.solidPNG("red"))
            let p = Process()
            p.executableURL = URL(fileURLWithPath: Launchad.binary)
            p.arguments = ["play", image, "--duration", "10"]
            p.environment = Launchad.headlessEnvironment()
            let pipe = Pipe()
            p.standardOutput = pipe
            p.standardError = FileHandle.nullDevice
            try p.run()
            // Once the picture is up (its `first_frame` line), send the signal.
            var seen = Launchad.read(pipe.fileHandleForReading, until: "first_frame")
            kill(p.processIdentifier, sig)
            seen.append(pipe.fileHandleForReading.readDataToEndOfFile())
            p.waitUntilExit()
            let events = String(decoding: seen, as: UTF8.self).split(separator: "\n").compactMap {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
            }
            XCTAssertEqual(p.terminationReason, .exit, "signal \(sig) killed play")
            results.append((p.terminationStatus, events.last?["event"] as? String, events.filter { $0["event"] as? String == "end" }.count))
            XCTAssertEqual(events.last?["event"] as? String, "end")
        }
        XCTAssertEqual(results[1].0, results[0].0, "HUP's exit code is TERM's")
        XCTAssertEqual(results[1].2, 1)
    }
}
