import Foundation
import LaunchAdCore
import XCTest

final class LockedTests: XCTestCase {
    /// Four threads adding under the lock lose no addition. Run under ThreadSanitizer
    /// (scripts/tsan.sh) it also shows the sanitizer follows the lock: with Synchronization's
    /// Mutex in its place the same test is reported as a race on Linux.
    func testFourThreadsAddingUnderTheLockLoseNothing() {
        let counter = Locked(0)
        let threads = 4, adds = 20_000
        let done = DispatchGroup()
        for _ in 0..<threads {
            done.enter()
            Thread.detachNewThread {
                for _ in 0..<adds { counter.withLock { $0 += 1 } }
                done.leave()
            }
        }
        XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(counter.withLock { $0 }, threads * adds)
    }

    /// What the closure throws reaches the caller, and the lock is free afterwards.
    func testAThrowingBodyLeavesTheLockFree() {
        struct Refused: Error {}
        let value = Locked([1])
        XCTAssertThrowsError(
            try value.withLock { (v: inout [Int]) throws(Refused) in
                v.append(2); throw Refused()
            })
        XCTAssertEqual(value.withLock { $0 }, [1, 2])
    }
}
