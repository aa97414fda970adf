import LaunchAdCore
import LaunchAdTestSupport
import XCTest

/// Pictures on schedule, judged on a fixed clock: what is shown time, what is a stall.
final class PresentationWatchTests: XCTestCase {
    /// 25 fps pictures presented as due: on schedule throughout, nothing lost.
    func testPicturesOnTimeAreOnSchedule() {
        var w = PresentationWatch(stallLimitMs: 3000)
        w.videoStarted(frameDuration: 0.04)
        for i in 0..<50 {
            w.upcoming(pts: nil, drained: false)
            w.presented(pts: Double(i) * 0.04, now: i * 40)
            XCTAssertTrue(w.isOnSchedule(now: i * 40 + 30))
        }
        XCTAssertEqual(w.notShownMs(now: 1990), 0)
        XCTAssertEqual(w.lateMs(now: 2200), 200, "due at 2000 (the last picture at 1960 plus 40 ms)")
        XCTAssertTrue(w.isOnSchedule(now: 2200))
        XCTAssertFalse(w.isOnSchedule(now: 2300))
        XCTAssertEqual(w.notShownMs(now: 2300), 50, "overdue beyond the 250 ms tolerance")
        XCTAssertFalse(w.isStalled(now: 4999))
        XCTAssertTrue(w.isStalled(now: 5000))
    }

    /// A picture decoded with a timestamp 5 s on (a slide held on purpose) is not late before then.
    func testASparseVideoIsNotLateWhileItsNextPictureIsDecoded() {
        var w = PresentationWatch(stallLimitMs: 3000)
        w.videoStarted(frameDuration: 0.04)
        w.presented(pts: 0, now: 100)
        w.upcoming(pts: 5, drained: false)
        XCTAssertEqual(w.dueAt, 5100)
        XCTAssertTrue(w.isOnSchedule(now: 5000))
        XCTAssertFalse(w.isStalled(now: 5000))
        XCTAssertTrue(w.isStalled(now: 8100))
    }

    /// The last picture of a drained video stays up as intended: nothing is due.
    func testADrainedVideoHoldsItsLastPicture() {
        var w = PresentationWatch(stallLimitMs: 3000)
        w.presented(pts: 1.96, now: 2000)
        w.upcoming(pts: nil, drained: true)
        XCTAssertNil(w.dueAt)
        XCTAssertTrue(w.isOnSchedule(now: 60_000))
        XCTAssertEqual(w.notShownMs(now: 60_000), 0)
    }

    /// Paused, nothing is due; lateness before the pause is kept, and on resume a picture that
    /// was already due is due at once, one that was not gets the rest of its time.
    func testAPauseStopsTheScheduleAndResumeGivesThePictureItsRest() {
        var w = PresentationWatch(stallLimitMs: 3000)
        w.videoStarted(frameDuration: 0.04)
        w.presented(pts: 0, now: 0)
        w.pause(now: 20)
        XCTAssertEqual(w.lateMs(now: 10_000), 0)
        w.resume(now: 10_000)
        XCTAssertEqual(w.dueAt, 10_020, "20 ms of its 40 ms were left")

        w.presented(pts: 0.04, now: 10_020)
        w.pause(now: 10_560)  // due at 10_060: 500 ms late, 250 of them beyond the tolerance
        XCTAssertEqual(w.notShownMs(now: 10_560), 250)
        w.resume(now: 20_000)
        XCTAssertEqual(w.dueAt, 20_000)
        XCTAssertEqual(w.notShownMs(now: 20_000), 250)
    }
}

/// The session ends a stalled video and counts only the time a picture was really shown.
final class AdSessionStallTests: XCTestCase {
    /// Pictures every 40 ms from 0 to 960 ms, then none: at 4040 ms (3 s after the next was due)
    /// the ad ends `error` `media_stalled`; shown time is 1000 + 250 ms (the tolerance), so no
    /// quartile of the 6 s video (the first is at 1500) and no `complete`.
    func testAStallEndsTheAdWithMediaStalled() {
        let run = SessionRun(videoConfig(["--transition", "none"], durationMs: 6000))
        run.session.videoReady(durationMs: 6000, frameDuration: 0.04)
        run.session.picturePresented(pts: 0, now: 0)
        run.send(.firstFrame, at: 0)
        var t = 0
        while run.session.phase == .showing && t < 10_000 {
            if t <= 960 && t % 40 == 0 { run.session.picturePresented(pts: Double(t) / 1000, now: t) }
            run.session.upcomingPicture(pts: nil, drained: false)
            run.tick(t)
            t += 10
        }
        XCTAssertEqual(run.names, ["first_frame", "error", "end"])
        let error = run.only("error")
        XCTAssertEqual(error?.tMs, 4000)
        XCTAssertEqual(error?["code"], "media_stalled")
        XCTAssertEqual(error?["stalled_ms"], 3000)
        XCTAssertEqual(error?["shown_ms"], 1250)
        XCTAssertEqual(run.endEvents.first?["shown_ms"], 1250)
        XCTAssertEqual(run.outcome, "error")
        XCTAssertEqual(run.actions.last, .finish(.error))
    }

