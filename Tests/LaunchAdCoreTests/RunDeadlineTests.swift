import LaunchAdCore
import XCTest

/// The run's deadlines that do not depend on the player's thread (issue 37), on a fake clock:
/// which one applies, when, and what a takeover writes.
final class RunDeadlineTests: XCTestCase {
    /// `--stall-timeout 3`: the thread may be silent 3 s; the first frame has `--wait` + 2 s.
    private func deadline(stallMs: Int = 3000) -> RunDeadline { RunDeadline(limits: RunDeadline.Limits(stallLimitMs: stallMs)) }

    private func takeover(_ d: inout RunDeadline, at now: Int) -> RunDeadline.Takeover? {
        guard case .takeOver(let t) = d.verdict(now: now) else { return nil }
        return t
    }

    func testAThreadStuckOpeningItsWindowIsTakenOverAfterTheSilenceAsWindowUnavailable() throws {
        var d = deadline()
        d.playerStarted(now: 100, firstFrameWithinMs: 3000)
        d.beat(.startingSound, now: 110)
        d.beat(.startingVideo, now: 150)
        d.beat(.openingWindow, now: 200)
        // The silence ends at 3200, before the first frame's deadline (100 + 3000 + 2000).
        XCTAssertEqual(d.verdict(now: 3199), .wait(untilMs: 3200))
        let t = try XCTUnwrap(takeover(&d, at: 3200))
        XCTAssertEqual(t.cause, .silent(forMs: 3000))
        XCTAssertEqual(t.step, .openingWindow)
        XCTAssertEqual(t.error?.failure, .windowUnavailable)
        XCTAssertEqual(t.end.outcome, .error)
        XCTAssertEqual(d.verdict(now: 3300), .finished, "decided once")
        XCTAssertFalse(d.finish(), "the front end learns it was taken over")
    }

    func testAnyOtherStuckStepIsPlayerStuck() throws {
        for step in RunDeadline.Step.allCases where step != .openingWindow {
            var d = deadline()
            d.playerStarted(now: 0, firstFrameWithinMs: 3000)
            d.firstFrameShown()
            d.beat(step, now: 10)
            let allowed = d.limits.silenceAllowed(in: step)
            XCTAssertNil(takeover(&d, at: 10 + allowed - 1), "\(step)")
            let t = try XCTUnwrap(takeover(&d, at: 10 + allowed), "\(step)")
            XCTAssertEqual(t.cause, .silent(forMs: allowed), "\(step)")
            XCTAssertEqual(t.error?.failure, .playerStuck, "\(step)")
            XCTAssertTrue(t.note.contains(step.rawValue), t.note)
        }
    }

    func testBeatsKeepALiveLoopFromBeingTakenOver() {
        var d = deadline()
        d.playerStarted(now: 0, firstFrameWithinMs: 3000)
        d.firstFrameShown()
        for now in stride(from: 0, through: 60_000, by: 10) {
            d.beat(.turning, now: now)
            XCTAssertEqual(d.verdict(now: now + 5), .wait(untilMs: now + 3000))
        }
    }

    func testTheFirstFrameDeadlineIsTheWaitPlusTheMarginWhateverTheLoopDoes() throws {
        var d = deadline(stallMs: 10_000)
        d.playerStarted(now: 50, firstFrameWithinMs: 1000)
        // A loop that turns but never shows anything (no silence): the wait + 2 s from its start.
        for now in stride(from: 50, to: 3050, by: 10) {
            d.beat(.turning, now: now)
            XCTAssertNil(takeover(&d, at: now))
        }
        let t = try XCTUnwrap(takeover(&d, at: 3050))
        XCTAssertEqual(t.cause, .firstFrameLate(dueMs: 3050))
        XCTAssertEqual(t.error?.failure, .playerStuck)
    }

    func testAShownFirstFrameEndsThatDeadline() {
        var d = deadline()
        d.playerStarted(now: 0, firstFrameWithinMs: 1000)
        d.beat(.turning, now: 900)
        d.firstFrameShown()
        d.beat(.turning, now: 2900)
        XCTAssertEqual(d.verdict(now: 3100), .wait(untilMs: 5900))
    }

    func testAFallbackGetsItsOwnWaitBeforeTheDeadline() {
        XCTAssertEqual(RunDeadline.firstFrameWithinMs(waitMs: 3000, hasFallback: false), 3000)
        XCTAssertEqual(RunDeadline.firstFrameWithinMs(waitMs: 3000, hasFallback: true), 6000)
        // --wait 0 still lets the fallback have its second.
        XCTAssertEqual(RunDeadline.firstFrameWithinMs(waitMs: 0, hasFallback: true), 1000)
    }

