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
        // --wait 15 in these plays: a loaded machine's compositor may show the window later than the
        // default 3 s; the wait is not what is tested.
        let run = try LiveRun(["play", clip, "--control", "stdin", "--wait", "15"], environment: weston.environment)
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
        let run = try LiveRun(["play", clip, "--wait", "15"], environment: weston.environment)
        XCTAssertNotNil(run.waitFor("first_frame"))
        XCTAssertNotNil(run.waitFor("quartile"), "mid-play")
        weston.kill()
        XCTAssertEqual(run.finish(timeout: 10), 1)
        XCTAssertEqual(run.events(named: "error").first?["code"] as? String, "window_lost")
        XCTAssertEqual(run.events(named: "end").map { $0["outcome"] as? String }, ["error"])
        let shown = try XCTUnwrap(run.events(named: "end").first?["shown_ms"] as? Int)
        XCTAssertLessThan(shown, 5000, "ends at once, not at the end of the 6 s clip")
    }
}

/// Bare KMS: without a DRM device SDL's kmsdrm driver is refused before SDL starts.
final class KMSDRMCLITests: XCTestCase {
    func testKmsdrmWithoutADRMDeviceIsNoDisplayWithinASecond() throws {
        if FileManager.default.fileExists(atPath: "/dev/dri") { throw EnvironmentSkip.because("this machine has /dev/dri") }
        var env = Launchad.headlessEnvironment()
        env["SDL_VIDEODRIVER"] = "kmsdrm"
        let run = try Launchad.run(["play", Fixtures.media("sample-ad.mp4")], environment: env)
        XCTAssertEqual(run.status, 1)
        let error = try XCTUnwrap(run.events(named: "error").first)
        XCTAssertEqual(error["code"] as? String, "no_display")
        XCTAssertTrue((error["message"] as? String ?? "").contains("/dev/dri"), "\(error)")
        XCTAssertEqual(run.events(named: "end").count, 1)
        // By the process's own clock (its `end`'s t_ms): the machine's other work may delay its start.
        XCTAssertLessThan(run.events(named: "end").first?["t_ms"] as? Int ?? .max, 1000, run.stdout)
    }

    /// A machine with a DRM card but devices the user cannot open, made in a private mount
    /// namespace (a tmpfs over /dev; the real /dev is not touched) and run as `nobody`.
    func kmsdrmRun(card cardMode: String, input inputMode: String) throws -> Launchad.Run {
        let old = NSTemporaryDirectory() + "launchad-olddev-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: old, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: old) }
        // card0 and event0 are /dev/null bound over files with the given modes, or plain files.
        let script = """
            set -e
            mount --rbind /dev \(old); mount -t tmpfs none /dev
            for n in null zero urandom random; do touch /dev/$n; mount --bind \(old)/$n /dev/$n; done
            mkdir /dev/dri /dev/input
            touch /dev/dri/card0 /dev/input/event0
            \(cardMode == "open" ? "mount --bind \(old)/null /dev/dri/card0" : "chmod 600 /dev/dri/card0")
            \(inputMode == "open" ? "mount --bind \(old)/null /dev/input/event0" : "chmod 600 /dev/input/event0")
            exec setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
            """
        var env = Launchad.headlessEnvironment()
        env["SDL_VIDEODRIVER"] = "kmsdrm"
        let start = Date()
        let r = try Fixtures.run(
            "/usr/bin/unshare", ["-m", "/bin/sh", "-c", script, "sh", Launchad.binary, "play", Fixtures.media("sample-ad.mp4")],
            environment: env)
        if r.status != 1 && r.stdout.isEmpty { throw XCTSkip("cannot make a private /dev here (unshare -m): \(r.stderr)") }
        return Launchad.Run(status: r.status, stdout: r.stdout, stderr: r.stderr, seconds: Date().timeIntervalSince(start))
    }

    func testUnreadableInputDevicesAreRefusedBeforeSDLTakesTheConsole() throws {
        let run = try kmsdrmRun(card: "open", input: "closed")
        XCTAssertEqual(run.status, 1, run.stdout + run.stderr)
        let message = try XCTUnwrap(run.events(named: "error").first?["message"] as? String)
        XCTAssertTrue(message.contains("/dev/input") && message.contains("input group"), message)
        XCTAssertEqual(run.events(named: "error").first?["code"] as? String, "no_display")
        // By launchad's own clock (its `end`'s t_ms), not the wall clock around unshare, the mounts and setpriv.
        XCTAssertLessThan(run.events(named: "end").first?["t_ms"] as? Int ?? .max, 1000, run.stdout)
    }

    func testACardThatCannotBeOpenedIsNamed() throws {
        let run = try kmsdrmRun(card: "closed", input: "open")
        XCTAssertEqual(run.status, 1, run.stdout + run.stderr)
        let message = try XCTUnwrap(run.events(named: "error").first?["message"] as? String)
        XCTAssertTrue(message.contains("/dev/dri/card0") && message.contains("video group"), message)
    }
}

/// Focus as weston's kiosk-shell reports it: a newer window takes the keyboard, the ad pauses;
/// when that window goes, the ad has it back and resumes.
final class WaylandFocusTests: XCTestCase {
    func testAnotherWindowTakingFocusPausesTheAdAndItsEndResumesIt() throws {
        let weston: Compositor
        do { weston = try Compositor.westonWithSeat() } catch let e as Compositor.Missing { throw XCTSkip(e.description) }
        let clip = try Fixtures.colourBars(seconds: 8, audio: false)
        let ad = try LiveRun(["play", clip, "--control", "stdin", "--wait", "15"], environment: weston.environment)
        XCTAssertNotNil(ad.waitFor("first_frame"))
        let other = try LiveRun(["play", clip, "--control", "stdin", "--wait", "15"], environment: weston.environment)
        XCTAssertNotNil(other.waitFor("first_frame"))
        // Waits with room for a loaded machine (they end early when the ad does): what they wait for is the test.
        let pause = try XCTUnwrap(ad.waitFor("pause", timeout: 20), "the ad paused when the other window took focus")
        XCTAssertEqual(pause["reason"] as? String, "focus_lost")
        other.send("end")
        XCTAssertEqual(other.finish(), 0)
        let resume = try XCTUnwrap(ad.waitFor("resume", timeout: 20), "the ad resumed when it had focus back")
        XCTAssertEqual(resume["reason"] as? String, "focus_gained")
        ad.send("skip")
        XCTAssertEqual(ad.finish(), 0)
        XCTAssertEqual(ad.events(named: "end").map { $0["outcome"] as? String }, ["skipped"])
    }
}
