import Foundation
import LaunchAdTestSupport
import XCTest

/// `launchad play` in a Wayland-only session: the control channel, and the ways a compositor
/// can be missing or go away, each a `no_display`/`window_lost` error with exit 1, never a signal.
final class WaylandCLITests: XCTestCase {
    private func seated() throws -> Compositor {
        do { return try Compositor.westonWithSeat() } catch let e as Compositor.Missing { throw XCTSkip(e.description) }
    }

    func testControlChannelDrivesTheAdUnderWeston() throws {
        let weston = try seated()
        let clip = try Fixtures.colourBars(seconds: 4, audio: false)
        let run = try LiveRun(["play", clip, "--control", "stdin"], environment: weston.environment)
        XCTAssertNotNil(run.waitFor("first_frame"))
        run.send("pause")
        XCTAssertNotNil(run.waitFor("pause"))
        run.send("skip")
        XCTAssertEqual(run.finish(), 0)
        XCTAssertEqual(run.events(named: "window").first?["video_driver"] as? String, "wayland")
        XCTAssertEqual(run.events(named: "pause").first?["reason"] as? String, "host")
        XCTAssertEqual(run.events(named: "end").map { $0["outcome"] as? String }, ["skipped"])
    }

    func testACompositorWithoutASeatIsNoDisplayNotACrash() throws {
        let weston: Compositor
        do { weston = try Compositor.westonHeadless() } catch let e as Compositor.Missing { throw XCTSkip(e.description) }
        let run = try Launchad.run(["play", Fixtures.media("sample-ad.mp4")], environment: weston.environment)
        XCTAssertEqual(run.status, 1)
        let error = try XCTUnwrap(run.events(named: "error").first)
        XCTAssertEqual(error["code"] as? String, "no_display")
        XCTAssertTrue((error["message"] as? String ?? "").contains("wl_seat"), "\(error)")
        XCTAssertEqual(run.events.last?["outcome"] as? String, "error")
    }

    func testAMissingSocketIsNoDisplay() throws {
        var env = Launchad.headlessEnvironment()
        env.removeValue(forKey: "SDL_VIDEODRIVER")
        env["WAYLAND_DISPLAY"] = "wl-not-there"
        env["XDG_RUNTIME_DIR"] = NSTemporaryDirectory()
        let run = try Launchad.run(["play", Fixtures.media("sample-ad.mp4")], environment: env)
        XCTAssertEqual(run.status, 1)
        let error = try XCTUnwrap(run.events(named: "error").first)
        XCTAssertEqual(error["code"] as? String, "no_display")
        XCTAssertTrue((error["message"] as? String ?? "").contains("wl-not-there"))
        XCTAssertEqual(run.events(named: "end").count, 1)
    }

    func testACompositorThatDiesMidPlayIsWindowLost() throws {
        let weston = try seated()
        let clip = try Fixtures.colourBars(seconds: 6, audio: false)
        let run = try LiveRun(["play", clip], environment: weston.environment)
        XCTAssertNotNil(run.waitFor("first_frame"))
        Thread.sleep(forTimeInterval: 0.5)
        weston.kill()
        XCTAssertEqual(run.finish(timeout: 10), 1)
        XCTAssertEqual(run.events(named: "error").first?["code"] as? String, "window_lost")
        XCTAssertEqual(run.events(named: "end").map { $0["outcome"] as? String }, ["error"])
        XCTAssertLessThan(run.seconds, 5, "ends at once, not at the end of the clip")
    }
}

/// Bare KMS: without a DRM device SDL's kmsdrm driver is refused before SDL starts.
final class KMSDRMCLITests: XCTestCase {
    func testKmsdrmWithoutADRMDeviceIsNoDisplayWithinASecond() throws {
        if FileManager.default.fileExists(atPath: "/dev/dri") { throw XCTSkip("this machine has /dev/dri") }
        var env = Launchad.headlessEnvironment()
        env["SDL_VIDEODRIVER"] = "kmsdrm"
        let run = try Launchad.run(["play", Fixtures.media("sample-ad.mp4")], environment: env)
        XCTAssertEqual(run.status, 1)
        let error = try XCTUnwrap(run.events(named: "error").first)
        XCTAssertEqual(error["code"] as? String, "no_display")
        XCTAssertTrue((error["message"] as? String ?? "").contains("/dev/dri"), "\(error)")
        XCTAssertEqual(run.events(named: "end").count, 1)
        XCTAssertLessThan(run.seconds, 1.0)
    }
}

/// Focus as weston's kiosk-shell reports it: a newer window takes the keyboard, the ad pauses;
/// when that window goes, the ad has it back and resumes.
final class WaylandFocusTests: XCTestCase {
    func testAnotherWindowTakingFocusPausesTheAdAndItsEndResumesIt() throws {
        let weston: Compositor
        do { weston = try Compositor.westonWithSeat() } catch let e as Compositor.Missing { throw XCTSkip(e.description) }
        let clip = try Fixtures.colourBars(seconds: 8, audio: false)
        let ad = try LiveRun(["play", clip, "--control", "stdin"], environment: weston.environment)
        XCTAssertNotNil(ad.waitFor("first_frame"))
        let other = try LiveRun(["play", clip, "--control", "stdin"], environment: weston.environment)
        XCTAssertNotNil(other.waitFor("first_frame"))
        let pause = try XCTUnwrap(ad.waitFor("pause", timeout: 5), "the ad paused when the other window took focus")
        XCTAssertEqual(pause["reason"] as? String, "focus_lost")
        other.send("end")
        XCTAssertEqual(other.finish(), 0)
        let resume = try XCTUnwrap(ad.waitFor("resume", timeout: 5), "the ad resumed when it had focus back")
        XCTAssertEqual(resume["reason"] as? String, "focus_gained")
        ad.send("skip")
        XCTAssertEqual(ad.finish(), 0)
        XCTAssertEqual(ad.events(named: "end").map { $0["outcome"] as? String }, ["skipped"])
    }
}
