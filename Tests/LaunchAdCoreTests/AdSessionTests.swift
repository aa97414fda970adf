import LaunchAdCore
import LaunchAdTestSupport
import XCTest

/// Drives one AdSession with explicit times and keeps what it emitted and asked for.
final class SessionRun {
    let sink = RecordingSink()
    var session: AdSession
    /// Every action the session returned, in order.
    private(set) var actions: [SessionAction] = []

    init(_ config: SessionConfig, layout: AdLayout = SessionRun.phone, now: Int = 0) {
        session = AdSession(config: config, layout: layout, events: sink, now: now)
    }

    static let phone = AdLayout(window: Size(width: 720, height: 1280), mode: .fullscreen, skipStyle: .text)

    @discardableResult
    func send(_ input: SessionInput, at now: Int) -> [SessionAction] {
        let a = session.handle(input, now: now)
        actions += a
        return a
    }

    @discardableResult
    func tick(_ now: Int) -> [SessionAction] {
        let a = session.tick(now: now)
        actions += a
        return a
    }

    /// Ticks every `step` ms from `from` through `to`, as the player's render loop would.
    @discardableResult
    func tick(from: Int, through to: Int, step: Int = 16) -> [SessionAction] {
        var all: [SessionAction] = []
        var t = from
        while t <= to { all += tick(t); t += step }
        return all
    }

    var events: [AdEvent] { sink.events }
    /// The events a test follows, in order: `skip_available` has tests of its own (AdSessionSkipAvailableTests).
    var names: [String] { events.map(\.name).filter { $0 != "skip_available" } }
    func events(_ name: String) -> [AdEvent] { events.filter { $0.name == name } }
    func only(_ name: String, file: StaticString = #filePath, line: UInt = #line) -> AdEvent? {
        let found = events(name)
        XCTAssertEqual(found.count, 1, "expected exactly one \(name) event in \(names)", file: file, line: line)
        return found.first
    }
    var endEvents: [AdEvent] { events("end") }
    var outcome: JSONValue? { endEvents.last?["outcome"] }
    func text(_ now: Int) -> String { session.skipButton(now: now).text }

    /// A point inside the skip button, and one on the ad well away from it.
    var skipPoint: (x: Double, y: Double) {
        let r = session.layout.skipButton
        return (Double(r.midX), Double(r.midY))
    }
    var adPoint: (x: Double, y: Double) {
        let a = session.layout.adArea
        return (Double(a.midX), Double(a.midY))
    }
    @discardableResult func tapSkip(at now: Int) -> [SessionAction] { send(.pointerUp(x: skipPoint.x, y: skipPoint.y), at: now) }
    @discardableResult func tapAd(at now: Int) -> [SessionAction] { send(.pointerUp(x: adPoint.x, y: adPoint.y), at: now) }
}

/// Options as the command line would give them, for `ad.mp4` (or `ad.png`). The core's tests
/// cannot reach the CLI's parser (it sits above them), so the flags these tests use are set here.
func options(_ args: [String] = [], file: String = "ad.mp4") -> PlayOptions {
    var o = PlayOptions(file: file)
    var i = 0
    func value() -> String { i += 1; return args[i] }
    while i < args.count {
        switch args[i] {
        case "--duration": o.imageDuration = Double(value())!
        case "--max-duration": o.maxDuration = Double(value())!
        case "--fallback": o.fallback = value()
        case "--wait": o.wait = Double(value())!
        case "--link": o.link = value()
        case "--open-links": o.openLinks = true
        case "--layout": o.layout = LayoutMode(rawValue: value())!
        case "--logo": o.logo = value()
        case "--mute": o.muted = true
        case "--no-pause-on-blur": o.pauseOnBlur = false
        case "--no-skip": o.showSkip = false
        case "--skip-after": o.skipAfter = Double(value())!
        case "--skip-label": o.skipLabel = value()
        case "--skip-style": o.skipStyle = SkipStyle(rawValue: value())!
        case "--transition": o.transition = Transition(rawValue: value())!
        case "--stall-timeout": o.stallTimeout = Double(value())!
        default: fatalError("bad test option \(args[i])")
        }
        i += 1
    }
    return o
}

func videoConfig(_ args: [String] = [], durationMs: Int? = 5000) -> SessionConfig {
    SessionConfig.video(durationMs: durationMs, options: options(args))
}

func imageConfig(_ args: [String] = []) -> SessionConfig {
    SessionConfig.image(options: options(args, file: "ad.png"))
}

final class AdSessionCountdownTests: XCTestCase {
    func testNoButtonAndNoCountdownBeforeTheFirstFrame() {
        let run = SessionRun(videoConfig())
        XCTAssertEqual(run.tick(from: 0, through: 2000), [])
        XCTAssertFalse(run.session.skipButton(now: 2000).visible)
        XCTAssertEqual(run.session.shownMs(now: 2000), 0)
        XCTAssertEqual(run.session.phase, .waiting)
        XCTAssertEqual(run.session.opacity(now: 2000), 0)
        XCTAssertEqual(run.names, [])
    }

    func testCountdownStartsWhenTheFirstFrameIsOnScreen() {
        let run = SessionRun(videoConfig())
        run.tick(from: 0, through: 2000)
        run.send(.firstFrame, at: 2000)
        let ff = run.only("first_frame")
        XCTAssertEqual(ff?.tMs, 2000)
        XCTAssertEqual(ff?["fallback"], false)
        // "Skip 5" for the whole first second after the first frame, then once a second down.
        let expected: [(Int, String)] = [
            (2000, "Skip 5"), (2500, "Skip 5"), (2999, "Skip 5"),
            (3000, "Skip 4"), (3999, "Skip 4"), (4000, "Skip 3"), (5000, "Skip 2"),
            (6000, "Skip 1"), (6999, "Skip 1"), (7000, "Skip"), (60_000, "Skip")
        ]
        for (t, text) in expected {
            XCTAssertEqual(run.text(t), text, "at \(t)")
            XCTAssertTrue(run.session.skipButton(now: t).visible)
            XCTAssertTrue(run.session.skipButton(now: t).enabled)
        }
    }

    func testCountdownIsNeverNegative() {
        let run = SessionRun(videoConfig(durationMs: 1200))
        run.send(.firstFrame, at: 0)
        for t in stride(from: 0, through: 100_000, by: 250) {
            let text = run.text(t)
            XCTAssertFalse(text.contains("-"), "\(text) at \(t)")
            XCTAssertTrue(text == "Skip" || text == "Skip 1" || text == "Skip 2", "\(text) at \(t)")
        }
        XCTAssertEqual(run.text(1199), "Skip 1")
        XCTAssertEqual(run.text(1200), "Skip")
        XCTAssertEqual(run.session.skipButton(now: 100_000).progress, 1)
    }

    func testCountdownUsesTheMaxDurationCap() {
        let run = SessionRun(videoConfig(["--max-duration", "2"], durationMs: 30_000))
        run.send(.firstFrame, at: 100)
        XCTAssertEqual(run.text(100), "Skip 2")
        XCTAssertEqual(run.text(1100), "Skip 1")
    }

    func testSkipAfterShowsADisabledAdCountdownThenSkip() {
        let run = SessionRun(videoConfig(["--skip-after", "3"]))
        run.send(.firstFrame, at: 1000)
        let expected: [(Int, String, Bool)] = [
            (1000, "Ad 3", false), (1999, "Ad 3", false), (2000, "Ad 2", false), (3999, "Ad 1", false),
            (4000, "Skip 2", true), (5000, "Skip 1", true), (6000, "Skip", true)
        ]
        for (t, text, enabled) in expected {
            let b = run.session.skipButton(now: t)
            XCTAssertEqual(b.text, text, "at \(t)")
            XCTAssertEqual(b.enabled, enabled, "at \(t)")
            XCTAssertTrue(b.visible)
        }
    }

    func testSkipAfterCountsShownTimeNotWallTime() {
        let run = SessionRun(videoConfig(["--skip-after", "2"]))
        run.send(.firstFrame, at: 0)
        run.send(.pause(.focusLost), at: 500)
        XCTAssertEqual(run.text(10_000), "Ad 2")
        XCTAssertFalse(run.session.skipButton(now: 10_000).enabled)
        run.send(.resume(.focusLost), at: 10_000)
        XCTAssertEqual(run.text(11_499), "Ad 1")
        XCTAssertEqual(run.text(11_500), "Skip 3")
        XCTAssertTrue(run.session.skipButton(now: 11_500).enabled)
    }

