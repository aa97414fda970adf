import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

/// What an embedded ad leaves of its host's process, seen from a C host of the tests' own
/// (Hosts/guest-host.c) linked against the library as an application is: its signal
/// dispositions (its own SIGHUP handler, default SIGINT and SIGTERM) and its environment the same
/// while the ad plays and after, its SIGHUP handler still its own, SIGTERM still ending it, no
/// line of the library's on its stdout, and the first launchad_prepare(ad, 0) of the process
/// returning at once.
final class HostProcessTests: XCTestCase {
    private func redClip() throws -> String {
        try Fixtures.make(
            "guest-red-1s.mp4", ["-f", "lavfi", "-i", "color=c=red:s=320x180:d=1:r=25", "-c:v", "libx264", "-pix_fmt", "yuv420p"])
    }

    /// The host's stdout, and its exit status as a shell reports it (128+N for signal N).
    /// `environment` on top of the test's, with SDL's dummy video driver and (unless it says
    /// otherwise) no audio driver named, so that SDL tries ALSA as an application's would.
    private func runHost(_ args: [String], environment: [String: String] = [:]) throws -> (lines: [String], status: Int) {
        let host = try ExamplesBuild.testHost("guest-host")
        var env = ProcessInfo.processInfo.environment.merging(["SDL_VIDEODRIVER": "dummy"]) { $1 }
        env["SDL_AUDIODRIVER"] = nil
        let run = try Fixtures.run(
            "/bin/sh", ["-c", "\"$0\" \"$@\"; echo \"status $?\"", host] + args, environment: env.merging(environment) { $1 })
        let lines = run.stdout.split(separator: "\n").map(String.init)
        let status = Int(lines.last { $0.hasPrefix("status ") }?.dropFirst(7) ?? "") ?? -1
        // A crash's report (the Swift runtime's backtrace) is on stderr: kept with the lines.
        let said = status == 128 + Int(SIGTERM) ? [] : run.stderr.split(separator: "\n").prefix(80).map { "stderr: \($0)" }
        return (lines.filter { !$0.hasPrefix("status ") } + said, status)
    }

    func testTheHostsSignalsEnvironmentAndStdoutAreAsItLeftThem() throws {
        let (lines, status) = try runHost([try redClip(), "--transition", "none"])
        XCTAssertEqual(lines.filter { !$0.hasPrefix("host ") && !$0.hasPrefix("stderr: ") }, [], "the library wrote on the host's stdout")
        XCTAssertTrue(lines.contains("host end completed"), "\(lines)")
        XCTAssertTrue(lines.contains("host during signals same environment same"), "\(lines)")
        XCTAssertTrue(lines.contains("host after signals same environment same"), "\(lines)")
        XCTAssertTrue(lines.contains("host hangups 1"), "the host's own SIGHUP handler ran: \(lines)")
        if lines.contains("host alsa before 1") {
            XCTAssertTrue(lines.contains("host alsa after 1"), "the host's ALSA error handler is its own after the ad: \(lines)")
        }
        XCTAssertFalse(lines.contains("host survived SIGTERM"), "\(lines)")
        XCTAssertEqual(status, 128 + Int(SIGTERM), "SIGTERM ends the host as its default does: \(lines)")
    }

    /// Issue 38 review: a missing FFmpeg (here: a libavformat.so.59 that has none of its
    /// functions, found first on LD_LIBRARY_PATH) ended the host with exit 127 from the ad's
    /// thread. The ad ends `error` with `library_missing`; the host goes on.
    func testAMissingLibraryEndsTheAdNotTheHost() throws {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("fake-ffmpeg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("empty.c")
        try "int launchad_test_nothing_here;\n".write(to: source, atomically: true, encoding: .utf8)
        let made = try Fixtures.run(
            "/usr/bin/gcc",
            [
                "-shared", "-fPIC", "-Wl,-soname,libavformat.so.59", source.path, "-o",
                folder.appendingPathComponent("libavformat.so.59").path
            ])
        XCTAssertEqual(made.status, 0, made.stderr)
        let (lines, status) = try runHost([try redClip()], environment: ["LD_LIBRARY_PATH": folder.path, "SDL_AUDIODRIVER": "dummy"])
        XCTAssertTrue(lines.contains("host end error"), "\(lines)")
        XCTAssertEqual(status, 128 + Int(SIGTERM), "the host went on to its own end: \(lines)")
    }

    /// launchad_prepare(ad, 0) loads nothing and waits on nothing on the host's thread: the
    /// first call of a fresh process returns within 10 ms (FFmpeg's loading alone is 30-50 ms).
    /// The time the host's thread stood in the run queue while other processes had the core (a
    /// loaded machine's, up to a time slice: 9.9 ms seen beside three busy loops) is not the call's.
    func testTheFirstPrepareOfAProcessReturnsAtOnce() throws {
        let (lines, _) = try runHost([try redClip(), "--transition", "none"])
        let line = try XCTUnwrap(lines.first { $0.hasPrefix("host prepare ") }, "\(lines)")
        // host prepare STATUS WALL ms queued QUEUED ms
        let prepare = line.split(separator: " ")
        XCTAssertEqual(prepare.count, 8, line)
        XCTAssertEqual(prepare[2], "-4", "not ready yet: LAUNCHAD_ERROR_TIMEOUT")
        let ms = try XCTUnwrap(Double(prepare[3]), line), queued = try XCTUnwrap(Double(prepare[6]), line)
        XCTAssertLessThan(ms - queued, 10, "launchad_prepare(ad, 0) took \(ms) ms, \(queued) ms of it queued for a core")
    }
}
