import LaunchAdCore
import LaunchAdTestSupport
import XCTest

@testable import LaunchAdCLI
@testable import LaunchAdEngine

/// `--rotate` for `play` and `launch`: its values, its usage errors, and the screen `launch`
/// chooses variants for.
final class RotateOptionTests: XCTestCase {
    func testValues() throws {
        XCTAssertEqual(try PlayOptions.parse(["a.mp4"])?.rotation, ScreenRotation.none)
        for d in [0, 90, 180, 270] {
            XCTAssertEqual(try PlayOptions.parse(["a.mp4", "--rotate", "\(d)"])?.rotation.degrees, d)
        }
        XCTAssertEqual(
            try PlayOptions.parse(["a.mp4", "--rotate=90", "--rotate", "90"])?.rotation, .quarter, "the same value twice is fine")
    }

    func testUsageErrors() {
        let cases: [([String], String)] = [
            (["a.mp4", "--rotate", "45"], "--rotate takes 0, 90, 180 or 270 (degrees clockwise), not '45'"),
            (["a.mp4", "--rotate", "-90"], "--rotate takes 0, 90, 180 or 270 (degrees clockwise), not '-90'"),
            (["a.mp4", "--rotate"], "--rotate needs a value"),
            (["a.mp4", "--rotate", "90", "--rotate", "270"], "--rotate given twice with different values ('90' and '270')")
        ]
        for (args, message) in cases {
            XCTAssertThrowsError(try PlayOptions.parse(args), "\(args)") { XCTAssertEqual(($0 as? UsageError)?.message, message) }
        }
    }

    func testLaunchChoosesVariantsForTheTurnedScreen() throws {
        let turned = try XCTUnwrap(LaunchOptions.parse(["--manifest", "m.json", "--size", "1920x1080", "--rotate", "90"]))
        XCTAssertEqual(turned.play.rotation, .quarter)
        XCTAssertEqual(turned.screen, Size(width: 1080, height: 1920))
        XCTAssertEqual(
            try XCTUnwrap(LaunchOptions.parse(["--manifest", "m.json", "--rotate", "270"])).screen, Size(width: 1080, height: 1920))
        XCTAssertEqual(
            try XCTUnwrap(LaunchOptions.parse(["--manifest", "m.json", "--device", "ipad", "--rotate", "180"])).screen,
            Size(width: 1536, height: 2048))
    }

    func testPrefetchChoosesForTheTurnedScreenToo() throws {
        XCTAssertEqual(
            try XCTUnwrap(PrefetchOptions.parse(["--manifest", "m.json", "--size", "1920x1080", "--rotate", "90"])).screen,
            Size(width: 1080, height: 1920))
        XCTAssertThrowsError(try PrefetchOptions.parse(["--manifest", "m.json", "--rotate", "45"]))
    }

    func testPreviewSaysItDoesNotTurn() {
        XCTAssertThrowsError(try PreviewOptions.parse(["a.mp4", "--out", "g.png", "--rotate", "90"])) {
            XCTAssertEqual(($0 as? UsageError)?.message, "--rotate does not change a preview (see launchad preview --help)")
        }
    }

    func testTheBinaryExitsTwoWithOneLine() throws {
        let run = try Launchad.run(["play", Fixtures.media("sample-ad.mp4"), "--rotate", "45"])
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
        XCTAssertTrue(run.stdout.isEmpty)
    }
}

/// `launch --rotate`: the variant chosen is the one for the turned screen, and under weston the
/// whole flow (cache, ad, then the app) runs on the Wayland driver.
final class LaunchRotationTests: XCTestCase {
    /// A manifest with a landscape (320x180) and a portrait (180x320) variant of one image ad.
    func twoVariantManifest() throws -> URL {
        let dir = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("launchad-rotate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        var variants: [String] = []
        for (name, w, h) in [("landscape", 320, 180), ("portrait", 180, 320)] {
            let png = try Fixtures.make("\(name)-\(w)x\(h).png", ["-f", "lavfi", "-i", "color=c=red:s=\(w)x\(h)", "-frames:v", "1"])
            let data = try Data(contentsOf: URL(fileURLWithPath: png))
            try data.write(to: dir.appendingPathComponent("\(name).png"))
            variants.append(
                #"{"url": "\#(name).png", "width": \#(w), "height": \#(h), "bytes": \#(data.count), "sha256": "\#(SHA256.hex(of: data))"}"#)
        }
        let manifest =
            #"{"ads": [{"id": "turned", "type": "image", "duration": 1, "show": true, "variants": [\#(variants.joined(separator: ", "))]}]}"#
        try manifest.write(to: dir.appendingPathComponent("manifest.json"), atomically: true, encoding: .utf8)
        return dir
    }

    func shownSize(_ extra: [String], environment: [String: String]? = nil) throws -> (Int?, Int?, Launchad.Run) {
        let dir = try twoVariantManifest()
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try Launchad.run(
            [
                "launch", "--manifest", dir.appendingPathComponent("manifest.json").path, "--cache",
                dir.appendingPathComponent("cache").path,
                "--transition", "none"
            ] + extra + ["--then", "sh", "-c", "exit 5"], environment: environment)
        let start = run.events(named: "start").first
        return (start?["width"] as? Int, start?["height"] as? Int, run)
    }

    func testTheTurnedScreenGetsThePortraitVariant() throws {
        let plain = try shownSize(["--size", "640x360"])
        XCTAssertEqual(plain.2.status, 5, plain.2.stdout)
        XCTAssertEqual(plain.0, 320, "landscape output, landscape variant: \(plain.2.stdout)")
        let turned = try shownSize(["--size", "640x360", "--rotate", "90"])
        XCTAssertEqual(turned.2.status, 5, turned.2.stdout)
        XCTAssertEqual(turned.0, 180, "turned a quarter, the scene is portrait: \(turned.2.stdout)")
        XCTAssertEqual(turned.2.events(named: "window").first?["width"] as? Int, 640, "the window keeps the output's shape")
    }

    func testLaunchUnderWestonThenTheApp() throws {
        let weston: Compositor
        do { weston = try Compositor.westonWithSeat() } catch let e as Compositor.Missing { throw XCTSkip(e.description) }
        let r = try shownSize(["--fullscreen", "--rotate", "270"], environment: weston.environment)
        XCTAssertEqual(r.2.status, 5, "the app's status: \(r.2.stdout)")
        XCTAssertEqual(r.2.events(named: "window").first?["video_driver"] as? String, "wayland")
        XCTAssertEqual(r.2.events(named: "window").first?["rotate"] as? Int, 270)
        XCTAssertEqual(r.2.events.last?["outcome"] as? String, "completed")
    }
}