    func testCountdownStopsWhilePaused() {
        let run = SessionRun(videoConfig())
        run.send(.firstFrame, at: 0)
        run.send(.pause(.minimized), at: 1500)
        XCTAssertEqual(run.text(1500), "Skip 4")
        XCTAssertEqual(run.text(30_000), "Skip 4")
        XCTAssertEqual(run.session.shownMs(now: 30_000), 1500)
        run.send(.resume(.minimized), at: 30_000)
        XCTAssertEqual(run.text(30_499), "Skip 4")
        XCTAssertEqual(run.text(30_500), "Skip 3")
    }

    func testRingStyleShowsTheWordAndProgress() {
        let run = SessionRun(videoConfig(["--skip-style", "ring", "--skip-after", "1"], durationMs: 4000))
        run.send(.firstFrame, at: 0)
        let disabled = run.session.skipButton(now: 500)
        XCTAssertEqual([disabled.visible, disabled.enabled], [true, false])
        XCTAssertEqual(disabled.text, "Ad")
        XCTAssertEqual(disabled.progress, 0.125, accuracy: 1e-9)
        let enabled = run.session.skipButton(now: 2000)
        XCTAssertEqual([enabled.visible, enabled.enabled], [true, true])
        XCTAssertEqual(enabled.text, "Skip")
        XCTAssertEqual(enabled.progress, 0.5, accuracy: 1e-9)
        XCTAssertEqual(run.session.skipButton(now: 9000).progress, 1)
    }

    func testSkipLabelReplacesTheWord() {
        let run = SessionRun(videoConfig(["--skip-label", "跳过"]))
        run.send(.firstFrame, at: 0)
        XCTAssertEqual(run.text(0), "跳过 5")
        XCTAssertEqual(run.text(5000), "跳过")
    }

    func testNoSkipHidesTheButton() {
        let run = SessionRun(videoConfig(["--no-skip"]))
        run.send(.firstFrame, at: 0)
        let b = run.session.skipButton(now: 1000)
        XCTAssertFalse(b.visible)
        XCTAssertFalse(b.enabled)
        XCTAssertEqual(b.text, "")
    }
}

final class AdSessionPauseTests: XCTestCase {
    func testWindowReasonsPauseAndResumeWithTheirNames() {
        let cases: [(PauseReason, String, String)] = [
            (.focusLost, "focus_lost", "focus_gained"),
            (.minimized, "minimized", "restored"),
            (.hidden, "hidden", "shown"),
            (.host, "host", "host"),
            (.user, "user", "user")
        ]
        for (reason, pauseName, resumeName) in cases {
            let run = SessionRun(videoConfig())
            run.send(.firstFrame, at: 100)
            XCTAssertEqual(run.send(.pause(reason), at: 1100), [.setPaused(true)], "\(reason)")
            XCTAssertTrue(run.session.isPaused)
            XCTAssertEqual(run.send(.resume(reason), at: 4100), [.setPaused(false)], "\(reason)")
            XCTAssertFalse(run.session.isPaused)
            let pause = run.only("pause"), resume = run.only("resume")
            XCTAssertEqual(pause?["reason"], .string(pauseName))
            XCTAssertEqual(pause?.tMs, 1100)
            XCTAssertEqual(pause?["shown_ms"], 1000)
            XCTAssertEqual(resume?["reason"], .string(resumeName))
            XCTAssertEqual(resume?.tMs, 4100)
            XCTAssertEqual(resume?["shown_ms"], 1000)
        }
    }

    func testHostAndUserPauseThroughControlAndKeys() {
        let run = SessionRun(videoConfig())
        run.send(.firstFrame, at: 0)
        XCTAssertEqual(run.send(.control(.pause), at: 1000), [.setPaused(true)])
        XCTAssertEqual(run.send(.control(.resume), at: 2000), [.setPaused(false)])
        XCTAssertEqual(run.send(.key(.pauseToggle), at: 3000), [.setPaused(true)])
        XCTAssertEqual(run.send(.key(.pauseToggle), at: 4000), [.setPaused(false)])
        XCTAssertEqual(run.events("pause").map { $0["reason"] }, ["host", "user"])
        XCTAssertEqual(run.events("resume").map { $0["reason"] }, ["host", "user"])
        XCTAssertEqual(run.session.shownMs(now: 5000), 3000)
    }

    func testShownMsLeavesOutPausedTime() {
        let run = SessionRun(videoConfig(["--transition", "none"], durationMs: 10_000))
        run.send(.firstFrame, at: 100)
        run.tick(from: 100, through: 1100)
        run.send(.pause(.minimized), at: 1100)
        run.tick(from: 1100, through: 4100)
        run.send(.resume(.minimized), at: 4100)
        run.tick(from: 4100, through: 5100)
        XCTAssertEqual(run.tapSkip(at: 5100), [.finish(.skipped)])
        XCTAssertEqual(run.only("skip")?["shown_ms"], 2000)
        let end = run.only("end")
        XCTAssertEqual(end?["outcome"], "skipped")
        XCTAssertEqual(end?["shown_ms"], 2000)
        XCTAssertEqual(end?.tMs, 5100)
    }

    func testResumeWithAnotherReasonStillHeldStaysPaused() {
        let run = SessionRun(videoConfig())
        run.send(.firstFrame, at: 0)
        XCTAssertEqual(run.send(.pause(.focusLost), at: 1000), [.setPaused(true)])
        XCTAssertEqual(run.send(.pause(.minimized), at: 1200), [], "already paused: no second pause")
        XCTAssertEqual(run.send(.resume(.minimized), at: 2000), [], "focus is still lost")
        XCTAssertTrue(run.session.isPaused)
        XCTAssertEqual(run.session.pauseReasons, [.focusLost])
        XCTAssertEqual(run.text(2500), "Skip 4")
        XCTAssertEqual(run.send(.resume(.focusLost), at: 3000), [.setPaused(false)])
        XCTAssertEqual(run.names, ["first_frame", "pause", "resume"])
        XCTAssertEqual(run.only("resume")?["reason"], "focus_gained")
        XCTAssertEqual(run.session.shownMs(now: 3500), 1500)
    }

    func testHostPauseOutlastsFocusReturn() {
        let run = SessionRun(videoConfig())
        run.send(.firstFrame, at: 0)
        run.send(.control(.pause), at: 1000)
        run.send(.pause(.focusLost), at: 1500)
        XCTAssertEqual(run.send(.resume(.focusLost), at: 2000), [])
        XCTAssertTrue(run.session.isPaused)
        XCTAssertEqual(run.send(.control(.resume), at: 3000), [.setPaused(false)])
        XCTAssertEqual(run.only("resume")?["reason"], "host")
    }

    func testRepeatedPauseAndStrayResumeDoNothing() {
        let run = SessionRun(videoConfig())
        run.send(.firstFrame, at: 0)
        XCTAssertEqual(run.send(.resume(.focusLost), at: 500), [], "nothing to resume")
        run.send(.pause(.hidden), at: 1000)
        XCTAssertEqual(run.send(.pause(.hidden), at: 1100), [])
        XCTAssertEqual(run.send(.resume(.focusLost), at: 1200), [], "not the reason held")
        XCTAssertTrue(run.session.isPaused)
        XCTAssertEqual(run.names, ["first_frame", "pause"])
    }

    func testNoPauseOnBlurIgnoresWindowReasonsButNotHostOrUser() {
        let run = SessionRun(videoConfig(["--no-pause-on-blur"]))
        run.send(.firstFrame, at: 0)
        for reason in [PauseReason.focusLost, .minimized, .hidden] {
            XCTAssertEqual(run.send(.pause(reason), at: 1000), [], "\(reason)")
            XCTAssertFalse(run.session.isPaused)
            XCTAssertEqual(run.send(.resume(reason), at: 1500), [])
        }
        XCTAssertEqual(run.names, ["first_frame"])
        XCTAssertEqual(run.session.shownMs(now: 2000), 2000)
        XCTAssertEqual(run.send(.control(.pause), at: 2000), [.setPaused(true)])
        XCTAssertEqual(run.only("pause")?["reason"], "host")
        run.send(.control(.resume), at: 2500)
        XCTAssertEqual(run.send(.key(.pauseToggle), at: 3000), [.setPaused(true)])
        XCTAssertEqual(run.events("pause").last?["reason"], "user")
    }

