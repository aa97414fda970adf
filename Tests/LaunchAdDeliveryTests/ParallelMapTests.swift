import Foundation
import LaunchAdDelivery
import XCTest

final class ParallelMapTests: XCTestCase {
    func testResultsComeBackInIndexOrder() {
        let out = parallelMap(50, threads: 3) { $0 * $0 }
        XCTAssertEqual(out, (0..<50).map { $0 * $0 })
        XCTAssertEqual(parallelMap(0, threads: 4) { $0 }, [])
        XCTAssertEqual(parallelMap(3, threads: 1) { $0 + 1 }, [1, 2, 3])
    }

    /// Two jobs on two threads run at the same time: each waits until the other has started.
    func testJobsRunSideBySide() {
        let started = [DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)]
        let met = parallelMap(2, threads: 2) { i -> Bool in
            started[i].signal()
            return started[1 - i].wait(timeout: .now() + 30) == .success
        }
        XCTAssertEqual(met, [true, true])
    }
}
