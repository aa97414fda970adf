import Foundation
import LaunchAdCLI
import LaunchAdCore
import LaunchAdPlayer
import LaunchAdTestSupport
import XCTest

@testable import LaunchAdEngine
@testable import LaunchAdKit

/// The embedding API in-process, as an application uses it: prepared, attached to a buffer it
/// reads back, presented, rendered from its own loop to the end; its events are the command
/// line's for the same ad.
final class LaunchAdKitTests: XCTestCase {
    override func setUp() {
        setenv("SDL_AUDIODRIVER", "dummy", 1)
        setenv("SDL_VIDEODRIVER", "dummy", 1)
    }

    /// Renders `ad` into a buffer until it ends (or `limit` seconds), calling `each` per turn.
    private func show(
        _ ad: LaunchAd, size: Size = Size(width: 640, height: 360), limit: Double = 20,
        each: (LaunchAd, LaunchAd.RenderResult, PlayerOutput) -> Void = { _, _, _ in }
    ) throws -> [AdEvent] {
        var events: [AdEvent] = []
        ad.onEvent = { events.append($0) }
        let output = try PlayerOutput.buffer(size)
        try ad.attach(output)
        try ad.present()
        // Woken by the ad when a picture or an event is ready, as a host's loop is; a frame's time at most.
        let woken = DispatchSemaphore(value: 0)
        ad.setWakeup { woken.signal() }
        let deadline = Date(timeIntervalSinceNow: limit)
        while Date() < deadline {
            let r = try ad.render()
            each(ad, r, output)
            if r == .ended { break }
            _ = woken.wait(timeout: .now() + .milliseconds(16))
        }
        return events
    }

    /// The pixel at the buffer's centre, as ARGB bytes in memory order (B, G, R, A).
    private func centre(_ output: PlayerOutput) -> [UInt8] {
        guard let (p, size, pitch) = output.pixels else { return [] }
        let offset = (size.height / 2) * pitch + (size.width / 2) * 4
        return (0..<4).map { p.load(fromByteOffset: offset + $0, as: UInt8.self) }
    }

    func testABufferHostShowsTheAdAndGetsTheCommandLinesEvents() throws {
        let clip = try Fixtures.make(
            "kit-red-1s.mp4", ["-f", "lavfi", "-i", "color=c=red:s=320x180:d=1:r=25", "-c:v", "libx264", "-pix_fmt", "yuv420p"])
        let ad = try LaunchAd(arguments: ["play", clip, "--transition", "none"])
        try ad.prepareNow(timeout: 10)
        var drawn = 0
        var red = false
        let events = try show(ad) { _, r, output in
            guard r == .drawn else { return }
            drawn += 1
            let px = self.centre(output)
            if px.count == 4, px[2] > 200, px[1] < 60, px[0] < 60 { red = true }
        }
        XCTAssertTrue(red, "the ad's red reached the buffer")
        XCTAssertGreaterThan(drawn, 5)
        XCTAssertEqual(events.last?.name, "end")
        XCTAssertEqual(events.last?["outcome"], "completed")

        // The same ad through the command line's own flow (its own window, SDL's dummy driver).
        let sink = RecordingSink()
        _ = PlayFlow.run(
            try Self.playOptions([clip, "--transition", "none"]), delivery: DeliveryOptions(), sink: sink, presenter: WindowPresenter(),
            context: .quiet())
        // The command line's events, after the embedding API's own `ready` (prepared, then presented).
        XCTAssertEqual(events.map(\.name), ["ready"] + sink.events.map(\.name))
    }

    /// Issue 42: a wake-up hook that blocked 2 s held the decoders (the first frame came at 16 s).
    /// The hook now runs on a thread of its own: the ad is ready as soon as without it.
    func testASlowWakeupHookNeverHoldsThePicture() throws {
        let clip = try Fixtures.colourBars(seconds: 2)
        let ad = try LaunchAd(arguments: ["play", clip, "--transition", "none"])
        defer { ad.close() }
        let calls = Locked(0), returned = Locked(0)
        ad.setWakeup {
            calls.withLock { $0 += 1 }
            // Elapsed time is the behaviour: a host's hook that blocks, as the header forbids.
            Thread.sleep(forTimeInterval: 2)
            returned.withLock { $0 += 1 }
        }
        try ad.prepareNow(timeout: 10)
        // Ready before the first call of the hook came back (the hook held the decoders: ready
        // only after it), whatever a loaded machine made of the time before it.
        XCTAssertEqual(returned.withLock { $0 }, 0, "ready while the hook still blocks")
        XCTAssertLessThanOrEqual(calls.withLock { $0 }, 1, "the wake-ups that came meanwhile wait, folded into one call")
    }