    func testPauseBeforeTheFirstFrame() {
        let run = SessionRun(videoConfig(["--transition", "none"]))
        XCTAssertEqual(run.send(.pause(.focusLost), at: 200), [.setPaused(true)])
        XCTAssertEqual(run.only("pause")?["shown_ms"], 0)
        // The first picture arrives while paused: it is on screen but the countdown has not begun.
        run.send(.firstFrame, at: 400)
        XCTAssertEqual(run.session.phase, .showing)
        XCTAssertEqual(run.text(5000), "Skip 5")
        XCTAssertEqual(run.session.shownMs(now: 5000), 0)
        run.tick(from: 400, through: 5000)
        XCTAssertEqual(run.events("quartile").count, 0)
        XCTAssertEqual(run.send(.resume(.focusLost), at: 5000), [.setPaused(false)])
        XCTAssertEqual(run.text(6000), "Skip 4")
        run.tapSkip(at: 6000)
        XCTAssertEqual(run.only("end")?["shown_ms"], 1000)
    }

    func testPauseAndResumeBeforeTheFirstFrameStartTheCountdownAtTheFrame() {
        let run = SessionRun(videoConfig())
        run.send(.pause(.host), at: 100)
        run.send(.resume(.host), at: 300)
        run.send(.firstFrame, at: 500)
        XCTAssertEqual(run.session.shownMs(now: 1500), 1000)
        XCTAssertEqual(run.names, ["pause", "resume", "first_frame"])
    }

    func testFirstFrameDeadlineDoesNotRunWhilePaused() {
        // A window minimized while the ad loads must not turn into a timeout.
        let run = SessionRun(videoConfig(["--wait", "3"]))
        run.send(.pause(.minimized), at: 1000)
        XCTAssertEqual(run.tick(from: 1000, through: 20_000), [])
        run.send(.resume(.minimized), at: 20_000)
        XCTAssertEqual(run.tick(from: 20_000, through: 21_984), [])
        XCTAssertEqual(run.tick(22_000), [.finish(.timeout)])
        XCTAssertEqual(run.only("wait_expired")?["waited_ms"], 3000)
        XCTAssertEqual(run.outcome, "timeout")
    }

    func testQuartilesWaitWhilePaused() {
        let run = SessionRun(imageConfig(["--duration", "4"]))
        run.send(.firstFrame, at: 0)
        run.send(.pause(.focusLost), at: 900)
        run.tick(from: 900, through: 10_000)
        XCTAssertEqual(run.events("quartile").count, 0)
        XCTAssertFalse(run.session.isOver)
        run.send(.resume(.focusLost), at: 10_000)
        run.tick(10_099)
        XCTAssertEqual(run.events("quartile").count, 0)
        run.tick(10_100)
        XCTAssertEqual(run.events("quartile").map { $0["quartile"] }, [25])
    }
}

final class AdSessionSkipAndClickTests: XCTestCase {
    func testTapInsideTheSkipButtonSkipsAfterTheFade() {
        let run = SessionRun(videoConfig(["--link", "https://example.com/x"]))
        run.send(.firstFrame, at: 100)
        XCTAssertEqual(run.tapSkip(at: 1600), [.setPaused(true)])
        XCTAssertEqual(run.session.phase, .leaving(.skipped, since: 1600))
        let skip = run.only("skip")
        XCTAssertEqual(skip?["via"], "pointer")
        XCTAssertEqual(skip?["shown_ms"], 1500)
        XCTAssertEqual(run.events("click").count, 0, "a skip is not a click")
        XCTAssertEqual(run.tick(from: 1600, through: 1999, step: 1), [])
        XCTAssertEqual(run.endEvents.count, 0)
        XCTAssertEqual(run.tick(2000), [.finish(.skipped)])
        let end = run.only("end")
        XCTAssertEqual(end?["outcome"], "skipped")
        XCTAssertEqual(end?["shown_ms"], 1500, "the leave transition is not shown time")
        XCTAssertEqual(end?.tMs, 2000)
        XCTAssertTrue(run.session.isOver)
        XCTAssertEqual(Outcome.skipped.exitCode, 0)
    }

    func testEveryEdgeOfTheSkipButtonCounts() {
        let layout = SessionRun.phone
        let r = layout.skipButton
        let inside: [(Double, Double)] = [
            (Double(r.x), Double(r.y)), (Double(r.maxX) - 0.5, Double(r.maxY) - 0.5),
            (Double(r.x), Double(r.maxY) - 1), (Double(r.maxX) - 1, Double(r.y))
        ]
        for (x, y) in inside {
            let run = SessionRun(videoConfig(["--link", "https://example.com"]))
            run.send(.firstFrame, at: 0)
            run.send(.pointerUp(x: x, y: y), at: 500)
            XCTAssertEqual(run.events("skip").count, 1, "(\(x), \(y)) is inside \(r)")
            XCTAssertEqual(run.events("click").count, 0)
        }
        let outside: [(Double, Double)] = [
            (Double(r.x) - 1, Double(r.midY)), (Double(r.maxX), Double(r.midY)),
            (Double(r.midX), Double(r.y) - 1), (Double(r.midX), Double(r.maxY))
        ]
        for (x, y) in outside {
            let run = SessionRun(videoConfig(["--link", "https://example.com"]))
            run.send(.firstFrame, at: 0)
            run.send(.pointerUp(x: x, y: y), at: 500)
            XCTAssertEqual(run.events("skip").count, 0, "(\(x), \(y)) is outside \(r)")
            XCTAssertEqual(run.events("click").count, 1)
        }
    }

    func testEscapeSkips() {
        let run = SessionRun(videoConfig())
        run.send(.firstFrame, at: 0)
        run.send(.key(.escape), at: 700)
        XCTAssertEqual(run.only("skip")?["via"], "key")
        run.tick(1100)
        XCTAssertEqual(run.outcome, "skipped")
    }

    func testHostSkip() {
        let run = SessionRun(videoConfig(["--transition", "none"]))
        run.send(.firstFrame, at: 0)
        XCTAssertEqual(run.send(.control(.skip), at: 700), [.finish(.skipped)])
        XCTAssertEqual(run.only("skip")?["via"], "host")
        XCTAssertEqual(run.outcome, "skipped")
    }

    func testHostSkipActsAsAViewerWouldWhileTheButtonIsDisabled() {
        let run = SessionRun(videoConfig(["--skip-after", "3", "--transition", "none"]))
        run.send(.firstFrame, at: 0)
        XCTAssertEqual(run.send(.control(.skip), at: 1000), [], "disabled button: no skip")
        XCTAssertEqual(run.send(.control(.skip), at: 3100), [.finish(.skipped)])
        let noButton = SessionRun(videoConfig(["--no-skip", "--transition", "none"]))
        noButton.send(.firstFrame, at: 0)
        XCTAssertEqual(noButton.send(.control(.skip), at: 1000), [])
        XCTAssertEqual(noButton.send(.control(.end), at: 1100), [.finish(.endedByHost)], "end always works")
    }

    func testSkipWhileDisabledDoesNothing() {
        let run = SessionRun(videoConfig(["--skip-after", "3", "--link", "https://example.com"]))
        run.send(.firstFrame, at: 0)
        XCTAssertEqual(run.tapSkip(at: 1000), [])
        XCTAssertEqual(run.send(.key(.escape), at: 1500), [])
        XCTAssertEqual(run.names, ["first_frame"], "a tap on the disabled button is neither a skip nor a click")
        XCTAssertEqual(run.session.phase, .showing)
        XCTAssertEqual(run.tapSkip(at: 3000), [.setPaused(true)])
        XCTAssertEqual(run.only("skip")?["shown_ms"], 3000)
    }

    func testEscapeAndTapWithNoSkip() {
        let run = SessionRun(videoConfig(["--no-skip"]))
        run.send(.firstFrame, at: 0)
        XCTAssertEqual(run.send(.key(.escape), at: 1000), [])
        XCTAssertEqual(run.tapSkip(at: 1000), [], "no button, no link: nothing")
        XCTAssertEqual(run.names, ["first_frame"])
        XCTAssertEqual(run.session.phase, .showing)
    }

    func testNoSkipMakesTheCornerPartOfTheLink() {
        let run = SessionRun(videoConfig(["--no-skip", "--link", "https://example.com"]))
        run.send(.firstFrame, at: 0)
        run.tapSkip(at: 1000)
        XCTAssertEqual(run.events("skip").count, 0)
        XCTAssertEqual(run.only("click")?["link"], "https://example.com")
    }