    func testAPausedWaitStopsTheFirstFrameDeadlineAsTheSessionsOwnWaitStops() {
        var d = deadline()
        d.playerStarted(now: 0, firstFrameWithinMs: 3000)
        d.beat(.turning, now: 1000)
        d.beat(.turning, now: 1000, waitPaused: true)
        for now in stride(from: 1000, to: 20_000, by: 10) {
            d.beat(.turning, now: now, waitPaused: true)
            XCTAssertEqual(d.verdict(now: now), .wait(untilMs: now + 3000), "only the silence runs while paused")
        }
        d.beat(.turning, now: 20_000)
        // 19 s paused: the deadline moved from 5000 to 24000.
        XCTAssertEqual(d.verdict(now: 20_000), .wait(untilMs: 23_000))
        d.beat(.turning, now: 22_990)
        XCTAssertEqual(d.verdict(now: 23_000), .wait(untilMs: 24_000))
    }

    func testBeforeAnyPlayerTheRunsOwnDeadlineApplies() throws {
        var d = deadline()
        XCTAssertEqual(d.verdict(now: 0), .wait(untilMs: nil), "nothing to watch yet")
        d.firstFrame(dueBy: 5000)
        XCTAssertEqual(d.verdict(now: 10), .wait(untilMs: 5000))
        // A launch reading a cache on a mount that hangs: the app starts at 5 s all the same.
        let t = try XCTUnwrap(takeover(&d, at: 5000))
        XCTAssertEqual(t.cause, .firstFrameLate(dueMs: 5000))
        XCTAssertNil(t.step)
        XCTAssertEqual(t.error?.failure, .playerStuck)
    }

    func testAPlayerStartReplacesTheRunsDeadlineAndItsReturnEndsTheWatch() {
        var d = deadline()
        d.firstFrame(dueBy: 5000)
        d.playerStarted(now: 40, firstFrameWithinMs: 3000)
        XCTAssertEqual(d.verdict(now: 40), .wait(untilMs: 3040), "the silence first")
        d.beat(.turning, now: 3000)
        XCTAssertEqual(d.verdict(now: 3000), .wait(untilMs: 5040))
        // The ad ended without a frame (its own wait expired) and the loop returned: nothing runs.
        d.playerReturned()
        XCTAssertEqual(d.verdict(now: 60_000), .wait(untilMs: nil))
        // A hand-off beats again: watched again, with no first-frame deadline.
        d.beat(.handingOff, now: 60_000)
        XCTAssertEqual(d.verdict(now: 60_000), .wait(untilMs: 63_000))
    }

    func testStoppingHasItsBoundedWaitsOnTopOfTheSilence() {
        var d = deadline()
        d.playerStarted(now: 0, firstFrameWithinMs: 3000)
        d.firstFrameShown()
        d.beat(.stopping, now: 1000)
        XCTAssertEqual(d.verdict(now: 1000), .wait(untilMs: 1000 + 3000 + RunDeadline.Limits.stoppingAllowanceMs))
    }

    func testASignalEndsTheRunWithinTheGraceAsAQuitEndsAnAd() throws {
        var d = deadline()
        d.playerStarted(now: 0, firstFrameWithinMs: 3000)
        d.beat(.openingWindow, now: 100)
        d.quitRequested(signal: 15, now: 500)
        d.quitRequested(signal: 2, now: 700)
        XCTAssertEqual(d.verdict(now: 600), .wait(untilMs: 1500))
        let t = try XCTUnwrap(takeover(&d, at: 1500))
        XCTAssertEqual(t.cause, .quit(signal: 15), "the first signal")
        XCTAssertNil(t.error)
        XCTAssertEqual(t.end.outcome, .skipped)
    }

    func testAfterTheAdItsSettledEndIsWhatATakeoverWrites() throws {
        var d = deadline()
        d.playerStarted(now: 0, firstFrameWithinMs: 3000)
        d.firstFrameShown()
        d.playerReturned()
        let settled = RunEnd(outcome: .completed, shownMs: 5000)
        d.settle(settled)
        d.beat(.handingOff, now: 5100)
        let t = try XCTUnwrap(takeover(&d, at: 8100))
        XCTAssertEqual(t.end, settled)
        XCTAssertNil(t.error, "the ad's outcome stands")
    }

    func testAFinishedRunIsNeverTakenOver() {
        var d = deadline()
        d.playerStarted(now: 0, firstFrameWithinMs: 3000)
        d.quitRequested(signal: 15, now: 10)
        XCTAssertTrue(d.finish())
        XCTAssertEqual(d.verdict(now: 1_000_000), .finished)
    }

    func testTheSilenceIsTheStallTimeoutButNeverUnderTwoSeconds() {
        XCTAssertEqual(RunDeadline.Limits(stallLimitMs: 500).silenceMs, 2000)
        XCTAssertEqual(RunDeadline.Limits(stallLimitMs: 7000).silenceMs, 7000)
        XCTAssertEqual(RunDeadline.Limits(stallLimitMs: 3000).marginMs, 2000)
        XCTAssertEqual(RunDeadline.Limits(stallLimitMs: 3000).quitGraceMs, 1000)
    }

    func testAWindowNotOnScreenGivesUpWhenTheWaitIsOver() {
        XCTAssertFalse(RunDeadline.windowGivenUp(now: 2999, waitStartedMs: 0, waitMs: 3000))
        XCTAssertTrue(RunDeadline.windowGivenUp(now: 3000, waitStartedMs: 0, waitMs: 3000))
    }
}