    /// Review of issue 38: presented before it was ready, the ad never said `ready`; it does,
    /// once, before its first frame.
    func testReadyComesOnceBeforeTheFirstFrameWhenPresentedAtOnce() throws {
        let ad = try LaunchAd(arguments: ["play", try Fixtures.colourBars(seconds: 1), "--transition", "none"])
        try? ad.prepareNow(timeout: 0)
        let events = try show(ad).map(\.name)
        XCTAssertEqual(events.filter { $0 == "ready" }.count, 1, "\(events)")
        XCTAssertLessThan(try XCTUnwrap(events.firstIndex(of: "ready")), try XCTUnwrap(events.firstIndex(of: "first_frame")))
    }

    /// Review of issue 38: a creative that cannot play with a fallback that can made prepare wait
    /// its whole timeout (TIMEOUT after 3 s). The fallback decoded is the ad being ready.
    func testAFailedCreativesDecodedFallbackIsReady() throws {
        let broken = try Fixtures.write("kit-not-media.mp4", Data("not a video at all".utf8))
        let ad = try LaunchAd(arguments: ["play", broken, "--fallback", Fixtures.media("fallback.png"), "--duration", "0.5"])
        defer { ad.close() }
        XCTAssertNoThrow(try ad.prepareNow(timeout: 20), "ready (the fallback), not a timeout")
    }

    /// Review of issue 38: a creative whose read never returns (a FIFO nobody writes, as a hung
    /// network mount) held `render()` 1 to 3 s while the ad ended. The application's thread
    /// never waits on it: no turn takes half a second.
    func testARenderNeverWaitsOnAStuckRead() throws {
        let fifo = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("kit-stuck-\(UUID().uuidString).png").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        defer { unlink(fifo) }
        defer {
            // The reader stuck in open(2) is let go: a writer comes and goes.
            let fd = open(fifo, O_WRONLY | O_NONBLOCK)
            if fd >= 0 { close(fd) }
        }
        let ad = try LaunchAd(arguments: ["play", fifo, "--wait", "1", "--transition", "none"])
        try ad.attach(PlayerOutput.buffer(Size(width: 64, height: 36)))
        try ad.present()
        var slowest = 0.0
        var ended = false
        let deadline = Date(timeIntervalSinceNow: 20)
        while !ended, Date() < deadline {
            let began = Date()
            ended = try ad.render() == .ended
            slowest = max(slowest, Date().timeIntervalSince(began))
        }
        ad.close()
        XCTAssertTrue(ended, "the ad ended (timeout, nothing to show)")
        XCTAssertLessThan(slowest, 0.5, "the slowest render() took \(slowest) s")
    }

    /// Review of issue 38: `destroy` waited 2 s for a wake-up hook that never returns (twice
    /// its 1 s): it waits at most 1 s.
    func testCloseWaitsAtMostASecondForAHookThatNeverReturns() throws {
        let ad = try LaunchAd(arguments: ["play", try Fixtures.colourBars(seconds: 1)])
        let never = DispatchSemaphore(value: 0)
        let entered = DispatchSemaphore(value: 0)
        ad.setWakeup {
            entered.signal()
            never.wait()
        }
        try? ad.prepareNow(timeout: 0)
        XCTAssertEqual(entered.wait(timeout: .now() + 10), .success, "the hook was called")
        let began = Date()
        ad.close()
        XCTAssertLessThan(Date().timeIntervalSince(began), 1.6, "close waited for the stuck hook")
        never.signal()
    }