    func testSkipBeforeTheFirstFrameIsIgnored() {
        let run = SessionRun(videoConfig(["--link", "https://example.com"]))
        XCTAssertEqual(run.tapSkip(at: 100), [])
        XCTAssertEqual(run.tapAd(at: 100), [])
        XCTAssertEqual(run.send(.key(.escape), at: 100), [])
        XCTAssertEqual(run.send(.control(.skip), at: 100), [])
        XCTAssertEqual(run.send(.control(.click), at: 100), [])
        // The viewer's taps do nothing; the host's commands are answered, not dropped.
        XCTAssertEqual(run.names, ["control_error", "control_error"])
        XCTAssertEqual(
            run.events("control_error").map { $0["message"] },
            [
                .string("skip ignored: the ad is not on screen yet (it acts once the first frame is shown)"),
                .string("click ignored: the ad is not on screen yet (it acts once the first frame is shown)")
            ])
        XCTAssertEqual(run.events("control_error").map { $0["line"] }, [.string("skip"), .string("click")])
        XCTAssertEqual(run.session.phase, .waiting)
    }

    /// A host skip the button does not offer yet, or with no button, and a click with no link,
    /// each get a `control_error` saying why.
    func testHostCommandsThatCannotActAreAnswered() {
        let run = SessionRun(videoConfig(["--skip-after", "3", "--transition", "none"]))
        run.send(.firstFrame, at: 0)
        run.send(.control(.skip), at: 1000)
        run.send(.control(.click), at: 1100)
        XCTAssertEqual(
            run.events("control_error").map { $0["message"] },
            [
                .string("skip ignored: the skip button works in 2 s (--skip-after); send end to end the ad now"),
                .string("click ignored: the ad has no link")
            ])
        let noButton = SessionRun(videoConfig(["--no-skip"]))
        noButton.send(.firstFrame, at: 0)
        noButton.send(.control(.skip), at: 500)
        XCTAssertEqual(
            noButton.only("control_error")?["message"], "skip ignored: there is no skip button (--no-skip); send end to end the ad")
    }

    func testClickOnTheAdOpensTheLinkOnlyWithOpenLinks() {
        let run = SessionRun(videoConfig(["--link", "https://example.com/offer?a=1"]))
        run.send(.firstFrame, at: 0)
        XCTAssertEqual(run.tapAd(at: 2500), [.setPaused(true)])
        let click = run.only("click")
        XCTAssertEqual(click?["link"], "https://example.com/offer?a=1")
        XCTAssertEqual(click?["shown_ms"], 2500)
        XCTAssertEqual(click?.tMs, 2500)
        run.tick(2900)
        XCTAssertEqual(run.outcome, "clicked")
        XCTAssertEqual(run.only("end")?["shown_ms"], 2500)
        XCTAssertFalse(run.actions.contains(.openLink("https://example.com/offer?a=1")))

        // With --open-links the ad waits, paused, for the opener's verdict: it ends once it comes.
        let opening = SessionRun(videoConfig(["--link", "https://example.com/offer", "--open-links", "--transition", "none"]))
        opening.send(.firstFrame, at: 0)
        XCTAssertEqual(opening.tapAd(at: 1000), [.openLink("https://example.com/offer"), .setPaused(true)])
        XCTAssertEqual(opening.tick(1100), [])
        XCTAssertEqual(opening.send(.linkOpened(failure: nil), at: 1200), [.finish(.clicked)])
        XCTAssertEqual(opening.outcome, "clicked")
        XCTAssertEqual(opening.only("end")?["shown_ms"], 1000, "shown time stops at the click")
        XCTAssertTrue(opening.events("link_open_failed").isEmpty)
    }

    /// An opener that fails (xdg-open exits 4): `link_open_failed` with its status, before the `end`.
    func testAFailedLinkOpenerIsSaidBeforeTheEnd() {
        let run = SessionRun(videoConfig(["--link", "https://example.com/offer", "--open-links", "--transition", "fade"]))
        run.send(.firstFrame, at: 0)
        run.tapAd(at: 1000)
        XCTAssertEqual(run.send(.linkOpened(failure: "xdg-open exited with status 4"), at: 1100), [], "the fade still runs")
        XCTAssertEqual(run.tick(1400), [.finish(.clicked)])
        XCTAssertEqual(Array(run.names.suffix(3)), ["click", "link_open_failed", "end"])
        XCTAssertEqual(run.only("link_open_failed")?["message"], "xdg-open exited with status 4")
        XCTAssertEqual(run.only("link_open_failed")?["link"], "https://example.com/offer")
        // An opener that never answers (a browser in the foreground) holds the ad at most linkWaitMs.
        let stuck = SessionRun(videoConfig(["--link", "https://example.com/", "--open-links", "--transition", "none"]))
        stuck.send(.firstFrame, at: 0)
        stuck.tapAd(at: 500)
        XCTAssertEqual(stuck.tick(500 + AdSession.linkWaitMs - 1), [])
        XCTAssertEqual(stuck.tick(500 + AdSession.linkWaitMs), [.finish(.clicked)])
        XCTAssertEqual(stuck.send(.linkOpened(failure: "late"), at: 5000), [], "after the end, nothing")
    }

    func testHostClick() {
        let run = SessionRun(videoConfig(["--link", "http://example.com", "--transition", "none"]))
        run.send(.firstFrame, at: 0)
        XCTAssertEqual(run.send(.control(.click), at: 800), [.finish(.clicked)])
        XCTAssertEqual(run.only("click")?["link"], "http://example.com")
    }

    func testClickWithoutALinkDoesNothing() {
        let run = SessionRun(imageConfig(["--duration", "2", "--transition", "none"]))
        run.send(.firstFrame, at: 0)
        XCTAssertEqual(run.tapAd(at: 500), [])
        XCTAssertEqual(run.send(.control(.click), at: 600), [])
        XCTAssertEqual(run.names, ["first_frame", "control_error"], "the host is told why; the viewer's tap does nothing")
        run.tick(from: 0, through: 2000)
        XCTAssertEqual(run.outcome, "completed", "the ad carries on to its end")
    }

    func testTheLogoBandIsNotALink() {
        let window = Size(width: 720, height: 1280)
        let layout = AdLayout(window: window, mode: .logoBottom, skipStyle: .text)
        let run = SessionRun(
            videoConfig(["--link", "https://example.com", "--layout", "logo-bottom", "--logo", "logo.png"]),
            layout: layout)
        run.send(.firstFrame, at: 0)
        XCTAssertEqual(run.send(.pointerUp(x: 360, y: 1200), at: 500), [], "a tap on the logo")
        XCTAssertEqual(run.names, ["first_frame"])
        run.send(.pointerUp(x: 360, y: 500), at: 600)
        XCTAssertEqual(run.only("click")?["shown_ms"], 600)
    }

    func testMuteTogglesAndHostMute() {
        let run = SessionRun(videoConfig(["--mute"]))
        XCTAssertTrue(run.session.muted)
        run.send(.firstFrame, at: 0)
        XCTAssertEqual(run.send(.control(.mute), at: 100), [], "already muted")
        XCTAssertEqual(run.send(.key(.mute), at: 200), [.setMuted(false)])
        XCTAssertEqual(run.send(.control(.unmute), at: 300), [], "already unmuted")
        XCTAssertEqual(run.send(.key(.mute), at: 400), [.setMuted(true)])
        XCTAssertEqual(run.send(.control(.unmute), at: 500), [.setMuted(false)])
        XCTAssertEqual(run.names, ["first_frame", "unmute", "mute", "unmute"])
        XCTAssertEqual(run.events.filter { $0.name != "skip_available" }.map(\.tMs), [0, 200, 400, 500])
        XCTAssertFalse(run.session.muted)
        XCTAssertEqual(run.session.phase, .showing, "muting does not end or pause the ad")
        XCTAssertFalse(run.session.isPaused)
    }
}

final class AdSessionEndTests: XCTestCase {
    func testEndOfStreamCompletes() {
        let run = SessionRun(videoConfig(durationMs: 4000))
        run.send(.firstFrame, at: 500)
        run.tick(from: 500, through: 4500, step: 10)
        XCTAssertEqual(run.send(.endOfStream, at: 4520), [.setPaused(true)])
        XCTAssertEqual(run.only("complete")?["shown_ms"], 4020)
        run.tick(from: 4520, through: 5000, step: 10)
        XCTAssertEqual(run.names, ["first_frame", "quartile", "quartile", "quartile", "complete", "end"])
        XCTAssertEqual(run.events("quartile").map { $0["quartile"] }, [25, 50, 75])
        XCTAssertEqual(run.events("quartile").map(\.tMs), [1500, 2500, 3500])
        let end = run.only("end")
        XCTAssertEqual(end?["outcome"], "completed")
        XCTAssertEqual(end?["shown_ms"], 4020)
        XCTAssertEqual(end?.tMs, 4920)
        XCTAssertEqual(run.actions.last, .finish(.completed))
    }

