import CLaunchAd
import CXlib
import Foundation
import LaunchAdC
import LaunchAdCore
import LaunchAdPlayer
import LaunchAdTestSupport
import XCTest

@testable import LaunchAdKit

/// `launchad_attach_x11` and `LaunchAd.attach(x11Window:)` given a window id the X server does
/// not have: an error code and its text, never an X error ending the process, and the handle
/// still usable; a window destroyed while its ad plays ends the ad with `window_lost`, the
/// process going on. (The window drawn in and read back: EmbeddingExamplesTests' x11-host.)
final class X11AttachTests: XCTestCase {
    /// An id in the X server's own range that names no window.
    private let bogus: UInt = 0x1ff_ffff

    /// Runs `body` with DISPLAY set to `display` (nil: unset), put back after.
    private func withDisplay(_ display: String?, _ body: () throws -> Void) rethrows {
        let saved = getenv("DISPLAY").map { String(cString: $0) }
        if let display { setenv("DISPLAY", display, 1) } else { unsetenv("DISPLAY") }
        defer { if let saved { setenv("DISPLAY", saved, 1) } else { unsetenv("DISPLAY") } }
        try body()
    }

    /// A 320x180 window shown on `display`, on a connection of the test's own.
    private func makeWindow(_ display: String) throws -> (OpaquePointer, CXlib.Window) {
        let x = try XCTUnwrap(XOpenDisplay(display))
        let window = XCreateSimpleWindow(x, XRootWindow(x, XDefaultScreen(x)), 0, 0, 320, 180, 0, 0, 0)
        XMapWindow(x, window)
        XSync(x, 0)
        return (x, window)
    }

    private func create() throws -> OpaquePointer {
        let args = ["play", Fixtures.media("sample-ad.mp4")]
        var cArgs = args.map { UnsafePointer(strdup($0)) }
        defer { for a in cArgs { free(UnsafeMutablePointer(mutating: a)) } }
        var error: Int32 = 0
        return try XCTUnwrap(cArgs.withUnsafeMutableBufferPointer { launchad_create(Int32(args.count), $0.baseAddress, &error) })
    }

    func testABogusWindowIdGivesNoWindowAndTheHandleStaysUsable() throws {
        let (xvfb, display) = try Xvfb.start(["-screen", "0", "320x240x24", "-nolisten", "tcp"])
        defer { xvfb.terminate() }
        try withDisplay(display) {
            let ad = try create()
            defer { launchad_destroy(ad) }
            let code = launchad_attach_x11(ad, bogus)
            XCTAssertEqual(code, LAUNCHAD_ERROR_NO_WINDOW.rawValue)
            XCTAssertEqual(
                String(cString: launchad_strerror(code)), "no such X11 window (an unknown or destroyed window id, or no X11 display)")
            XCTAssertEqual(launchad_attach_x11(ad, 0), LAUNCHAD_ERROR_INVALID_ARGUMENT.rawValue)
            // Nothing was attached: the host can still choose somewhere else to draw.
            XCTAssertEqual(launchad_present(ad), LAUNCHAD_ERROR_INVALID_STATE.rawValue)
            XCTAssertEqual(launchad_attach_buffer(ad, 64, 36), LAUNCHAD_OK.rawValue)
            XCTAssertEqual(launchad_attach_x11(ad, bogus), LAUNCHAD_ERROR_INVALID_STATE.rawValue)
        }
    }

    func testWithoutADisplayTheAttachSaysNoWindow() throws {
        try withDisplay(nil) {
            let ad = try create()
            defer { launchad_destroy(ad) }
            XCTAssertEqual(launchad_attach_x11(ad, bogus), LAUNCHAD_ERROR_NO_WINDOW.rawValue)
        }
    }

    func testTheSwiftAPIThrowsNoSuchWindow() throws {
        let (xvfb, display) = try Xvfb.start(["-screen", "0", "320x240x24", "-nolisten", "tcp"])
        defer { xvfb.terminate() }
        try withDisplay(display) {
            let ad = try LaunchAd(arguments: ["play", Fixtures.media("sample-ad.mp4")])
            defer { ad.close() }
            XCTAssertThrowsError(try ad.attach(x11Window: bogus)) { error in
                XCTAssertEqual(error as? X11AttachError, .noSuchWindow(bogus))
                XCTAssertEqual("\(error)", "no X11 window 0x1ffffff on this display (an unknown or destroyed id)")
            }
        }
    }

    func testAWindowDestroyedWhileItsAdPlaysEndsTheAdWithWindowLost() throws {
        let (xvfb, display) = try Xvfb.start(["-screen", "0", "640x360x24", "-nolisten", "tcp"])
        defer { xvfb.terminate() }
        let clip = try Fixtures.colourBars(seconds: 4)
        try withDisplay(display) {
            let (x, window) = try makeWindow(display)
            defer { XCloseDisplay(x) }
            let ad = try LaunchAd(arguments: ["play", clip, "--transition", "none"])
            defer { ad.close() }
            var events: [AdEvent] = []
            ad.onEvent = { events.append($0) }
            try? ad.prepareNow(timeout: 10)
            try ad.attach(x11Window: UInt(window))
            ad.present()
            var destroyed = false
            let deadline = Date(timeIntervalSinceNow: 20)
            while Date() < deadline, ad.render() != .ended {
                if !destroyed, events.contains(where: { $0.name == "first_frame" }) {
                    XDestroyWindow(x, window)
                    XSync(x, 0)
                    destroyed = true
                }
                Thread.sleep(forTimeInterval: 0.004)
            }
            XCTAssertTrue(destroyed, "the first frame came: \(events.map(\.name))")
            // Laid out to the window's size, drawn by SDL's X11 driver.
            let opened = events.first { $0.name == "window" }
            XCTAssertEqual(opened?["width"], 320)
            XCTAssertEqual(opened?["height"], 180)
            XCTAssertEqual(opened?["video_driver"], "x11")
            XCTAssertEqual(events.first { $0.name == "error" }?["code"], "window_lost")
            XCTAssertEqual(events.last?.name, "end")
            XCTAssertEqual(events.last?["outcome"], "error")
        }
    }

    func testSDLVideoRunningWithAnotherDriverIsARenderError() throws {
        let (xvfb, display) = try Xvfb.start(["-screen", "0", "320x240x24", "-nolisten", "tcp"])
        defer { xvfb.terminate() }
        let savedDriver = getenv("SDL_VIDEODRIVER").map { String(cString: $0) }
        setenv("SDL_VIDEODRIVER", "dummy", 1)
        defer { if let savedDriver { setenv("SDL_VIDEODRIVER", savedDriver, 1) } else { unsetenv("SDL_VIDEODRIVER") } }
        try withDisplay(display) {
            let (x, window) = try makeWindow(display)
            defer { XCloseDisplay(x) }
            // The process (as an SDL application would) runs SDL's video with the dummy driver.
            let video = try SDLVideo()
            defer { withExtendedLifetime(video) {} }
            let ad = try create()
            defer { launchad_destroy(ad) }
            XCTAssertEqual(launchad_attach_x11(ad, UInt(window)), LAUNCHAD_ERROR_RENDER.rawValue)
            let kit = try LaunchAd(arguments: ["play", Fixtures.media("sample-ad.mp4")])
            defer { kit.close() }
            XCTAssertThrowsError(try kit.attach(x11Window: UInt(window))) { XCTAssertEqual($0 as? X11AttachError, .notX11("dummy")) }
        }
    }
}
