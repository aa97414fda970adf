import LaunchAdCore
import LaunchAdTestSupport
import XCTest

/// `msUntilSkipLabelChanges`, which a GL host's wake-ups follow: at every moment it names the
/// exact millisecond the button's label or state next changes, and nil once it never will.
final class SkipLabelWakeTests: XCTestCase {
    private func assertExact(_ run: SessionRun, from: Int, through: Int, file: StaticString = #filePath, line: UInt = #line) {
        for t in stride(from: from, through: through, by: 7) {
            let now = run.session.skipButton(now: t)
            guard let d = run.session.msUntilSkipLabelChanges(now: t) else {
                XCTAssertEqual(run.session.skipButton(now: t + 60_000).text, now.text, "no change after \(t)", file: file, line: line)
                continue
            }
            XCTAssertTrue((1...1000).contains(d), "\(d) at \(t)", file: file, line: line)
            let before = run.session.skipButton(now: t + d - 1), after = run.session.skipButton(now: t + d)
            XCTAssertEqual(before.text, now.text, "unchanged until \(t + d - 1)", file: file, line: line)
            XCTAssertTrue(
                after.text != now.text || after.enabled != now.enabled, "changed at \(t + d) (\(now.text) at \(t))", file: file, line: line)
        }
    }

    func testTheCountdownsNextLabelIsNamedToTheMillisecond() {
        let run = SessionRun(videoConfig(durationMs: 5000))
        run.send(.firstFrame, at: 1000)
        assertExact(run, from: 1000, through: 8000)
        XCTAssertNil(run.session.msUntilSkipLabelChanges(now: 6000), "the countdown is over")
    }

    func testSkipAfterCountsDownFirst() {
        let run = SessionRun(videoConfig(["--skip-after", "2.5"], durationMs: 6000))
        run.send(.firstFrame, at: 0)
        XCTAssertEqual(run.session.msUntilSkipLabelChanges(now: 0), 500, "\"Ad 3\" becomes \"Ad 2\" at 500 ms")
        assertExact(run, from: 0, through: 7000)
    }

    func testNothingChangesByItselfWhilePausedOrBeforeTheFirstFrame() {
        let run = SessionRun(videoConfig())
        XCTAssertNil(run.session.msUntilSkipLabelChanges(now: 100), "waiting for the first frame")
        run.send(.firstFrame, at: 0)
        run.send(.pause(.focusLost), at: 300)
        XCTAssertNil(run.session.msUntilSkipLabelChanges(now: 400))
        run.send(.resume(.focusLost), at: 900)
        XCTAssertEqual(run.session.msUntilSkipLabelChanges(now: 900), 700, "300 ms shown, 700 to go to the next second")
    }
}