    func testAVideoLastsItsOwnLength() {
        // No cap: only the end of the stream ends a video, whatever its reported duration.
        let run = SessionRun(videoConfig(durationMs: 3000))
        run.send(.firstFrame, at: 0)
        run.tick(from: 0, through: 10_000, step: 50)
        XCTAssertFalse(run.session.isOver)
        XCTAssertEqual(run.events("complete").count, 0)
        run.send(.endOfStream, at: 10_000)
        XCTAssertEqual(run.only("complete")?["shown_ms"], 10_000)
    }

    /// Issue 29: a cap is not a completion. The ad ends at the cap as `capped`, with no
    /// `complete`, and its quartiles are fractions of its own 8 s (2 s shown: the first only).
    func testMaxDurationCapsAVideo() {
        let run = SessionRun(videoConfig(["--max-duration", "2", "--transition", "none"], durationMs: 8000))
        run.send(.firstFrame, at: 300)
        XCTAssertEqual(run.tick(from: 300, through: 2299, step: 1), [])
        XCTAssertEqual(run.tick(2300), [.finish(.capped)])
        XCTAssertEqual(run.events("complete").count, 0)
        XCTAssertEqual(run.events("quartile").map { $0["quartile"] }, [25])
        XCTAssertEqual(run.only("end")?["shown_ms"], 2000)
        XCTAssertEqual(run.outcome, "capped")
    }

    /// A cap at (or within half a second of) the video's own length is no cap: it completes.
    func testACapAtTheVideosLengthCompletes() {
        let run = SessionRun(videoConfig(["--max-duration", "3", "--transition", "none"], durationMs: 3200))
        run.send(.firstFrame, at: 0)
        run.tick(from: 0, through: 3000, step: 10)
        XCTAssertEqual(run.outcome, "completed")
        XCTAssertEqual(run.events("quartile").count, 3)
        XCTAssertEqual(run.events("complete").count, 1)
    }

    func testMaxDurationLongerThanTheVideoWaitsForTheEnd() {
        let run = SessionRun(videoConfig(["--max-duration", "10"], durationMs: 3000))
        run.send(.firstFrame, at: 0)
        run.tick(from: 0, through: 4000)
        XCTAssertFalse(run.session.isOver)
        XCTAssertEqual(run.text(1000), "Skip 2", "the countdown is the video's own length")
        run.send(.endOfStream, at: 4000)
        XCTAssertEqual(run.events("complete").count, 1)
    }

    func testAnImageLastsItsDurationOfShownTime() {
        let run = SessionRun(imageConfig(["--duration", "5", "--transition", "none"]))
        run.send(.firstFrame, at: 100)
        XCTAssertEqual(run.tick(from: 100, through: 1100, step: 1), [])
        run.send(.pause(.focusLost), at: 1100)
        XCTAssertEqual(run.tick(from: 1100, through: 3100, step: 1), [])
        run.send(.resume(.focusLost), at: 3100)
        XCTAssertEqual(run.tick(from: 3100, through: 7099, step: 1), [])
        XCTAssertFalse(run.session.isOver)
        XCTAssertEqual(run.tick(7100), [.finish(.completed)])
        XCTAssertEqual(run.only("end")?["shown_ms"], 5000)
        XCTAssertEqual(run.only("end")?.tMs, 7100)
    }

    func testDefaultImageDurationIsFiveSeconds() {
        let run = SessionRun(imageConfig(["--transition", "none"]))
        run.send(.firstFrame, at: 0)
        XCTAssertEqual(run.text(0), "Skip 5")
        run.tick(4999)
        XCTAssertFalse(run.session.isOver)
        run.tick(5000)
        XCTAssertEqual(run.outcome, "completed")
    }

    func testQuartilesOnceEachInOrderEvenWhenATickJumps() {
        let run = SessionRun(imageConfig(["--duration", "4"]))
        run.send(.firstFrame, at: 0)
        run.tick(500)
        XCTAssertEqual(run.events("quartile").count, 0)
        run.tick(3500)
        XCTAssertEqual(run.events("quartile").map { $0["quartile"] }, [25, 50, 75])
        XCTAssertEqual(run.events("quartile").map(\.tMs), [3500, 3500, 3500])
        run.tick(from: 3500, through: 3990, step: 1)
        XCTAssertEqual(run.events("quartile").count, 3)
        run.tick(4000)
        XCTAssertEqual(run.events("quartile").count, 3, "no quartile at completion after all three")
        XCTAssertEqual(run.events("complete").count, 1)
    }

    func testQuartilesAtTheirMoments() {
        let run = SessionRun(imageConfig(["--duration", "4"]))
        run.send(.firstFrame, at: 0)
        run.tick(from: 0, through: 4400, step: 1)
        XCTAssertEqual(run.events("quartile").map(\.tMs), [1000, 2000, 3000])
        XCTAssertEqual(run.names, ["first_frame", "quartile", "quartile", "quartile", "complete", "end"])
    }

    /// A stream ending at 2.6 s of a declared 8 s sends no quartile it did not reach, and no
    /// `complete` (see AdSessionTruncationTests).
    func testEarlyEndOfStreamSendsNoQuartileItDidNotReach() {
        let run = SessionRun(videoConfig(durationMs: 8000))
        run.send(.firstFrame, at: 0)
        run.tick(from: 0, through: 2500)
        XCTAssertEqual(run.events("quartile").count, 1)
        run.send(.endOfStream, at: 2600)
        XCTAssertEqual(run.events("quartile").map { $0["quartile"] }, [25])
        XCTAssertEqual(run.names.suffix(2), ["quartile", "error"])
    }

    func testSkippedAdsSendOnlyTheQuartilesReached() {
        let run = SessionRun(videoConfig(durationMs: 4000))
        run.send(.firstFrame, at: 0)
        run.tick(from: 0, through: 2400)
        run.tapSkip(at: 2400)
        run.tick(from: 2400, through: 3000)
        XCTAssertEqual(run.events("quartile").map { $0["quartile"] }, [25, 50])
        XCTAssertEqual(run.events("complete").count, 0)
        XCTAssertEqual(run.outcome, "skipped")
    }

    func testFadeInOverThreeHundredMs() {
        let run = SessionRun(videoConfig())
        run.send(.firstFrame, at: 1000)
        XCTAssertEqual(run.session.opacity(now: 1000), 0, accuracy: 1e-9)
        XCTAssertEqual(run.session.opacity(now: 1150), 0.5, accuracy: 1e-9)
        XCTAssertEqual(run.session.opacity(now: 1300), 1, accuracy: 1e-9)
        XCTAssertEqual(run.session.opacity(now: 9000), 1, accuracy: 1e-9)
        XCTAssertEqual(run.session.zoom(now: 1200), 1)
    }

    func testFadeTransitionLeavesOverFourHundredMs() {
        let run = SessionRun(videoConfig())
        run.send(.firstFrame, at: 0)
        run.tapSkip(at: 2000)
        XCTAssertEqual(run.session.opacity(now: 2000), 1, accuracy: 1e-9)
        XCTAssertEqual(run.session.opacity(now: 2200), 0.5, accuracy: 1e-9)
        XCTAssertEqual(run.session.zoom(now: 2200), 1, "fade does not zoom")
        run.tick(2400)
        XCTAssertTrue(run.session.isOver)
        XCTAssertEqual(run.session.opacity(now: 2400), 0)
    }

    func testFadeOutStartsFromAPartialFadeIn() {
        let run = SessionRun(videoConfig())
        run.send(.firstFrame, at: 0)
        run.send(.key(.escape), at: 150)
        XCTAssertEqual(run.session.opacity(now: 150), 0.5, accuracy: 1e-9, "no jump to full brightness")
        // It only gets darker from there: the fade in stops when the ad starts to leave.
        var last = 0.5
        for t in stride(from: 150, through: 550, by: 10) {
            let o = run.session.opacity(now: t)
            XCTAssertLessThanOrEqual(o, last + 1e-9, "at \(t)")
            last = o
        }
        XCTAssertEqual(run.session.opacity(now: 350), 0.25, accuracy: 1e-9)
        XCTAssertEqual(run.session.opacity(now: 550), 0, accuracy: 1e-9)
    }

