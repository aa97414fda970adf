import XCTest

@testable import LaunchAdCore

final class PresentPacerTests: XCTestCase {
    private func skip(_ text: String = "Skip 5", progress: Double) -> SkipButtonState {
        SkipButtonState(visible: true, enabled: true, text: text, progress: progress)
    }

    func testTheTextStyleIsNotRedrawnForProgressItDoesNotShow() {
        var p = PresentPacer(stepMs: 40)
        p.presented(now: 0, skip: skip(progress: 0.1), style: .text)
        XCTAssertFalse(p.shouldPresent(now: 500, changed: false, skip: skip(progress: 0.2), style: .text, animating: false))
        XCTAssertTrue(
            p.shouldPresent(now: 510, changed: false, skip: skip("Skip 4", progress: 0.21), style: .text, animating: false),
            "a new countdown text is presented at once")
        XCTAssertTrue(
            p.shouldPresent(now: 1, changed: true, skip: skip(progress: 0.1), style: .text, animating: false),
            "a new picture is presented at once")
    }

    func testTheRingAndTheFadesMoveAtMostOncePerStep() {
        var p = PresentPacer(stepMs: 40)
        p.presented(now: 0, skip: skip(progress: 0.1), style: .ring)
        XCTAssertFalse(p.shouldPresent(now: 10, changed: false, skip: skip(progress: 0.11), style: .ring, animating: false))
        XCTAssertTrue(p.shouldPresent(now: 40, changed: false, skip: skip(progress: 0.12), style: .ring, animating: false))
        XCTAssertFalse(p.shouldPresent(now: 20, changed: false, skip: skip(progress: 0.1), style: .text, animating: true))
        XCTAssertTrue(p.shouldPresent(now: 40, changed: false, skip: skip(progress: 0.1), style: .text, animating: true))
        XCTAssertFalse(
            p.shouldPresent(now: 80, changed: false, skip: skip(progress: 0.1), style: .ring, animating: false),
            "a paused ring does not move")
    }

    func testTheStepFollowsTheVideosFrameRate() {
        XCTAssertEqual(PresentPacer.stepMs(frameDuration: 1.0 / 30), 33)
        XCTAssertEqual(PresentPacer.stepMs(frameDuration: 1.0 / 25), 40)
        XCTAssertEqual(PresentPacer.stepMs(frameDuration: 1.0 / 240), 16)
        XCTAssertEqual(PresentPacer.stepMs(frameDuration: nil), 33)
    }
}

final class FrameCounterTests: XCTestCase {
    func testAPictureReplacedBeforeAnyPresentIsDropped() {
        var c = FrameCounter()
        c.pictureReady()
        c.presented(pictureTime: 0, audioClock: nil)
        c.pictureReady()
        c.pictureReady()  // the screen did not keep up
        c.drop(2)
        c.presented(pictureTime: 0.12, audioClock: 0.1)
        c.presented(pictureTime: 0.12, audioClock: 0.3)  // the same picture again: not counted, no offset
        XCTAssertEqual(c.shown, 2)
        XCTAssertEqual(c.dropped, 3)
        XCTAssertEqual(c.avOffsetMsMax, 20)
    }

    func testTheFieldsSayNullForAnOffsetWithoutSound() {
        var c = FrameCounter()
        c.pictureReady()
        c.presented(pictureTime: 1, audioClock: nil)
        XCTAssertEqual(
            AdEvent(.end(RunEnd(outcome: .completed, frames: c)), tMs: 1).jsonLine(),
            #"{"event":"end","t_ms":1,"outcome":"completed","frames_shown":1,"frames_dropped":0,"av_offset_ms_max":null}"#)
    }
}
