import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

/// The player under a real Wayland compositor (weston, pixman renderer, no GPU), chosen by
/// WAYLAND_DISPLAY alone, with the pixels read back as the headless tests do.
final class WaylandPlayerTests: XCTestCase {
    private var compositor: Compositor?
    private var restoreEnvironment: (() -> Void)?

    override func setUpWithError() throws {
        restoreEnvironment = PlayerHarness.saveDisplayEnvironment()
        do { compositor = try Compositor.westonWithSeat(width: 360, height: 640) } catch let e as Compositor.Missing {
            throw XCTSkip(e.description)
        }
    }

    override func tearDown() {
        compositor = nil
        restoreEnvironment?()
    }

    private func harness() -> PlayerHarness { PlayerHarness(compositor: compositor) }

    func testVideoPlaysOnTheWaylandDriverWithTheRightPictures() throws {
        let clip = try Fixtures.colourBars(seconds: 3, audio: false)
        let h = harness()
        var options = PlayOptions(file: clip)
        // A loaded machine's compositor may show the window later than the default 3 s wait, which is not tested here.
        options.wait = 15
        options.transition = .none
        XCTAssertEqual(h.play(options), .completed)
        let window = try XCTUnwrap(h.first("window"))
        XCTAssertEqual(window.string("video_driver"), "wayland")
        XCTAssertEqual(window.string("renderer"), "opengl")
        let expected = ["red", "lime", "blue"]
        var checked = 0
        for s in h.samples {
            guard let t = s.mediaTime, t.truncatingRemainder(dividingBy: 1) > 0.2, t.truncatingRemainder(dividingBy: 1) < 0.8,
                s.nowMs - (h.first("first_frame")?.tMs ?? 0) > 400
            else { continue }
            XCTAssertEqual(colourName(s.pixel), expected[Int(t)], "at media time \(t)")
            checked += 1
        }
        XCTAssertGreaterThan(checked, 10, "pictures presented and read back")
        XCTAssertEqual(h.events("end").count, 1)
    }

    func testKioskShellWindowFillsTheOutput() throws {
        let clip = try Fixtures.colourBars(seconds: 1, audio: false)
        let h = harness()
        var options = PlayOptions(file: clip)
        options.wait = 15
        options.fullscreen = true
        options.transition = .none
        XCTAssertEqual(h.play(options), .completed)
        XCTAssertEqual(h.samples.last?.layout.window, Size(width: 360, height: 640), "the drawing fills weston's 360x640 output")
    }

    func testSkipButtonIsDrawnAndAClickOnItSkips() throws {
        let clip = try Fixtures.colourBars(seconds: 4, audio: false)
        let h = harness()
        let b = AdLayout(window: Size(width: 360, height: 640), mode: .fullscreen, skipStyle: .text).skipButton
        h.probes = [(b.x + 3, b.midY), (b.x - 6, b.midY)]
        var clicked = false
        var probed: [[UInt8]] = []
        h.onFrame = { s, _ in
            if !clicked, (s.mediaTime ?? 0) > 0.6 {
                clicked = true
                probed = s.probes
                PlayerHarness.pushClick(x: s.layout.skipButton.midX, y: s.layout.skipButton.midY)
            }
        }
        var options = PlayOptions(file: clip)
        options.wait = 15
        options.size = Size(width: 360, height: 640)
        options.fit = .fill
        options.transition = .none
        XCTAssertEqual(h.play(options), .skipped)
        XCTAssertEqual(h.first("skip")?.string("via"), "pointer")
        XCTAssertEqual(colourName(probed[1]), "red")
        XCTAssertLessThan(Int(probed[0][0]), Int(probed[1][0]) - 60, "the button darkens the ad beneath it")
    }

    func testFallbackImageAndLogoBandAreShown() throws {
        let h = harness()
        // The fallback fills the 360x520 top: red left, blue right; the logo band below.
        h.probes = [(180, 580), (60, 260), (300, 260), (10, 630)]
        var options = try SceneFixtures.logoBottom("/nonexistent/ad.mp4")
        options.fallback = try SceneFixtures.redBluePNG()
        options.imageDuration = 0.8
        XCTAssertEqual(h.play(options), .completed)
        XCTAssertEqual(h.first("fallback")?.string("reason"), "file_not_found")
        let s = try XCTUnwrap(h.samples.last)
        XCTAssertEqual(s.probes.map(colourName), ["lime", "red", "blue", "white"])
    }
}

/// cage, the one-application kiosk compositor: the ad's window fills its output.
final class CagePlayerTests: XCTestCase {
    func testTheWindowFillsCagesOutput() throws {
        let cage: Compositor
        do { cage = try Compositor.cage() } catch let e as Compositor.Missing { throw XCTSkip(e.description) }
        let restore = PlayerHarness.saveDisplayEnvironment()
        defer { restore() }
        let clip = try Fixtures.colourBars(seconds: 2, audio: false)
        let h = PlayerHarness(compositor: cage)
        h.probes = [(640, 360), (20, 360)]
        var options = PlayOptions(file: clip)
        options.wait = 15
        options.fullscreen = true
        options.transition = .none
        XCTAssertEqual(h.play(options), .completed)
        XCTAssertEqual(h.first("window")?.string("video_driver"), "wayland")
        let s = try XCTUnwrap(h.samples.last)
        XCTAssertEqual(s.layout.window, Size(width: 1280, height: 720), "drawn at the output's size")
        // The 4:3 bars are pillarboxed in the 16:9 output: the bar colour in the middle, black at the side.
        XCTAssertEqual(s.probes.map(colourName), ["lime", "black"])
    }
}