    func testZoomTransition() {
        let run = SessionRun(videoConfig(["--transition", "zoom"]))
        run.send(.firstFrame, at: 0)
        run.send(.control(.skip), at: 1000)
        XCTAssertEqual(run.session.zoom(now: 1000), 1, accuracy: 1e-9)
        XCTAssertEqual(run.session.zoom(now: 1200), 1.125, accuracy: 1e-9)
        XCTAssertEqual(run.session.zoom(now: 1400), 1.25, accuracy: 1e-9)
        XCTAssertEqual(run.tick(1399), [])
        XCTAssertEqual(run.tick(1400), [.finish(.skipped)])
    }

    func testNoTransitionEndsAtOnce() {
        let run = SessionRun(videoConfig(["--transition", "none"]))
        run.send(.firstFrame, at: 0)
        XCTAssertEqual(run.send(.endOfStream, at: 5000), [.finish(.completed)])
        XCTAssertEqual(run.names.suffix(2), ["complete", "end"])
        XCTAssertTrue(run.session.isOver)
        XCTAssertEqual(run.session.opacity(now: 5000), 1, "no fade")
        XCTAssertEqual(run.only("end")?.tMs, 5000)
    }

    func testHostEndWhileShowingAndWhileWaiting() {
        let showing = SessionRun(videoConfig())
        showing.send(.firstFrame, at: 0)
        XCTAssertEqual(showing.send(.control(.end), at: 1200), [.setPaused(true)])
        showing.tick(1600)
        XCTAssertEqual(showing.outcome, "ended_by_host")
        XCTAssertEqual(showing.only("end")?["shown_ms"], 1200)
        XCTAssertEqual(Outcome.endedByHost.exitCode, 0)

        let waiting = SessionRun(videoConfig())
        XCTAssertEqual(waiting.send(.control(.end), at: 700), [.finish(.endedByHost)], "nothing shown: no fade")
        XCTAssertEqual(waiting.only("end")?["shown_ms"], 0)
        XCTAssertEqual(waiting.outcome, "ended_by_host")
    }

    func testDoubleEndGivesOneEndEvent() {
        let run = SessionRun(videoConfig())
        run.send(.firstFrame, at: 0)
        run.send(.control(.end), at: 1000)
        XCTAssertEqual(run.send(.control(.end), at: 1100), [])
        run.tick(1400)
        XCTAssertEqual(run.send(.control(.end), at: 1500), [])
        XCTAssertEqual(run.endEvents.count, 1)
        XCTAssertEqual(run.actions.filter { if case .finish = $0 { return true } else { return false } }, [.finish(.endedByHost)])
    }

    func testInputsDuringTheLeaveTransitionChangeNothing() {
        let run = SessionRun(videoConfig(["--link", "https://example.com"]))
        run.send(.firstFrame, at: 0)
        run.tapSkip(at: 1000)
        let before = run.names
        XCTAssertEqual(run.send(.control(.end), at: 1050), [])
        XCTAssertEqual(run.tapAd(at: 1100), [])
        XCTAssertEqual(run.tapSkip(at: 1100), [])
        XCTAssertEqual(run.send(.key(.escape), at: 1150), [])
        XCTAssertEqual(run.send(.endOfStream, at: 1200), [])
        XCTAssertEqual(run.send(.control(.click), at: 1200), [])
        XCTAssertEqual(run.send(.firstFrame, at: 1200), [])
        XCTAssertEqual(run.send(.adUnavailable(code: .decodeFailed, message: "x"), at: 1200), [])
        // The picture is frozen for the fade: a focus change must not restart the video or add events.
        XCTAssertEqual(run.send(.pause(.focusLost), at: 1250), [])
        XCTAssertEqual(run.send(.resume(.focusLost), at: 1300), [])
        XCTAssertEqual(run.names, before + ["control_error"], "only the host's click is answered")
        XCTAssertEqual(run.only("control_error")?["message"], "click ignored: the ad is already ending")
        run.tick(1400)
        XCTAssertEqual(run.outcome, "skipped")
        XCTAssertEqual(run.endEvents.count, 1)
    }

    func testPausedThenSkippedStaysFrozenThroughTheFade() {
        let run = SessionRun(videoConfig())
        run.send(.firstFrame, at: 0)
        run.send(.control(.pause), at: 1000)
        run.send(.control(.skip), at: 2000)
        XCTAssertEqual(run.send(.control(.resume), at: 2100), [], "no setPaused(false) while leaving")
        XCTAssertFalse(run.actions.contains(.setPaused(false)))
        run.tick(2400)
        XCTAssertEqual(run.only("end")?["shown_ms"], 1000)
        XCTAssertEqual(run.only("skip")?["shown_ms"], 1000)
    }

    func testNothingAfterTheEnd() {
        let run = SessionRun(videoConfig(["--link", "https://example.com", "--transition", "none"]))
        run.send(.firstFrame, at: 0)
        run.tapSkip(at: 1000)
        let count = run.events.count
        let inputs: [SessionInput] =
            [
                .firstFrame, .pause(.focusLost), .resume(.focusLost), .pause(.host), .pointerUp(x: 10, y: 10),
                .key(.escape), .key(.mute), .key(.pauseToggle), .endOfStream,
                .adUnavailable(code: .decodeFailed, message: "y"), .failed(code: .rendererFailed, message: "z"), .closeRequested
            ] + ControlCommand.allCases.map { .control($0) }
        for (i, input) in inputs.enumerated() {
            XCTAssertEqual(run.send(input, at: 2000 + i), [], "\(input)")
        }
        XCTAssertEqual(run.tick(from: 2000, through: 60_000, step: 500), [])
        XCTAssertEqual(run.events.count, count)
        XCTAssertEqual(run.session.phase, .ended(.skipped))
        XCTAssertEqual(run.session.shownMs(now: 60_000), 1000, "shown time stops at the end")
    }
}

final class AdSessionReadyAndCloseTests: XCTestCase {
    func testVideoReadySetsTheCountdownToTheVideosLength() {
        let run = SessionRun(videoConfig(durationMs: nil))
        run.session.videoReady(durationMs: 7000)
        run.send(.firstFrame, at: 0)
        XCTAssertEqual(run.text(0), "Skip 7")
        run.tick(from: 0, through: 20_000, step: 100)
        XCTAssertFalse(run.session.isOver, "the stream's end, not the length, ends a video")
        XCTAssertEqual(run.events("quartile").map(\.tMs), [1800, 3500, 5300])
    }

    func testVideoReadyIsCappedByMaxDuration() {
        let run = SessionRun(videoConfig(["--max-duration", "3"], durationMs: nil))
        run.session.videoReady(durationMs: 9000)
        run.send(.firstFrame, at: 0)
        XCTAssertEqual(run.text(0), "Skip 3")
        run.tick(3000)
        run.tick(3400)
        XCTAssertEqual(run.events("complete").count, 0, "3 s of a 9 s ad is not its completion")
        XCTAssertEqual(run.outcome, "capped")
    }

    func testVideoReadyWithoutALengthKeepsTheDefault() {
        let run = SessionRun(videoConfig(durationMs: nil))
        run.session.videoReady(durationMs: nil)
        run.session.videoReady(durationMs: 0)
        run.send(.firstFrame, at: 0)
        XCTAssertEqual(run.text(0), "Skip 5")
    }

    func testImageReadyRunsForItsDuration() {
        let run = SessionRun(videoConfig(["--transition", "none"], durationMs: nil))
        run.session.imageReady(durationMs: 2000)
        run.send(.firstFrame, at: 100)
        XCTAssertEqual(run.text(100), "Skip 2")
        XCTAssertEqual(run.tick(from: 100, through: 2099, step: 1), [])
        XCTAssertEqual(run.tick(2100), [.finish(.completed)])
    }

    func testClosingTheWindowSkipsEvenWhenSkippingIsNotAllowed() {
        let run = SessionRun(videoConfig(["--skip-after", "5", "--no-skip"]))
        run.send(.firstFrame, at: 0)
        XCTAssertEqual(run.send(.closeRequested, at: 1000), [.setPaused(true)])
        XCTAssertEqual(run.only("skip")?["via"], "close")
        run.tick(1400)
        XCTAssertEqual(run.outcome, "skipped")

        let waiting = SessionRun(videoConfig())
        XCTAssertEqual(waiting.send(.closeRequested, at: 50), [.finish(.skipped)])
        XCTAssertEqual(waiting.names, ["skip", "end"])
        XCTAssertEqual(waiting.send(.closeRequested, at: 60), [])
    }
}

