import LaunchAdCore
import XCTest

@testable import LaunchAdDelivery

final class JobScheduleTests: XCTestCase {
    /// One run's events go a wave at a time; another run's go beside them.
    func testLanesKeepTheirOrderAndRunSideBySide() throws {
        let s = JobSchedule(lane: ["run1", "run1", "run2", "run1", "run2"], wave: ["imp", "imp", "imp", "start", "start"])
        let first = try XCTUnwrap(s.claim()), second = try XCTUnwrap(s.claim()), third = try XCTUnwrap(s.claim())
        XCTAssertEqual([first.job, second.job, third.job], [0, 1, 2], "both impressions of run 1 together, run 2's beside them")
        s.finish(2, lane: third.lane, .delivered)
        XCTAssertEqual(s.claim()?.job, 4, "run 2 moves on; run 1's start waits for both its impressions")
        s.finish(0, lane: first.lane, .delivered)
        s.finish(1, lane: second.lane, .retry)
        XCTAssertEqual(s.claim()?.job, 3)
        s.finish(3, lane: first.lane, .refused)
        s.finish(4, lane: third.lane, .delivered)
        XCTAssertNil(s.claim())
        XCTAssertEqual(s.results, [.delivered, .retry, .delivered, .refused, .delivered])
    }
}
