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

    /// Runs `body` with these environment variables set (nil: unset), put back after.
    private func withEnvironment(_ values: [String: String?], _ body: () throws -> Void) rethrows {
        let saved = values.keys.map { ($0, getenv($0).map { String(cString: $0) }) }
        func apply(_ name: String, _ value: String?) { if let value { setenv(name, value, 1) } else { unsetenv(name) } }
        for (name, value) in values { apply(name, value) }
        defer { for (name, value) in saved { apply(name, value) } }
        try body()
    }

    private func withDisplay(_ display: String?, _ body: () throws -> Void) rethrows {
        try withEnvironment(["DISPLAY": display], body)
    }

    /// A 320x180 window shown on `display`, on a connection of the test's own.
    private func makeWindow(_ display: String) throws -> (OpaquePointer, CXlib.Window) {
        let x = try XCTUnwrap(XOpenDisplay(display))
        let window = XCreateSimpleWindow(x, XRootWindow(x, XDefaultScreen(x)), 0, 0, 320, 180, 0, 0, 0)
        XMapWindow(x, window)
        XSync(x, 0)
        return (x, window)
    }

    private func create(_ file: String = Fixtures.media("sample-ad.mp4")) throws -> OpaquePointer {
        let args = ["play", file, "--transition", "none"]
        var cArgs = args.map { UnsafePointer(strdup($0)) }
        defer { for a in cArgs { free(UnsafeMutablePointer(mutating: a)) } }
        var error: Int32 = 0
        return try XCTUnwrap(cArgs.withUnsafeMutableBufferPointer { launchad_create(Int32(args.count), $0.baseAddress, &error) })
    }

    func testABogusWindowIdGivesNoWindowAndTheHandleStaysUsable() throws {
        let (xvfb, display) = try Xvfb.start(["-screen", "0", "320x240x24", "-nolisten", "tcp"])
        defer { xvfb.terminateIfRunning() }
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
        defer { xvfb.terminateIfRunning() }
        try withDisplay(display) {
            let ad = try LaunchAd(arguments: ["play", Fixtures.media("sample-ad.mp4")])
            defer { ad.close() }
            XCTAssertThrowsError(try ad.attach(x11Window: bogus)) { error in
                // What the display said at that moment, when it is not the expected refusal.
                let probe =
                    (try? Fixtures.run("/usr/bin/xdpyinfo", ["-display", display])).map { "\($0.status) \($0.stderr.prefix(300))" } ?? "-"
                XCTAssertEqual(
                    error as? X11AttachError, .noSuchWindow(bogus),
                    "\(display), DISPLAY=\(String(cString: getenv("DISPLAY"))), xdpyinfo: \(probe)")
                XCTAssertEqual("\(error)", "no X11 window 0x1ffffff on this display (an unknown or destroyed id)")
            }
        }
    }

    func testAWindowDestroyedWhileItsAdPlaysEndsTheAdWithWindowLost() throws {
        let (xvfb, display) = try Xvfb.start(["-screen", "0", "640x360x24", "-nolisten", "tcp"])
        defer { xvfb.terminateIfRunning() }
        let clip = try Fixtures.colourBars(seconds: 4)
        // x11 said outright, or SDL_VIDEODRIVER unset: other tests of this process set dummy.
        try withEnvironment(["DISPLAY": display, "SDL_VIDEODRIVER": "x11"]) {
            let (x, window) = try makeWindow(display)
            defer { XCloseDisplay(x) }
            let ad = try LaunchAd(arguments: ["play", clip, "--transition", "none"])
            defer { ad.close() }
            var events: [AdEvent] = []
            ad.onEvent = { events.append($0) }
            try? ad.prepareNow(timeout: 10)
            try ad.attach(x11Window: UInt(window))
            try ad.present()
            var destroyed = false
            let deadline = Date(timeIntervalSinceNow: 20)
            while Date() < deadline, try ad.render() != .ended {
                if !destroyed, events.contains(where: { $0.name == "first_frame" }) {
                    XDestroyWindow(x, window)
                    XSync(x, 0)
                    destroyed = true
                }
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

    /// The names of a window's properties, as the X server has them.
    private func properties(_ x: OpaquePointer, _ window: CXlib.Window) -> Set<String> {
        var count: Int32 = 0
        guard let atoms = XListProperties(x, window, &count) else { return [] }
        defer { XFree(atoms) }
        return Set(
            (0..<Int(count)).compactMap { i in
                XGetAtomName(x, atoms[i]).map { name in
                    defer { XFree(name) }
                    return String(cString: name)
                }
            })
    }

    /// Issue 42, items 9 and 10: SDL_VIDEODRIVER set but empty is unset (the attach works, as the
    /// command line plays), and the application's window keeps exactly its own properties after
    /// the ad: SDL's drag-and-drop mark (XdndAware) is not left on it.
    func testTheHostsWindowIsLeftAsItWasAndAnEmptyDriverIsUnset() throws {
        let (xvfb, display) = try Xvfb.start(["-screen", "0", "640x360x24", "-nolisten", "tcp"])
        defer { xvfb.terminateIfRunning() }
        let clip = try Fixtures.colourBars(seconds: 1)
        try withEnvironment(["DISPLAY": display, "SDL_VIDEODRIVER": ""]) {
            let (x, window) = try makeWindow(display)
            defer { XCloseDisplay(x) }
            let before = properties(x, window)
            let ad = try create(clip)
            XCTAssertEqual(launchad_attach_x11(ad, UInt(window)), LAUNCHAD_OK.rawValue, "an empty SDL_VIDEODRIVER is unset")
            XCTAssertEqual(launchad_present(ad), LAUNCHAD_OK.rawValue)
            XCTAssertTrue(Wait.until(timeout: 20) { launchad_render(ad) == LAUNCHAD_RENDER_ENDED.rawValue })
            launchad_destroy(ad)
            XCTAssertEqual(properties(x, window), before, "the window's properties after the ad")
            XCTAssertFalse(properties(x, window).contains("XdndAware"))
        }
    }

    /// Review of issue 38: an InputOnly window was attached, and the first frame's X error (about
    /// SDL's graphics context, not the window) ended the host through Xlib's default handler.
    /// Nothing can be drawn in it: LAUNCHAD_ERROR_RENDER, nothing attached.
    func testAnInputOnlyWindowIsARenderError() throws {
        let (xvfb, display) = try Xvfb.start(["-screen", "0", "320x240x24", "-nolisten", "tcp"])
        defer { xvfb.terminateIfRunning() }
        try withEnvironment(["DISPLAY": display, "SDL_VIDEODRIVER": "x11"]) {
            let x = try XCTUnwrap(XOpenDisplay(display))
            defer { XCloseDisplay(x) }
            var attributes = XSetWindowAttributes()
            let window = XCreateWindow(
                x, XRootWindow(x, XDefaultScreen(x)), 0, 0, 160, 90, 0, 0, UInt32(InputOnly), nil, 0, &attributes)
            XMapWindow(x, window)
            XSync(x, 0)
            let ad = try create()
            defer { launchad_destroy(ad) }
            XCTAssertEqual(launchad_attach_x11(ad, UInt(window)), LAUNCHAD_ERROR_RENDER.rawValue)
            XCTAssertEqual(launchad_attach_buffer(ad, 64, 36), LAUNCHAD_OK.rawValue, "nothing was attached")
        }
    }

    /// Review of issue 38: a display server that takes the connection and never answers held
    /// launchad_attach_x11 (and the host's thread) for good. It answers within 2 s, or the
    /// attach is LAUNCHAD_ERROR_NO_WINDOW.
    func testAServerThatNeverAnswersCannotHoldTheAttach() throws {
        let listener = try listeningSocket(backlog: 4, host: "127.0.0.1")
        defer { close(listener.fd) }
        // Connections are taken (the kernel's backlog) and never answered. X11 over TCP is
        // port 6000 + the display's number.
        guard listener.port > 6000 else { throw XCTSkip("environment: the kernel gave a port below X11's range") }
        try withEnvironment(["DISPLAY": "127.0.0.1:\(Int(listener.port) - 6000)", "SDL_VIDEODRIVER": "x11"]) {
            let ad = try create()
            defer { launchad_destroy(ad) }
            let began = Date()
            XCTAssertEqual(launchad_attach_x11(ad, 0x400001), LAUNCHAD_ERROR_NO_WINDOW.rawValue)
            XCTAssertLessThan(Date().timeIntervalSince(began), 5, "the attach came back")
        }
    }

    func testSDLVideoRunningWithAnotherDriverIsARenderError() throws {
        let (xvfb, display) = try Xvfb.start(["-screen", "0", "320x240x24", "-nolisten", "tcp"])
        defer { xvfb.terminateIfRunning() }
        try withEnvironment(["DISPLAY": display, "SDL_VIDEODRIVER": "dummy"]) {
            let (x, window) = try makeWindow(display)
            defer { XCloseDisplay(x) }
            let ad = try create()
            defer { launchad_destroy(ad) }
            let kit = try LaunchAd(arguments: ["play", Fixtures.media("sample-ad.mp4")])
            defer { kit.close() }
            // SDL_VIDEODRIVER asks for another driver: it wins, as for launchad's own window.
            XCTAssertEqual(launchad_attach_x11(ad, UInt(window)), LAUNCHAD_ERROR_RENDER.rawValue)
            XCTAssertThrowsError(try kit.attach(x11Window: UInt(window))) {
                XCTAssertEqual($0 as? X11AttachError, .driverAsked("dummy"))
                XCTAssertEqual("\($0)", "SDL_VIDEODRIVER=dummy asks for another driver than x11 (unset it, or set it to x11)")
            }
            // The process (as an SDL application would) runs SDL's video with the dummy driver.
            let video = try SDLVideo()
            defer { withExtendedLifetime(video) {} }
            XCTAssertEqual(launchad_attach_x11(ad, UInt(window)), LAUNCHAD_ERROR_RENDER.rawValue)
            XCTAssertThrowsError(try kit.attach(x11Window: UInt(window))) { XCTAssertEqual($0 as? X11AttachError, .notX11("dummy")) }
        }
    }
}
