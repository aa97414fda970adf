import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

/// Image ads, the fallback, layouts and fit modes, checked by the pixels they put on screen.
final class ImageLayoutTests: XCTestCase {
    func redBluePNG() throws -> String { try SceneFixtures.redBluePNG() }

    func testImageAdShowsForItsDuration() throws {
        let png = try redBluePNG()
        let h = PlayerHarness()
        h.probes = [(50, 200), (150, 200)]
        var options = PlayOptions(file: png)
        options.size = Size(width: 200, height: 400)
        options.imageDuration = 1
        options.transition = .none
        XCTAssertEqual(h.play(options), .completed)
        XCTAssertEqual(h.first("start")?.string("kind"), "image")
        let s = try XCTUnwrap(h.samples.last)
        XCTAssertEqual(colourName(s.probes[0]), "red")
        XCTAssertEqual(colourName(s.probes[1]), "blue")
        XCTAssertEqual(Double(try XCTUnwrap(h.first("end")?.int("shown_ms"))), 1000, accuracy: 150)
    }

    func testFallbackShownWhenTheVideoCannotBeOpened() throws {
        let png = try redBluePNG()
        let h = PlayerHarness()
        h.probes = [(50, 200)]
        var options = PlayOptions(file: "/nonexistent/ad.mp4")
        options.fallback = png
        options.imageDuration = 0.5
        options.size = Size(width: 200, height: 400)
        options.transition = .none
        XCTAssertEqual(h.play(options), .completed)
        XCTAssertEqual(h.first("fallback")?.string("reason"), "file_not_found")
        XCTAssertEqual(h.first("first_frame")?["fallback"], .bool(true))
        XCTAssertEqual(colourName(try XCTUnwrap(h.samples.last).probes[0]), "red")
    }

    func testNoAdWithoutAUsableCreativeOrFallback() throws {
        let h = PlayerHarness()
        var options = PlayOptions(file: "/nonexistent/ad.mp4")
        options.fallback = "/nonexistent/fallback.png"
        XCTAssertEqual(h.play(options), .noAd)
        XCTAssertLessThan(h.wallSeconds, 2)
        XCTAssertEqual(h.events("end").count, 1)
        XCTAssertEqual(h.events("error").first?.string("code"), "file_not_found")
    }

    func testLogoBottomLayoutPutsTheLogoInTheBandBelow() throws {
        let clip = try Fixtures.colourBars(seconds: 1, audio: false)
        let h = PlayerHarness()
        // 360x640: band height = 360/3 = 120, from y=520. Band centre (180,580) is the logo; the ad is above.
        h.probes = [(180, 580), (180, 260), (10, 630)]
        XCTAssertEqual(h.play(try SceneFixtures.logoBottom(clip)), .completed)
        let s = try XCTUnwrap(h.samples.last { ($0.mediaTime ?? 0) > 0.5 })
        XCTAssertEqual(s.layout.adArea.height, 520)
        XCTAssertEqual(colourName(s.probes[0]), "lime", "logo centred in the band")
        XCTAssertEqual(colourName(s.probes[1]), "red", "ad fills the top part")
        XCTAssertEqual(colourName(s.probes[2]), "white", "band background")
    }

    func testDisplayMatrixRotationIsApplied() throws {
        // Landscape 320x160, red on the left, blue on the right, with a display matrix of 90 degrees
        // counter-clockwise: the ffmpeg CLI shows it portrait 160x320, blue on top, red below.
        let turned = try Fixtures.redBlueTurned()
        let h = PlayerHarness()
        h.probes = [(80, 60), (80, 260)]
        var options = PlayOptions(file: turned)
        options.size = Size(width: 160, height: 320)
        options.transition = .none
        XCTAssertEqual(h.play(options), .completed)
        XCTAssertEqual(h.first("start")?.int("width"), 160)
        XCTAssertEqual(h.first("start")?.int("height"), 320)
        let s = try XCTUnwrap(h.samples.last { ($0.mediaTime ?? 0) > 0.4 })
        XCTAssertEqual(colourName(s.probes[0]), "blue")
        XCTAssertEqual(colourName(s.probes[1]), "red")
    }

    func testFitLetterboxesAndFillCrops() throws {
        let clip = try Fixtures.colourBars(seconds: 1, audio: false)  // 320x240 landscape
        for (fit, edge) in [(FitMode.fit, "black"), (.fill, "red")] {
            let h = PlayerHarness()
            h.probes = [(180, 20)]  // near the top of a portrait window
            var options = PlayOptions(file: clip)
            options.size = Size(width: 360, height: 640)
            options.fit = fit
            options.transition = .none
            XCTAssertEqual(h.play(options), .completed)
            let s = try XCTUnwrap(h.samples.last { ($0.mediaTime ?? 0) > 0.5 })
            XCTAssertEqual(colourName(s.probes[0]), edge, "\(fit)")
        }
    }
}
