import CLaunchAd
import Foundation
import LaunchAdC
import LaunchAdCore
import LaunchAdPlayer
import LaunchAdTestSupport
import XCTest

@testable import LaunchAdKit

/// `launchad_attach_x11` and `LaunchAd.attach(x11Window:)` given a window id the X server does
/// not have: an error code and its text, never an X error ending the process, and the handle
/// still usable. (The window drawn in for real: EmbeddingExamplesTests' x11-host.)
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
}
