import Foundation
import LaunchAdCore
import LaunchAdMedia
import LaunchAdTestSupport
import XCTest

/// `launchad preview` as a user runs it, headless: the PNG's size and each panel's skip button.
final class PreviewCLITests: XCTestCase {
    static func greenAd() throws -> String {
        try Fixtures.make(
            "preview-green.mp4",
            [
                "-f", "lavfi", "-i", "color=c=0x00ff00:s=360x640:r=25:d=6",
                "-c:v", "libx264", "-pix_fmt", "yuv420p"
            ])
    }

    /// No display at all: no DISPLAY, no SDL driver chosen.
    private func run(_ args: [String]) throws -> Launchad.Run {
        var env = ProcessInfo.processInfo.environment
        for k in ["DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"] { env.removeValue(forKey: k) }
        return try Launchad.run(args, environment: env)
    }

    func testEveryDeviceHasItsPanelAndItsSkipButtonWhereThePlayerPutsIt() throws {
        let out = Fixtures.directory.appendingPathComponent("gallery-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let r = try run(["preview", try Self.greenAd(), "--devices", "all", "--out", out, "--at", "2.2", "--fit", "fill"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let image = try ImageLoader.load(path: out)
        // Panels 640 px high side by side with 16 px margins and gaps, a 32 px label band below.
        let widths = PreviewDevice.all.map { Int((Double($0.screen.width) * 640 / Double($0.screen.height)).rounded()) }
        XCTAssertEqual(widths, [361, 360, 360, 296, 480, 360, 360, 1138])
        XCTAssertEqual([image.width, image.height], [16 + widths.reduce(0, +) + 16 * (widths.count - 1) + 16, 16 + 640 + 32 + 16])

        let gallery = GalleryLayout(devices: PreviewDevice.all, panelHeight: 640)
        func pixel(_ x: Int, _ y: Int) -> (Int, Int, Int) {
            let i = (y * image.width + x) * 4
            return (Int(image.pixels[i]), Int(image.pixels[i + 1]), Int(image.pixels[i + 2]))
        }
        func count(_ r: Rect, _ test: ((Int, Int, Int)) -> Bool) -> Int {
            var n = 0
            for y in r.y..<r.maxY { for x in r.x..<r.maxX where test(pixel(x, y)) { n += 1 } }
            return n
        }
        let white = { (p: (Int, Int, Int)) in p.0 > 200 && p.1 > 200 && p.2 > 200 }
        let green = { (p: (Int, Int, Int)) in p.0 < 40 && p.1 > 215 && p.2 < 40 }
        for (i, device) in PreviewDevice.all.enumerated() {
            let skip = AdLayout(window: device.screen, mode: .fullscreen, skipStyle: .text).skipButton
            let button = gallery.place(skip, panel: i, screen: device.screen)
            // The button: a dark pill over the green with white text ("Skip 4").
            XCTAssertGreaterThan(count(button, white), button.width * button.height / 40, "\(device.name): text in \(button)")
            XCTAssertGreaterThan(count(button, { !green($0) }), button.width * button.height / 2, "\(device.name): pill in \(button)")
            // Beside it, the same size to its left and below it: only the ad.
            for other in [
                Rect(x: button.x - button.width - 4, y: button.y, width: button.width, height: button.height),
                Rect(x: button.x, y: button.maxY + 4, width: button.width, height: button.height)
            ] {
                XCTAssertEqual(count(other, { !green($0) }), 0, "\(device.name): nothing but the ad at \(other)")
            }
            // The label band holds the device's name in white.
            XCTAssertGreaterThan(count(gallery.labels[i], white), 20, device.name)
        }
    }

    func testMistakesAreOneLineWithTheirExitCode() throws {
        let ad = try Self.greenAd()
        for (args, text) in [
            (["preview", ad], "preview needs --out FILE.png"), (["preview", "--out", "g.png"], "preview needs a FILE"),
            (["preview", ad, "--out", "g.png", "--devices", "iphone-11"], "--devices takes all or a comma-separated list"),
            (["preview", ad, "--out", "g.png", "--size", "640x480"], "--size does not change a preview"),
            (["preview", ad, "--out", "g.png", "--zoom"], "unknown option --zoom (see launchad preview --help)"),
            (["preview", ad, "--out", "g.png", "--layout", "logo-bottom"], "--layout logo-bottom needs --logo IMAGE")
        ] {
            let r = try run(args)
            XCTAssertEqual(r.status, 2, "\(args)")
            XCTAssertTrue(r.stderr.hasPrefix("launchad: \(text)"), r.stderr)
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        }
        let past = try run(["preview", ad, "--out", Fixtures.directory.appendingPathComponent("past.png").path, "--at", "9"])
        XCTAssertEqual(past.status, 1)
        XCTAssertTrue(past.stderr.hasPrefix("launchad: --at 9 is past the end"), past.stderr)
        let missing = try run(["preview", "/nonexistent/ad.mp4", "--out", Fixtures.directory.appendingPathComponent("missing.png").path])
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.stderr.split(separator: "\n").count, 1, missing.stderr)
        let help = try run(["preview", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.hasPrefix("usage: launchad preview FILE --out gallery.png"))
    }
}
