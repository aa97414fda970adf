import Foundation
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdTestSupport
import XCTest

/// What the machine can do wrong: no display, no sound card, a full or read-only disk under the
/// cache. (A prefetch killed with SIGKILL mid-download is in LaunchFlowTests.)
final class FaultTests: XCTestCase {
    func clip() throws -> String { try Fixtures.colourBars(seconds: 1, size: "320x240", audio: true) }

    /// No DISPLAY, no WAYLAND_DISPLAY and no headless driver asked for: one clear error, exit 1,
    /// within a second; the same when a driver is named that cannot open.
    func testNoDisplayIsAClearErrorWithinASecond() throws {
        var env = ProcessInfo.processInfo.environment
        for key in ["DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER", "XDG_RUNTIME_DIR"] { env.removeValue(forKey: key) }
        env["SDL_AUDIODRIVER"] = "dummy"
        for (label, extra) in [("no driver asked for", [String: String]()), ("x11 without DISPLAY", ["SDL_VIDEODRIVER": "x11"])] {
            var e = env
            e.merge(extra) { $1 }
            let run = try Launchad.run(["play", try clip()], environment: e)
            XCTAssertEqual(run.status, 1, "\(label): \(run.stdout) \(run.stderr)")
            // By the process's own clock (its `end`'s t_ms): the machine's other work may delay its start.
            XCTAssertLessThan(run.events(named: "end").first?["t_ms"] as? Int ?? .max, 1000, label)
            let error = run.events(named: "error").first
            XCTAssertEqual(error?["code"] as? String, "no_display", "\(label): \(run.stdout)")
            XCTAssertTrue((error?["message"] as? String ?? "").contains("DISPLAY"), "\(label): says what to set")
            XCTAssertEqual(run.events(named: "end").count, 1, label)
            XCTAssertEqual(run.events.last?["outcome"] as? String, "error", label)
            XCTAssertEqual(run.events(named: "first_frame").count, 0, label)
            XCTAssertEqual(run.stderr, "", "\(label): the error event alone, no stray line from libwayland")
        }
    }

    /// No sound card (ALSA with no card, as in CI) or a driver that does not exist: the video
    /// plays to its end in its own time, silently, and an `audio_unavailable` event says why.
    /// ALSA's own `ALSA lib … cannot find card` lines never reach stderr: the event has the first.
    func testNoAudioDevicePlaysTheVideoSilently() throws {
        // SDL's own choice (no SDL_AUDIODRIVER) reaches ALSA only where no sound server runs and no card is there.
        let cardless = !FileManager.default.fileExists(atPath: "/dev/snd")
        for driver in ["alsa", "no-such-driver"] + (cardless ? [""] : []) {
            var env = Launchad.headlessEnvironment(["SDL_AUDIODRIVER": driver, "AUDIODEV": "hw:99"])
            if driver.isEmpty { env["SDL_AUDIODRIVER"] = nil; env["AUDIODEV"] = nil }
            let run = try Launchad.run(["play", try clip(), "--transition", "none"], environment: env)
            XCTAssertEqual(run.status, 0, "\(driver): \(run.stderr)")
            let message = try XCTUnwrap(run.events(named: "audio_unavailable").first?["message"] as? String, "\(driver): \(run.stdout)")
            XCTAssertFalse(message.isEmpty)
            XCTAssertFalse(run.stderr.contains("ALSA lib"), "\(driver): ALSA's chatter is kept off stderr: \(run.stderr)")
            if driver == "alsa" { XCTAssertTrue(message.contains("(ALSA: "), "the event says what ALSA said: \(message)") }
            XCTAssertEqual(run.events(named: "start").first?["has_audio"] as? Bool, true, "\(driver): it describes the file")
            XCTAssertEqual(run.events(named: "first_frame").count, 1, driver)
            XCTAssertEqual(run.events.last?["outcome"] as? String, "completed", driver)
            XCTAssertEqual(Double(run.events.last?["shown_ms"] as? Int ?? 0), 1000, accuracy: 250, "\(driver): the video's own length")
        }
    }
}