final class AdSessionWaitAndFallbackTests: XCTestCase {
    func testNoFirstFrameWithoutFallbackTimesOut() {
        let run = SessionRun(videoConfig(["--wait", "3"]))
        XCTAssertEqual(run.tick(from: 0, through: 2999, step: 1), [])
        XCTAssertEqual(run.tick(3000), [.finish(.timeout)])
        XCTAssertEqual(run.names, ["wait_expired", "end"])
        XCTAssertEqual(run.only("wait_expired")?["waited_ms"], 3000)
        let end = run.only("end")
        XCTAssertEqual(end?["outcome"], "timeout")
        XCTAssertEqual(end?["shown_ms"], 0)
        XCTAssertEqual(end?.tMs, 3000)
        XCTAssertEqual(Outcome.timeout.exitCode, 3)
        // The frame that arrives too late is not shown.
        XCTAssertEqual(run.send(.firstFrame, at: 3100), [])
        XCTAssertEqual(run.endEvents.count, 1)
    }

    func testWaitCountsFromTheSessionStart() {
        let run = SessionRun(videoConfig(["--wait", "0.5"]), now: 1000)
        XCTAssertEqual(run.tick(1499), [])
        XCTAssertEqual(run.tick(1500), [.finish(.timeout)])
    }

    func testFirstFrameBeforeTheDeadlineShowsTheAd() {
        let run = SessionRun(videoConfig(["--wait", "3", "--fallback", "fb.png"]))
        run.send(.firstFrame, at: 2999)
        run.tick(from: 2999, through: 6000)
        XCTAssertEqual(run.events("fallback").count, 0)
        XCTAssertEqual(run.events("wait_expired").count, 0)
        XCTAssertFalse(run.session.usingFallback)
    }

    func testLateFirstFrameShowsTheFallbackForItsOwnDuration() {
        let run = SessionRun(videoConfig(["--fallback", "fb.png", "--duration", "2", "--transition", "none"], durationMs: 6000))
        run.tick(from: 0, through: 2990, step: 10)
        XCTAssertEqual(run.tick(3000), [.showFallback])
        XCTAssertTrue(run.session.usingFallback)
        XCTAssertEqual(run.only("fallback")?["reason"], "first_frame_timeout")
        XCTAssertEqual(run.only("wait_expired")?["waited_ms"], 3000)
        XCTAssertEqual(run.endEvents.count, 0)
        run.session.fallbackReady(durationMs: 2000, now: 3050)
        run.send(.firstFrame, at: 3100)
        XCTAssertEqual(run.only("first_frame")?["fallback"], true)
        XCTAssertEqual(run.text(3100), "Skip 2", "the fallback's own duration, not the video's")
        XCTAssertEqual(run.tick(from: 3100, through: 5099, step: 1), [])
        XCTAssertEqual(run.tick(5100), [.finish(.completed)])
        XCTAssertEqual(run.outcome, "completed")
        XCTAssertEqual(run.only("end")?["shown_ms"], 2000)
        XCTAssertEqual(run.names, ["wait_expired", "fallback", "first_frame", "quartile", "quartile", "quartile", "complete", "end"])
    }

    func testUnavailableAdShowsTheFallbackAtOnce() {
        let run = SessionRun(videoConfig(["--fallback", "fb.png"]))
        XCTAssertEqual(run.send(.adUnavailable(code: .openFailed, message: "No such file"), at: 40), [.showFallback])
        let error = run.only("error")
        XCTAssertEqual(error?["code"], "open_failed")
        XCTAssertEqual(error?["message"], "No such file")
        XCTAssertEqual(run.only("fallback")?["reason"], "open_failed")
        XCTAssertEqual(run.only("fallback")?.tMs, 40)
        XCTAssertEqual(run.endEvents.count, 0)
    }

    func testUnavailableAdWithoutFallbackIsNoAd() {
        let run = SessionRun(videoConfig())
        XCTAssertEqual(run.send(.adUnavailable(code: .notMedia, message: "Invalid data"), at: 30), [.finish(.noAd)])
        XCTAssertEqual(run.names, ["error", "end"])
        XCTAssertEqual(run.outcome, "no_ad")
        XCTAssertEqual(run.only("end")?.tMs, 30, "reached at once, not at the deadline")
        XCTAssertEqual(Outcome.noAd.exitCode, 3)
    }

    func testFallbackIsUsedOnceOnly() {
        let run = SessionRun(videoConfig(["--fallback", "fb.png"]))
        run.send(.adUnavailable(code: .decodeFailed, message: "bad"), at: 100)
        XCTAssertEqual(run.send(.adUnavailable(code: .openFailed, message: "fallback missing"), at: 200), [.finish(.noAd)])
        XCTAssertEqual(run.events("fallback").count, 1)
        XCTAssertEqual(run.events("error").count, 2)
        XCTAssertEqual(run.outcome, "no_ad")
        XCTAssertEqual(run.actions.filter { $0 == .showFallback }.count, 1)
    }

    func testFallbackThatNeverShowsTimesOut() {
        let run = SessionRun(videoConfig(["--fallback", "fb.png", "--wait", "2"]))
        run.tick(2000)
        XCTAssertEqual(run.events("fallback").count, 1)
        XCTAssertEqual(run.tick(from: 2001, through: 3999, step: 1), [])
        XCTAssertEqual(run.tick(4000), [.finish(.timeout)])
        XCTAssertEqual(run.events("fallback").count, 1)
        XCTAssertEqual(run.events("wait_expired").count, 2)
        XCTAssertEqual(run.outcome, "timeout")
    }

    func testWaitZeroStillGivesTheFallbackItsChance() {
        let run = SessionRun(videoConfig(["--fallback", "fb.png", "--wait", "0"]))
        XCTAssertEqual(run.tick(0), [.showFallback])
        XCTAssertEqual(run.tick(from: 16, through: 300), [], "the fallback image is not timed out at once")
        run.session.fallbackReady(durationMs: 5000, now: 300)
        run.send(.firstFrame, at: 320)
        XCTAssertEqual(run.session.phase, .showing)
        XCTAssertEqual(run.endEvents.count, 0)
    }

    func testStreamThatEndsBeforeAnyFrameIsNoAdAtOnce() {
        let run = SessionRun(videoConfig())
        XCTAssertEqual(run.send(.endOfStream, at: 200), [.finish(.noAd)])
        XCTAssertEqual(run.only("error")?["code"], "no_frames")
        XCTAssertEqual(run.outcome, "no_ad")
        XCTAssertEqual(run.events("complete").count, 0)

        let withFallback = SessionRun(videoConfig(["--fallback", "fb.png"]))
        XCTAssertEqual(withFallback.send(.endOfStream, at: 200), [.showFallback])
        XCTAssertEqual(withFallback.only("fallback")?["reason"], "no_frames")
        // The dead video's stream ending again while the fallback loads changes nothing.
        XCTAssertEqual(withFallback.send(.endOfStream, at: 250), [])
        XCTAssertEqual(withFallback.endEvents.count, 0)
    }

    func testUnavailableAfterTheFirstFrameIsIgnored() {
        let run = SessionRun(videoConfig(["--fallback", "fb.png"]))
        run.send(.firstFrame, at: 0)
        XCTAssertEqual(run.send(.adUnavailable(code: .decodeFailed, message: "x"), at: 1000), [])
        XCTAssertEqual(run.names, ["first_frame"])
        XCTAssertFalse(run.session.usingFallback)
    }

    func testFailureEndsWithError() {
        let run = SessionRun(videoConfig())
        run.send(.firstFrame, at: 0)
        XCTAssertEqual(run.send(.failed(code: .windowFailed, message: "SDL_CreateWindow failed"), at: 900), [.finish(.error)])
        XCTAssertEqual(run.names, ["first_frame", "error", "end"])
        XCTAssertEqual(run.only("error")?["code"], "window_failed")
        XCTAssertEqual(run.outcome, "error")
        XCTAssertEqual(run.only("end")?["shown_ms"], 900)
        XCTAssertEqual(Outcome.error.exitCode, 1)
    }
}

