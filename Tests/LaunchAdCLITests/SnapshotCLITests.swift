import Foundation
import LaunchAdTestSupport
import XCTest

final class SnapshotCLITests: XCTestCase {
    func testSnapshotWritesAPNGContactSheet() throws {
        let clip = try Fixtures.colourBars(seconds: 3)
        let out = Fixtures.directory.appendingPathComponent("cli-sheet.png").path
        try? FileManager.default.removeItem(atPath: out)
        let r = try Launchad.run(["snapshot", clip, "--out", out, "--count", "6", "--width", "100"])
        XCTAssertEqual(r.status, 0, r.stderr)
        // 3x2 tiles of 100x76 with 4 px around and between; at 0.5 s the 0.48 s picture is on screen.
        XCTAssertEqual(r.stdout, "wrote \(out): 316x164, 6 pictures at 0, 0.48, 1, 1.48, 2, 2.48 s\n")
        let probe = try Fixtures.run(
            "/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,width,height", "-of", "csv=p=0", out])
        XCTAssertEqual(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "png,316,164")
    }

    func testSnapshotMistakes() throws {
        let clip = try Fixtures.colourBars(seconds: 2)
        let noOut = try Launchad.run(["snapshot", clip])
        XCTAssertEqual(noOut.status, 2)
        XCTAssertEqual(noOut.stderr, "launchad: snapshot needs --out FILE.png\n")
        let late = try Launchad.run(["snapshot", clip, "--out", "/tmp/never.png", "--at", "10"])
        XCTAssertEqual(late.status, 1)
        XCTAssertEqual(late.stderr, "launchad: --at 10 is past the end of \(clip) (2 s)\n")
        let unwritable = try Launchad.run(["snapshot", clip, "--out", "/nonexistent/dir/s.png"])
        XCTAssertEqual(unwritable.status, 2, "as validate's --output and play's --events")
        XCTAssertEqual(
            unwritable.stderr, "launchad: --out: cannot write /nonexistent/dir/s.png: the folder /nonexistent/dir does not exist\n")
    }
}