/// The cache on a disk that fills up or turns read-only (tmpfs and bind mounts: needs root, as
/// CI runs; skipped elsewhere). The ad cached before is intact and still shown.
final class CacheDiskFaultTests: XCTestCase {
    var server: AdServer!
    var mountPoint: URL!

    override func setUpWithError() throws {
        server = try AdServer()
        mountPoint = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("launchad-disk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        _ = try? Fixtures.run("/bin/umount", [mountPoint.path])
        try? FileManager.default.removeItem(at: mountPoint)
        server = nil
    }

    func mount(_ args: [String]) throws {
        try EnvironmentSkip.unlessRoot("mount")
        let r = try Fixtures.run("/bin/mount", args)
        guard r.status == 0 else { throw XCTSkip("mount \(args.joined(separator: " ")) failed as root: \(r.stderr)") }
    }

    var cache: URL { mountPoint.appendingPathComponent("cache") }

    func image(_ colour: String, _ size: String = "320x240") throws -> Data { try Fixtures.solidPNG(colour, size: size) }

    /// A noisy picture that does not compress: about 1.2 MB as PNG.
    func bigImage() throws -> Data {
        try Data(
            contentsOf: URL(
                fileURLWithPath: Fixtures.make(
                    "noise-640x640.png",
                    ["-f", "lavfi", "-i", "nullsrc=s=640x640,geq=random(1)*255:128:128", "-frames:v", "1", "-pix_fmt", "rgb24"])))
    }

    func prefetch() throws -> Launchad.Run {
        try Launchad.run(["prefetch", "--manifest", server.manifestURL, "--cache", cache.path, "--size", "320x240", "--retries", "0"])
    }

    func launch() throws -> Launchad.Run {
        try Launchad.run([
            "launch", "--manifest", server.manifestURL, "--cache", cache.path, "--size", "320x240",
            "--transition", "none", "--retries", "0", "--refresh-timeout", "5"
        ])
    }

    func objects() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: cache.appendingPathComponent("objects").path)) ?? []).sorted()
    }

    func assertRedIsCachedAndShown(_ red: Data, _ label: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let name = "\(SHA256.hex(of: red)).png"
        XCTAssertEqual(objects(), [name], label, file: file, line: line)
        XCTAssertEqual(try Data(contentsOf: cache.appendingPathComponent("objects/\(name)")), red, label, file: file, line: line)
        let index = try Data(contentsOf: cache.appendingPathComponent("index.json"))
        XCTAssertNotNil(try? JSONSerialization.jsonObject(with: index), "\(label): index.json is whole", file: file, line: line)
        let shown = try launch()
        XCTAssertEqual(shown.events(named: "cache_hit").first?["id"] as? String, "red", "\(label): \(shown.stdout)", file: file, line: line)
        XCTAssertEqual(shown.events(named: "first_frame").count, 1, label, file: file, line: line)
        XCTAssertEqual(shown.events.last?["outcome"] as? String, "completed", "\(label): \(shown.stdout)", file: file, line: line)
    }

    func testDiskFullDuringPrefetchKeepsTheCachedAd() throws {
        try mount(["-t", "tmpfs", "-o", "size=256k", "tmpfs", mountPoint.path])
        let red = try image("red"), big = try bigImage()
        XCTAssertGreaterThan(big.count, 300_000, "bigger than the disk")
        try server.publish([AdServer.Ad(id: "red", file: "red.png", data: red)])
        XCTAssertEqual(try prefetch().status, 0)
        try server.publish([AdServer.Ad(id: "red", file: "red.png", data: red), AdServer.Ad(id: "big", file: "big.png", data: big)])
        let run = try prefetch()
        XCTAssertEqual(run.status, 1, "\(run.stdout) \(run.stderr)")
        XCTAssertEqual(run.events(named: "rejected").first?["id"] as? String, "big", run.stdout)
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, "one line: \(run.stderr)")
        XCTAssertEqual(
            (try? FileManager.default.contentsOfDirectory(atPath: cache.appendingPathComponent("tmp").path)) ?? [], [],
            "no partial download left behind to fill the disk")
        try assertRedIsCachedAndShown(red, "disk full")
    }

    /// `launch` killed with SIGKILL while its background refresh is half-way through a download
    /// (prefetch killed the same way is in LaunchFlowTests): the next launch shows the old ad,
    /// never the half-written file, and the next refresh is not stuck behind the dead one's lock.
    func testLaunchKilledMidRefreshRecovers() throws {
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        let red = try image("red"), big = try bigImage()
        try server.publish([AdServer.Ad(id: "red", file: "red.png", data: red)])
        XCTAssertEqual(try prefetch().status, 0)
        try server.publish([AdServer.Ad(id: "big", file: "slow/big.png", data: big, extra: #""priority": 5,"#)])
        let victim = Process()
        victim.executableURL = URL(fileURLWithPath: Launchad.binary)
        victim.arguments = [
            "launch", "--manifest", server.manifestURL, "--cache", cache.path, "--size", "320x240",
            "--transition", "none", "--refresh-timeout", "60"
        ]
        victim.environment = Launchad.headlessEnvironment()
        victim.standardOutput = FileHandle.nullDevice
        victim.standardError = FileHandle.nullDevice
        try victim.run()
        let tmp = cache.appendingPathComponent("tmp").path
        let partial = Wait.until {
            ((try? FileManager.default.contentsOfDirectory(atPath: tmp)) ?? []).contains { name in
                ((try? FileManager.default.attributesOfItem(atPath: "\(tmp)/\(name)")[.size] as? NSNumber)?.intValue ?? 0) > 0
            }
        }
        kill(victim.processIdentifier, SIGKILL)
        victim.waitUntilExit()
        XCTAssertTrue(partial, "the refresh was killed part-way through the download")
        XCTAssertEqual(objects(), ["\(SHA256.hex(of: red)).png"], "nothing half-done was installed")

        try server.publish([AdServer.Ad(id: "red", file: "red.png", data: red)])
        try assertRedIsCachedAndShown(red, "after the kill")
        // The dead download's part file is swept once it is an hour old (a younger one may be a
        // live concurrent refresh's): age it, and the next refresh removes it.
        for name in (try? FileManager.default.contentsOfDirectory(atPath: tmp)) ?? [] {
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -7200)], ofItemAtPath: "\(tmp)/\(name)")
        }
        try server.publish([AdServer.Ad(id: "big", file: "big.png", data: big)])
        let refreshed = try prefetch()
        XCTAssertEqual(refreshed.status, 0, "not stuck behind a dead lock holder: \(refreshed.stderr)")
        XCTAssertEqual(objects(), ["\(SHA256.hex(of: big)).png"])
        XCTAssertEqual(try Data(contentsOf: cache.appendingPathComponent("objects/\(SHA256.hex(of: big)).png")), big)
        XCTAssertEqual((try? FileManager.default.contentsOfDirectory(atPath: tmp)) ?? [], [], "the dead download's part file was swept")
    }

    func testReadOnlyCacheKeepsTheCachedAd() throws {
        let red = try image("red")
        try server.publish([AdServer.Ad(id: "red", file: "red.png", data: red)])
        XCTAssertEqual(try prefetch().status, 0)
        try mount(["--bind", mountPoint.path, mountPoint.path])
        try mount(["-o", "remount,ro,bind", mountPoint.path])
        try server.publish([
            AdServer.Ad(id: "blue", file: "blue.png", data: try image("blue"), extra: #""priority": 5,"#),
            AdServer.Ad(id: "red", file: "red.png", data: red)
        ])
        let run = try prefetch()
        XCTAssertEqual(run.status, 1, "\(run.stdout) \(run.stderr)")
        XCTAssertTrue(run.stderr.contains("Read-only file system"), "says why: \(run.stderr)")
        XCTAssertTrue(run.stderr.split(separator: "\n").allSatisfy { $0.hasPrefix("launchad: ") }, "one line a failure: \(run.stderr)")
        try assertRedIsCachedAndShown(red, "read-only")
    }
}