    /// What docs/embedding.md promises a toolkit about the buffer: 32-bit words 0xAARRGGBB, so
    /// bytes B, G, R, A in memory (GdkMemoryFormat B8G8R8A8, QImage's ARGB32), opaque: alpha 255,
    /// but where SDL blended (the skip button, a fade) 253 or 254 from its rounding: the
    /// letterbox, the picture, the skip button over it, mid fade.
    func testTheBufferIsOpaqueBGRAInMemory() throws {
        let clip = try Fixtures.make(
            "kit-red-1s.mp4", ["-f", "lavfi", "-i", "color=c=red:s=320x180:d=1:r=25", "-c:v", "libx264", "-pix_fmt", "yuv420p"])
        let ad = try LaunchAd(arguments: ["play", clip, "--skip-after", "0"])
        try ad.prepareNow(timeout: 10)
        var alphas = Set<UInt8>(), red: [UInt8] = []
        _ = try show(ad, size: Size(width: 320, height: 320)) { _, r, output in
            guard r == .drawn, let (p, size, pitch) = output.pixels else { return }
            for y in stride(from: 0, to: size.height, by: 7) {
                for x in stride(from: 0, to: size.width, by: 7) {
                    alphas.insert(p.load(fromByteOffset: y * pitch + x * 4 + 3, as: UInt8.self))
                }
            }
            let c = self.centre(output)
            if c.count == 4, c[2] > (red.count == 4 ? red[2] : 0) { red = c }
        }
        XCTAssertTrue(alphas.contains(255) && alphas.isSubset(of: [253, 254, 255]), "\(alphas.sorted())")
        XCTAssertEqual(red.count, 4)
        XCTAssertTrue(red[0] < 40 && red[1] < 40 && red[2] > 200 && red[3] == 255, "B, G, R, A: \(red)")
    }

    func testDismissEndsTheAdEndedByHost() throws {
        let clip = try Fixtures.colourBars(seconds: 4)
        let ad = try LaunchAd(arguments: ["play", clip, "--transition", "none"])
        try ad.prepareNow(timeout: 10)
        var asked = false
        let events = try show(ad) { ad, r, _ in
            if r == .drawn && !asked {
                asked = true
                ad.dismiss()
            }
        }
        XCTAssertEqual(events.last?["outcome"], "ended_by_host")
    }

    func testNothingToShowIsNoAdWithItsEnd() throws {
        let ad = try LaunchAd(arguments: ["play", "/nonexistent/ad.mp4"])
        XCTAssertThrowsError(try ad.prepareNow(timeout: 10)) { XCTAssertEqual($0 as? LaunchAd.PrepareError, .noAd) }
        var events: [AdEvent] = []
        ad.onEvent = { events.append($0) }
        ad.pollEvents()
        XCTAssertEqual(events.map(\.name), ["error", "end"])
        XCTAssertEqual(events.first?["code"], "file_not_found")
        XCTAssertEqual(try ad.render(), .ended)
    }

    func testOptionsAboutAWindowOrAProcessAreRefused() {
        for option in [["--events", "x"], ["--then", "sh"], ["--fullscreen"], ["--size", "10x10"], ["--control", "stdin"]] {
            XCTAssertThrowsError(try LaunchAd(arguments: ["play", "ad.mp4"] + option)) { e in
                XCTAssertTrue((e as? UsageError)?.message.hasPrefix("\(option[0]) is not for an embedded ad") == true, "\(e)")
            }
        }
        XCTAssertThrowsError(try LaunchAd(arguments: ["probe", "ad.mp4"]))
    }

    func testTheEventsStreamEndsWithEnd() async throws {
        let clip = try Fixtures.make(
            "kit-blue-half.mp4", ["-f", "lavfi", "-i", "color=c=blue:s=160x90:d=0.5:r=25", "-c:v", "libx264", "-pix_fmt", "yuv420p"])
        let ad = try LaunchAd(arguments: ["play", clip, "--transition", "none"])
        let stream = ad.events
        try await ad.prepare(timeout: 10)
        _ = try show(ad)
        var names: [String] = []
        for await e in stream { names.append(e.name) }
        XCTAssertTrue(names.contains("start") && names.contains("first_frame"), "\(names)")
        XCTAssertEqual(names.last, "end")
    }

    private static func playOptions(_ args: [String]) throws -> PlayOptions {
        guard case .play(let o, _) = try Command.parse(["play"] + args) else { throw UsageError("not play") }
        return o
    }
}
