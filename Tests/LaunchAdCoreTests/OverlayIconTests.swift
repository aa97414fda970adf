import Foundation
import XCTest

@testable import LaunchAdCore

/// VAST icons: when and where they show, the size refused, and their beacons.
final class OverlayIconTests: XCTestCase {
    func icon(
        x: IconPosition = .start, y: IconPosition = .end, width: Int = 40, height: Int = 30,
        offset: VASTOffset? = .seconds(1), duration: VASTOffset? = .percent(50)
    ) -> VASTIcon {
        var i = VASTIcon(program: "AdChoices", width: width, height: height, x: x, y: y, offset: offset, duration: duration)
        i.resource = .image(url: "https://cdn.example/i.png", type: "image/png")
        i.clickThrough = "https://info.example/"
        i.clickTracking = ["https://t.example/ic?cb=[CACHEBUSTING]", "file:///etc/passwd"]
        i.viewTracking = ["https://t.example/iv"]
        return i
    }

    let layout = AdLayout(window: Size(width: 640, height: 360), mode: .fullscreen, skipStyle: .text)

    func testShowsFromItsOffsetForItsDuration() {
        let o = OverlayIcon(icon(), index: 0, file: "/tmp/x", adDurationMs: 8000)
        XCTAssertEqual([o.startMs, o.endMs], [1000, 5000], "50% of 8 s after the 1 s offset")
        XCTAssertFalse(o.isShowing(atMs: 999))
        XCTAssertTrue(o.isShowing(atMs: 1000))
        XCTAssertFalse(o.isShowing(atMs: 5000))
        XCTAssertTrue(OverlayIcon(icon(offset: nil, duration: nil), index: 0, file: "", adDurationMs: nil).isShowing(atMs: 99_999))
    }

    func testPlacedBySideOrPixelsInsideTheArea() {
        let place = { (x: IconPosition, y: IconPosition) in
            try? OverlayIcon(self.icon(x: x, y: y), index: 0, file: "", adDurationMs: nil)
                .place(image: Size(width: 10, height: 10), layout: self.layout).get()
        }
        XCTAssertEqual(place(.start, .end), Rect(x: 0, y: 330, width: 40, height: 30))
        XCTAssertEqual(place(.end, .start), Rect(x: 600, y: 0, width: 40, height: 30))
        XCTAssertEqual(place(.pixels(20), .pixels(1000)), Rect(x: 20, y: 330, width: 40, height: 30), "kept inside")
        let natural = OverlayIcon(icon(width: 0, height: 0), index: 0, file: "", adDurationMs: nil).place(
            image: Size(width: 12, height: 8), layout: layout)
        XCTAssertEqual(try natural.get().size, Size(width: 12, height: 8))
    }

    /// On a letterboxed picture the icon goes to the picture's corner, not the window's; one
    /// larger than the picture is refused rather than drawn over the black bars.
    func testOnALetterboxedPictureTheIconSitsOnThePicture() throws {
        let letterboxed = AdLayout(
            window: Size(width: 640, height: 360), mode: .fullscreen, skipStyle: .text, picture: Size(width: 180, height: 320), fit: .fit)
        XCTAssertEqual(letterboxed.picture, Rect(x: 218, y: 0, width: 203, height: 360))
        let placed = try OverlayIcon(icon(x: .start, y: .end), index: 0, file: "", adDurationMs: nil).place(
            image: Size(width: 1, height: 1), layout: letterboxed
        ).get()
        XCTAssertEqual(placed, Rect(x: 218, y: 330, width: 40, height: 30))
        let wide = OverlayIcon(icon(width: 300, height: 100), index: 0, file: "", adDurationMs: nil).place(
            image: Size(width: 1, height: 1), layout: letterboxed)
        XCTAssertEqual(wide, .failure(IconRefusal("the icon is 300x100, larger than the 203x360 picture it would sit on")))
    }

    func testLargerThanAQuarterOfTheWindowIsRefused() {
        let big = OverlayIcon(icon(width: 400, height: 200), index: 0, file: "", adDurationMs: nil).place(
            image: Size(width: 1, height: 1), layout: layout)
        XCTAssertEqual(big, .failure(IconRefusal("the icon is 400x200, larger than a quarter of the 640x360 window")))
    }

    func testViewOnceAndClickTrackingHTTPSOnly() throws {
        var ad = ResolvedAd(id: "a", linear: VASTLinear(), impressions: [], errors: [], wrapperDepth: 0, reach: .any)
        ad.linear.icons = [icon()]
        var tracker = VASTTracker(ad: ad, context: MacroContext(timestamp: Date(), cacheBusting: "", deviceUA: "t"))
        let at = Date()
        XCTAssertTrue(
            tracker.batches(for: AdEvent(.icon(IconEvent(.view, index: 0, program: nil, shownMs: 0)), tMs: 0), at: at) { "1" }.isEmpty,
            "not before the ad shows")
        _ = tracker.batches(for: AdEvent(.firstFrame(fallback: false), tMs: 0), at: at) { "1" }
        let view = tracker.batches(for: AdEvent(.icon(IconEvent(.view, index: 0, program: nil, shownMs: 0)), tMs: 0), at: at) { "1" }
        XCTAssertEqual(view, [VASTTracker.Batch(event: "iconView 0", urls: ["https://t.example/iv"])])
        XCTAssertTrue(
            tracker.batches(for: AdEvent(.icon(IconEvent(.view, index: 0, program: nil, shownMs: 0)), tMs: 0), at: at) { "1" }.isEmpty,
            "once")
        let click = tracker.batches(for: AdEvent(.icon(IconEvent(.click(link: nil), index: 0, program: nil, shownMs: 0)), tMs: 0), at: at) {
            "12345678"
        }
        XCTAssertEqual(click, [VASTTracker.Batch(event: "iconClick 0", urls: ["https://t.example/ic?cb=12345678"])])
        XCTAssertTrue(
            tracker.batches(for: AdEvent(.icon(IconEvent(.view, index: 5, program: nil, shownMs: 0)), tMs: 0), at: at) { "1" }.isEmpty)
    }
}