/// Whatever happens, a run ends with exactly one `end` event, last, and says nothing after it.
final class AdSessionExactlyOneEndTests: XCTestCase {
    typealias Step = (SessionRun) -> Void

    func testEveryPathEndsOnce() {
        let link = ["--link", "https://example.com"]
        let paths: [(String, [String], Step, String)] = [
            (
                "completed", [],
                { r in
                    r.send(.firstFrame, at: 0); r.send(.endOfStream, at: 5000)
                }, "completed"
            ),
            ("image", [], { r in r.send(.firstFrame, at: 0) }, "completed"),
            (
                "skipped", [],
                { r in
                    r.send(.firstFrame, at: 0); r.tapSkip(at: 1000)
                }, "skipped"
            ),
            (
                "esc", [],
                { r in
                    r.send(.firstFrame, at: 0); r.send(.key(.escape), at: 1000)
                }, "skipped"
            ),
            (
                "clicked", link,
                { r in
                    r.send(.firstFrame, at: 0); r.tapAd(at: 1000)
                }, "clicked"
            ),
            (
                "host end", [],
                { r in
                    r.send(.firstFrame, at: 0); r.send(.control(.end), at: 1000)
                }, "ended_by_host"
            ),
            ("host end waiting", [], { r in r.send(.control(.end), at: 10) }, "ended_by_host"),
            ("timeout", [], { _ in }, "timeout"),
            ("no ad", [], { r in r.send(.adUnavailable(code: .decodeFailed, message: "y"), at: 5) }, "no_ad"),
            (
                "fallback then no ad", ["--fallback", "f.png"],
                { r in
                    r.send(.adUnavailable(code: .decodeFailed, message: "y"), at: 5)
                    r.send(.adUnavailable(code: .decodeFailed, message: "y"), at: 6)
                }, "no_ad"
            ),
            ("fallback timeout", ["--fallback", "f.png"], { _ in }, "timeout"),
            (
                "fallback shown", ["--fallback", "f.png"],
                { r in
                    r.send(.adUnavailable(code: .decodeFailed, message: "y"), at: 5)
                    r.session.fallbackReady(durationMs: 1000, now: 10)
                    r.send(.firstFrame, at: 20)
                }, "completed"
            ),
            (
                "error", [],
                { r in
                    r.send(.firstFrame, at: 0); r.send(.failed(code: .decodeFailed, message: "y"), at: 300)
                }, "error"
            ),
            ("error waiting", [], { r in r.send(.failed(code: .decodeFailed, message: "y"), at: 3) }, "error"),
            (
                "error while leaving", [],
                { r in
                    r.send(.firstFrame, at: 0); r.tapSkip(at: 100); r.send(.failed(code: .decodeFailed, message: "y"), at: 200)
                }, "skipped"
            ),
            (
                "end during leaving", [],
                { r in
                    r.send(.firstFrame, at: 0); r.tapSkip(at: 100); r.send(.control(.end), at: 200)
                }, "skipped"
            ),
            (
                "window closed", [],
                { r in
                    r.send(.firstFrame, at: 0); r.send(.closeRequested, at: 500)
                }, "skipped"
            ),
            ("window closed waiting", [], { r in r.send(.closeRequested, at: 5) }, "skipped"),
            (
                "skip then eos", [],
                { r in
                    r.send(.firstFrame, at: 0); r.tapSkip(at: 100); r.send(.endOfStream, at: 150)
                }, "skipped"
            ),
            (
                "paused forever then host end", [],
                { r in
                    r.send(.firstFrame, at: 0); r.send(.pause(.minimized), at: 100); r.send(.control(.end), at: 50_000)
                }, "ended_by_host"
            )
        ]
        for transition in ["fade", "zoom", "none"] {
            for (name, args, steps, outcome) in paths {
                let config =
                    name == "image"
                    ? imageConfig(args + ["--transition", transition])
                    : videoConfig(args + ["--transition", transition])
                let run = SessionRun(config)
                steps(run)
                run.tick(from: 0, through: 120_000, step: 100)
                let label = "\(name) with \(transition)"
                XCTAssertEqual(run.endEvents.count, 1, "\(label): \(run.names)")
                XCTAssertEqual(run.names.last, "end", label)
                XCTAssertEqual(run.outcome, .string(outcome), label)
                XCTAssertEqual(run.session.phase, .ended(Outcome(rawValue: outcome)!), label)
                let finishes = run.actions.filter { if case .finish = $0 { return true } else { return false } }
                XCTAssertEqual(finishes, [.finish(Outcome(rawValue: outcome)!)], label)
                // t_ms never goes backwards.
                let times = run.events.map(\.tMs)
                XCTAssertEqual(times, times.sorted(), label)
                // Quartiles never repeat.
                let quartiles = run.events("quartile").compactMap { $0["quartile"] }
                XCTAssertEqual(quartiles.count, Set(quartiles.map { $0.serialized() }).count, label)
            }
        }
    }
}

/// A stream that ends before its declared length claims nothing it did not show.
final class AdSessionTruncationTests: XCTestCase {
    /// 2.5 s of a 5.5 s video: quartile 25 only (at 1375 ms of shown time), no 50/75 and no
    /// `complete`; an `error` `media_truncated` with both lengths; outcome `error`.
    func testATruncatedVideoDoesNotComplete() {
        let run = SessionRun(videoConfig(["--transition", "none"], durationMs: 5500))
        run.send(.firstFrame, at: 100)
        run.tick(from: 100, through: 2600, step: 10)
        XCTAssertEqual(run.send(.endOfStream, at: 2600), [.finish(.error)])
        XCTAssertEqual(run.names, ["first_frame", "quartile", "error", "end"])
        XCTAssertEqual(run.events("quartile").map(\.tMs), [1480])
        let error = run.only("error")
        XCTAssertEqual(error?["code"], "media_truncated")
        XCTAssertEqual(error?["shown_ms"], 2500)
        XCTAssertEqual(error?["declared_ms"], 5500)
        XCTAssertEqual(run.outcome, "error")
    }

    /// Within half a second of its length (timestamps and container durations disagree a
    /// little), it completes; cut by --max-duration, it is `capped`.
    func testEndingWithinToleranceOrAtTheCapCompletes() {
        let near = SessionRun(videoConfig(["--transition", "none"], durationMs: 4000))
        near.send(.firstFrame, at: 0)
        near.tick(from: 0, through: 3600, step: 10)
        near.send(.endOfStream, at: 3600)
        XCTAssertEqual(near.outcome, "completed")
        XCTAssertEqual(near.events("quartile").count, 3)

        let capped = SessionRun(videoConfig(["--max-duration", "2", "--transition", "none"], durationMs: 8000))
        capped.send(.firstFrame, at: 0)
        capped.tick(from: 0, through: 1700, step: 10)
        capped.send(.endOfStream, at: 1700)
        XCTAssertEqual(capped.outcome, "capped", "1.7 s of the 2 s it was to show, of an 8 s ad")
    }
}

/// `skip_available`: once, when the button first works (an application shows its own close
/// control then, as launch-ad SDKs call their delegate).
final class AdSessionSkipAvailableTests: XCTestCase {
    func testSaidWithTheFirstFrameWhenTheButtonWorksAtOnce() {
        let run = SessionRun(videoConfig())
        run.send(.firstFrame, at: 100)
        run.tick(from: 100, through: 3000)
        XCTAssertEqual(run.events.map(\.name).prefix(2), ["first_frame", "skip_available"])
        XCTAssertEqual(run.only("skip_available")?["shown_ms"], 0)
    }

    func testSaidOnceSkipAfterHasPassedInShownTime() {
        let run = SessionRun(videoConfig(["--skip-after", "2"]))
        run.send(.firstFrame, at: 0)
        run.tick(from: 0, through: 1000)
        run.send(.pause(.focusLost), at: 1000)
        run.tick(from: 1000, through: 3000)
        XCTAssertTrue(run.events("skip_available").isEmpty, "a pause is not shown time")
        run.send(.resume(.focusLost), at: 3000)
        run.tick(from: 3000, through: 4500, step: 1)
        XCTAssertEqual(run.only("skip_available")?["shown_ms"], 2000)
    }

    func testNeverWithoutAButton() {
        let run = SessionRun(videoConfig(["--no-skip"]))
        run.send(.firstFrame, at: 0)
        run.tick(from: 0, through: 6000)
        XCTAssertTrue(run.events("skip_available").isEmpty)
    }
}
