import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

/// VAST icons as a viewer sees them: drawn at their place for their time, seen once, clickable
/// without ending the ad, refused when too large. Pixels read back from the renderer.
final class IconPixelTests: XCTestCase {
    func icon(width: Int = 40, height: Int = 30) throws -> OverlayIcon {
        let png = try Fixtures.make("icon-blue-40x30.png", ["-f", "lavfi", "-i", "color=c=blue:s=40x30", "-frames:v", "1"])
        var v = VASTIcon(
            program: "AdChoices", width: width, height: height, x: .start, y: .end, offset: .seconds(0.5), duration: .seconds(1))
        v.clickThrough = "https://info.example/"
        return OverlayIcon(v, index: 0, file: png, adDurationMs: nil)
    }

    func play(_ h: PlayerHarness, icons: [OverlayIcon]) throws -> Outcome {
        var o = PlayOptions(file: try Fixtures.colourBars(seconds: 3, audio: false))
        o.size = Size(width: 640, height: 360)
        o.fit = .fill
        o.transition = .none
        o.link = "https://shop.example/"
        var config = PlayerConfig(o)
        config.icons = icons
        return h.playConfig(config)
    }

    func testDrawnAtItsPlaceForItsTimeAndClickableWithoutEndingTheAd() throws {
        let h = PlayerHarness()
        h.probes = [(20, 345), (60, 345)]
        var clicked = false
        h.onFrame = { s, _ in
            if !clicked, (s.mediaTime ?? 0) > 0.9 { clicked = true; PlayerHarness.pushClick(x: 20, y: 345) }
        }
        XCTAssertEqual(try play(h, icons: [try icon()]), .completed, "a click on the icon is not the ad's click")
        let before = try XCTUnwrap(h.samples.last { ($0.mediaTime ?? 0) > 0.1 && ($0.mediaTime ?? 0) < 0.45 })
        XCTAssertEqual(colourName(before.probes[0]), "red", "not before its offset")
        let during = try XCTUnwrap(h.samples.last { ($0.mediaTime ?? 0) > 0.6 && ($0.mediaTime ?? 0) < 0.95 })
        XCTAssertEqual(during.probes.map(colourName), ["blue", "red"], "bottom-left, 40 wide")
        let after = try XCTUnwrap(h.samples.last { ($0.mediaTime ?? 0) > 1.6 && ($0.mediaTime ?? 0) < 1.95 })
        XCTAssertEqual(colourName(after.probes[0]), "lime", "gone after its duration")
        XCTAssertEqual(h.events("icon_view").count, 1)
        XCTAssertEqual(h.events("icon_click").first?.string("link"), "https://info.example/")
        XCTAssertTrue(h.events("click").isEmpty)
    }

    func testAnIconLargerThanAQuarterOfTheWindowIsRefused() throws {
        let h = PlayerHarness()
        XCTAssertEqual(try play(h, icons: [try icon(width: 400, height: 200)]), .completed)
        XCTAssertEqual(
            h.events("icon_refused").first?.string("message"), "the icon is 400x200, larger than a quarter of the 640x360 window")
        XCTAssertTrue(h.events("icon_view").isEmpty)
    }
}
