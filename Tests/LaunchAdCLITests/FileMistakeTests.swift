import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

/// A file that cannot be read or written is one plain line (the path and why) and the same exit
/// code in every command: 1 for the file the command works on, 2 for an output it was told to write.
final class FileMistakeTests: XCTestCase {
    func testAMissingManifestIsOnePlainLineForScheduleAndPrefetch() throws {
        let folder = NSTemporaryDirectory() + "launchad-filemistake-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let missing = folder + "/missing.json"
        let schedule = try Launchad.run(["schedule", "--manifest", missing, "--cache", folder + "/cache"])
        XCTAssertEqual(schedule.stderr, "launchad: cannot read \(missing): no such file\n")
        XCTAssertEqual(schedule.status, 1)
        let prefetch = try Launchad.run(["prefetch", "--manifest", missing, "--cache", folder + "/cache"])
        XCTAssertEqual(prefetch.stderr, "launchad: manifest: cannot read \(missing): no such file\n")
        XCTAssertEqual(prefetch.status, 1)
        let probe = try Launchad.run(["probe", missing])
        XCTAssertEqual(probe.stderr, "launchad: cannot read \(missing): no such file\n")
        XCTAssertEqual(probe.status, 1)
    }

    func testAnOutputInAMissingFolderIsTheSameLineAndExitTwoEverywhere() throws {
        let clip = try Fixtures.colourBars(seconds: 1, audio: false)
        let out = "/nonexistent-launchad/x.png"
        let reason = "cannot write \(out): the folder /nonexistent-launchad does not exist"
        for (command, option) in [
            (["snapshot", clip, "--out", out], "--out"), (["preview", clip, "--out", out], "--out"),
            (["validate", clip, "--output", out], "--output")
        ] {
            let run = try Launchad.run(command)
            XCTAssertEqual(run.stderr, "launchad: \(option): \(reason)\n", command[0])
            XCTAssertEqual(run.status, 2, command[0])
        }
        let events = try Launchad.run(["play", clip, "--events", out])
        XCTAssertEqual(events.stderr, "launchad: --events: \(reason)\n")
        XCTAssertEqual(events.status, 2)
    }

    func testAFolderGivenAsTheOutputIsSaid() throws {
        let clip = try Fixtures.colourBars(seconds: 1, audio: false)
        let run = try Launchad.run(["preview", clip, "--out", NSTemporaryDirectory()])
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
        XCTAssertTrue(run.stderr.hasPrefix("launchad: --out: cannot write "), run.stderr)
        XCTAssertFalse(run.stderr.contains("could not be completed") || run.stderr.contains("Error Domain"), run.stderr)
    }
}
