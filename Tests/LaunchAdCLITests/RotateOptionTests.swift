import XCTest
import LaunchAdCore
import LaunchAdTestSupport
@testable import LaunchAdCLI

/// `--rotate` for `play` and `launch`: its values, its usage errors, and the screen `launch`
/// chooses variants for.
final class RotateOptionTests: XCTestCase {
    func testValues() throws {
        XCTAssertEqual(try PlayOptions.parse(["a.mp4"])?.rotation, ScreenRotation.none)
        for d in [0, 90, 180, 270] {
            XCTAssertEqual(try PlayOptions.parse(["a.mp4", "--rotate", "\(d)"])?.rotation.degrees, d)
        }
        XCTAssertEqual(try PlayOptions.parse(["a.mp4", "--rotate=90", "--rotate", "90"])?.rotation, .quarter, "the same value twice is fine")
    }

    func testUsageErrors() {
        let cases: [([String], String)] = [
            (["a.mp4", "--rotate", "45"], "--rotate takes 0, 90, 180 or 270 (degrees clockwise), not '45'"),
            (["a.mp4", "--rotate", "-90"], "--rotate takes 0, 90, 180 or 270 (degrees clockwise), not '-90'"),
            (["a.mp4", "--rotate"], "--rotate needs a value"),
            (["a.mp4", "--rotate", "90", "--rotate", "270"], "--rotate given twice with different values ('90' and '270')"),
        ]
        for (args, message) in cases {
            XCTAssertThrowsError(try PlayOptions.parse(args), "\(args)") { XCTAssertEqual(($0 as? UsageError)?.message, message) }
        }
    }

    func testLaunchChoosesVariantsForTheTurnedScreen() throws {
        let turned = try XCTUnwrap(LaunchOptions.parse(["--manifest", "m.json", "--size", "1920x1080", "--rotate", "90"]))
        XCTAssertEqual(turned.play.rotation, .quarter)
        XCTAssertEqual(turned.screen, Size(width: 1080, height: 1920))
        XCTAssertEqual(try XCTUnwrap(LaunchOptions.parse(["--manifest", "m.json", "--rotate", "270"])).screen, Size(width: 1080, height: 1920))
        XCTAssertEqual(try XCTUnwrap(LaunchOptions.parse(["--manifest", "m.json", "--device", "ipad", "--rotate", "180"])).screen,
                       Size(width: 1536, height: 2048))
    }

    func testTheBinaryExitsTwoWithOneLine() throws {
        let run = try Launchad.run(["play", Fixtures.media("sample-ad.mp4"), "--rotate", "45"])
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
        XCTAssertTrue(run.stdout.isEmpty)
    }
}
