import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

/// `--rotate`: a portrait ad on a landscape output (640x360) turned clockwise fills it as on a
/// portrait screen; the skip button and its hit area turn with it. Pixels are read on the output.
final class RotationTests: XCTestCase {
    static let output = Size(width: 640, height: 360)

    /// A 3 s portrait video, 180x320: red top-left, lime top-right, blue bottom-left, white bottom-right.
    func quadrantVideo() throws -> String {
        var args: [String] = []
        for c in ["red", "lime", "blue", "white"] { args += ["-f", "lavfi", "-i", "color=c=\(c):s=90x160:r=25:d=3"] }
        args += [
            "-filter_complex", "[0][1][2][3]xstack=inputs=4:layout=0_0|w0_0|0_h0|w0_h0", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-t", "3"
        ]
        return try Fixtures.make("quadrants-180x320-3s.mp4", args)
    }

    /// Where a scene point lands on the 640x360 output turned `degrees` clockwise (the scene is 360x640 for 90/270).
    func onOutput(_ x: Int, _ y: Int, _ degrees: Int) -> (Int, Int) {
        let w = Self.output.width, h = Self.output.height
        switch degrees {
        case 90: return (w - 1 - y, x)
        case 180: return (w - 1 - x, h - 1 - y)
        case 270: return (y, h - 1 - x)
        default: return (x, y)
        }
    }

    func options(_ file: String, _ degrees: Int) -> PlayOptions {
        var o = PlayOptions(file: file)
        o.size = Self.output
        o.rotation = ScreenRotation(rawValue: degrees)!
        o.fit = .fill
        o.transition = .none
        return o
    }

    /// The output's quadrants (top-left, top-right, bottom-left, bottom-right) and the darkening
    /// of the skip button at its turned corner.
    func assertScene(_ degrees: Int, quadrants expected: [String], buttonCorner: String) throws {
        let h = PlayerHarness()
        let w = Self.output.width, hh = Self.output.height
        let scene = ScreenRotation(rawValue: degrees)!.scene(Self.output)
        let b = AdLayout(window: scene, mode: .fullscreen, skipStyle: .text).skipButton
        h.probes = [
            (w / 4, hh / 4), (3 * w / 4, hh / 4), (w / 4, 3 * hh / 4), (3 * w / 4, 3 * hh / 4),
            onOutput(b.x + 3, b.midY, degrees), onOutput(b.x - 6, b.midY, degrees)
        ]
        XCTAssertEqual(h.play(options(try quadrantVideo(), degrees)), .completed)
        XCTAssertEqual(h.first("window")?.int("width"), w, "the window keeps the output's shape")
        XCTAssertEqual(h.first("window")?.int("rotate"), degrees)
        let s = try XCTUnwrap(h.samples.last { ($0.mediaTime ?? 0) > 1 && ($0.mediaTime ?? 0) < 2.5 })
        XCTAssertEqual(s.layout.window, scene, "laid out in the turned scene")
        XCTAssertEqual(s.probes.prefix(4).map(colourName), expected, "quadrants at \(degrees)°")
        let inside = s.probes[4], outside = s.probes[5]
        XCTAssertEqual(colourName(outside), buttonCorner, "the ad beside the button")
        XCTAssertLessThan(Int(inside.prefix(3).max()!), Int(outside.prefix(3).max()!) - 60, "the button darkens the ad at \(degrees)°")
    }

    func testUnturnedBaseline() throws {
        // 0°: the portrait ad filled into the landscape output is cropped to its middle band, so
        // the two halves are its left (red above blue) and right (lime above white) columns.
        try assertScene(0, quadrants: ["red", "lime", "blue", "white"], buttonCorner: "lime")
    }

    func testQuarterTurnPutsTheTopLeftAtTheTopRight() throws {
        try assertScene(90, quadrants: ["blue", "red", "white", "lime"], buttonCorner: "lime")
    }

    func testHalfTurn() throws {
        try assertScene(180, quadrants: ["white", "blue", "lime", "red"], buttonCorner: "lime")
    }

    func testThreeQuarterTurn() throws {
        try assertScene(270, quadrants: ["lime", "white", "red", "blue"], buttonCorner: "lime")
    }

    /// A click where the button is drawn (turned) skips; one where it would be unturned does not.
    func testClickAtTheTurnedButtonSkipsAtTheUnturnedPlaceDoesNot() throws {
        for degrees in [90, 180, 270] {
            let h = PlayerHarness()
            let scene = ScreenRotation(rawValue: degrees)!.scene(Self.output)
            let b = AdLayout(window: scene, mode: .fullscreen, skipStyle: .text).skipButton
            let turned = onOutput(b.midX, b.midY, degrees)
            let unturned = (Self.output.width - b.width / 2 - 16, b.midY)  // the top-right corner of the output
            var step = 0
            h.onFrame = { s, _ in
                let t = s.mediaTime ?? 0
                if step == 0, t > 0.5 { step = 1; PlayerHarness.pushClick(x: unturned.0, y: unturned.1) }
                if step == 1, t > 1.2 { step = 2; PlayerHarness.pushClick(x: turned.0, y: turned.1) }
            }
            XCTAssertEqual(h.play(options(try quadrantVideo(), degrees)), .skipped, "\(degrees)°")
            XCTAssertEqual(h.first("skip")?.string("via"), "pointer")
            XCTAssertGreaterThan(try XCTUnwrap(h.first("end")?.int("shown_ms")), 1000, "\(degrees)°: the unturned click did nothing")
        }
    }

    /// The logo band goes to the scene's bottom, which a quarter turn puts at the output's left.
    func testLogoBandTurnsWithTheScene() throws {
        let h = PlayerHarness()
        // Scene 360x640: the band is 120 high from y=520, the logo at (180,580), the ad above.
        h.probes = [onOutput(180, 580, 90), onOutput(10, 630, 90), onOutput(180, 260, 90)]
        var options = try SceneFixtures.logoBottom(try Fixtures.colourBars(seconds: 1, audio: false))
        options.size = Self.output
        options.rotation = .quarter
        XCTAssertEqual(h.play(options), .completed)
        let s = try XCTUnwrap(h.samples.last { ($0.mediaTime ?? 0) > 0.5 })
        XCTAssertEqual(s.probes.map(colourName), ["lime", "white", "red"])
    }

    func testFingerAtTheTurnedButtonSkips() throws {
        let h = PlayerHarness()
        let b = AdLayout(window: Size(width: 360, height: 640), mode: .fullscreen, skipStyle: .text).skipButton
        let p = onOutput(b.midX, b.midY, 90)
        var sent = false
        h.onFrame = { s, _ in
            if !sent, (s.mediaTime ?? 0) > 0.5 {
                sent = true
                PlayerHarness.pushFingerUp(x: Double(p.0) / Double(Self.output.width), y: Double(p.1) / Double(Self.output.height))
            }
        }
        XCTAssertEqual(h.play(options(try quadrantVideo(), 90)), .skipped)
    }
}