    /// A hiccup shorter than the limit: the ad plays on, the frozen part beyond the tolerance is
    /// not shown time, so the quartiles come that much later.
    func testAHiccupIsNotShownTimeButTheAdPlaysOn() {
        let run = SessionRun(videoConfig(["--transition", "none", "--stall-timeout", "2"], durationMs: 4000))
        run.session.videoReady(durationMs: 4000, frameDuration: 0.04)
        run.send(.firstFrame, at: 0)
        var t = 0
        while t <= 3000 {
            // Nothing new from 480 to 1520 ms: due at 520, presented 1000 ms late.
            if t % 40 == 0 && (t <= 500 || t >= 1500) { run.session.picturePresented(pts: Double(t) / 1000, now: t) }
            run.session.upcomingPicture(pts: nil, drained: false)
            run.tick(t)
            t += 10
        }
        XCTAssertEqual(run.session.phase, .showing)
        XCTAssertEqual(run.session.shownMs(now: 3000), 3000 - (1000 - 250))
        // The quartiles (1000 and 2000 ms of shown time) came 750 ms later than they would have.
        XCTAssertEqual(run.events("quartile").map(\.tMs), [1750, 2750])
    }
}

/// What systemd hears: READY once a picture is up, pings only while on schedule, status news.
final class WatchdogPolicyTests: XCTestCase {
    func testReadyPingsAndStatus() {
        var p = WatchdogPolicy(pingIntervalMs: 500, what: "ad.mp4")
        XCTAssertEqual(p.message(.waiting, now: 0), "STATUS=starting ad.mp4")
        XCTAssertNil(p.message(.waiting, now: 100))
        XCTAssertEqual(p.message(.showing(onSchedule: true, lateMs: 0), now: 200), "READY=1\nWATCHDOG=1\nSTATUS=showing ad.mp4")
        XCTAssertNil(p.message(.showing(onSchedule: true, lateMs: 0), now: 699))
        XCTAssertEqual(p.message(.showing(onSchedule: true, lateMs: 0), now: 700), "WATCHDOG=1")
        // Late: no ping however long, the status says so (in whole seconds).
        XCTAssertEqual(p.message(.showing(onSchedule: false, lateMs: 300), now: 1300), "STATUS=stalled: no new picture of ad.mp4 for 0 s")
        XCTAssertNil(p.message(.showing(onSchedule: false, lateMs: 900), now: 1900))
        XCTAssertEqual(p.message(.showing(onSchedule: false, lateMs: 1000), now: 2000), "STATUS=stalled: no new picture of ad.mp4 for 1 s")
        // Back on schedule: a ping at once, READY not again.
        XCTAssertEqual(p.message(.showing(onSchedule: true, lateMs: 0), now: 2100), "WATCHDOG=1\nSTATUS=showing ad.mp4")
        XCTAssertEqual(p.message(.ended(.completed), now: 2200), "STATUS=ad.mp4 ended: completed")
    }

    /// `launch` plays a cache file named by its hash: the status names the manifest's ad id.
    func testTheStatusNamesTheAdNotTheCacheFile() throws {
        let cached = "/var/cache/launchad/objects/0c2d5e0e6e1f9b2b9c1e6a3f1d5f2f8a0c2d5e0e6e1f9b2b9c1e6a3f1d5f2f8a.mp4"
        let manifest = try ManifestParser.parse(
            Data(
                #"{"ads": [{"id": "spring-sale", "type": "video", "variants": [{"url": "https://cdn.example.com/a.mp4", "width": 720, "height": 1280, "bytes": 1, "sha256": "0c2d5e0e6e1f9b2b9c1e6a3f1d5f2f8a0c2d5e0e6e1f9b2b9c1e6a3f1d5f2f8a"}]}]}"#
                    .utf8), base: URL(string: "https://ads.example.com/m.json")!,
            budget: ManifestParser.budget(maxBytes: 1 << 20, seconds: 5)
        ).manifest
        let choice = try XCTUnwrap(AdSelector.choose(from: manifest.ads, now: Date(), screen: Size(width: 720, height: 1280)) { _ in true })
        let options = LaunchRun.options(PlayOptions(), for: choice, file: cached, fallback: nil, handsOff: false)
        let config = PlayerConfig(options)
        XCTAssertEqual(WatchdogPolicy.adName(id: config.adID, source: config.source), "spring-sale")
        var p = WatchdogPolicy(pingIntervalMs: 500, what: WatchdogPolicy.adName(id: config.adID, source: config.source))
        XCTAssertEqual(p.message(.waiting, now: 0), "STATUS=starting spring-sale")
        // `play FILE` has no id: the file's name, not its folder or a long URL.
        XCTAssertEqual(WatchdogPolicy.adName(id: nil, source: "https://cdn.example.com/x/sale.mp4?sig=1"), "sale.mp4")
        XCTAssertEqual(WatchdogPolicy.adName(id: nil, source: "/srv/ads/ad.mp4"), "ad.mp4")
    }

    func testThePingIntervalIsHalfTheWatchdogTimeout() {
        XCTAssertEqual(WatchdogPolicy.pingInterval(watchdogUsec: "10000000"), 5000)
        XCTAssertEqual(WatchdogPolicy.pingInterval(watchdogUsec: "20000"), 50, "at least 50 ms")
        XCTAssertEqual(WatchdogPolicy.pingInterval(watchdogUsec: nil), 1000)
        XCTAssertEqual(WatchdogPolicy.pingInterval(watchdogUsec: "soon"), 1000)
    }
}
