import Foundation
import LaunchAdCore
import LaunchAdDelivery
import XCTest

/// A retry's backoff waits on the refresh's cancellation, so a refresh told to stop (launch's
/// --refresh-timeout) does not sit out a long backoff first.
final class RetryBackoffTests: XCTestCase {
    /// Always fails with an error worth retrying; counts its calls.
    final class FailingFetcher: Fetcher, Sendable {
        let count = Locked(0)
        var calls: Int { count.withLock { $0 } }
        func fetch(_ request: FetchRequest, progress: ((Int64) -> Void)?) throws -> FetchResponse {
            count.change { $0 += 1 }
            throw FetchError("connection reset", retryable: true)
        }
    }

    final class Outcome: @unchecked Sendable {  // `text` guarded by `lock`
        private let lock = NSLock()
        private var text = ""
        func set(_ t: String) { lock.lock(); text = t; lock.unlock() }
        var value: String { lock.lock(); defer { lock.unlock() }; return text }
    }

    func testACancelEndsTheBackoffAndTheErrorIsReturned() throws {
        let base = FailingFetcher()
        let fetcher = RetryingFetcher(base, retries: 3, backoff: 60)
        let cancellation = Cancellation()
        var request = FetchRequest(url: URL(string: "https://cdn.example.com/ad.mp4")!, reach: .any, maxBytes: 10)
        request.cancellation = cancellation
        let asked = request
        let answered = expectation(description: "the fetch returned")
        let began = Date()
        let outcome = Outcome()
        DispatchQueue.global().async {
            do { _ = try fetcher.fetch(asked, progress: nil); outcome.set("answered") } catch { outcome.set("\(error)") }
            answered.fulfill()
        }
        // The first try has failed and the 60 s backoff begun once the fetcher was called.
        XCTAssertTrue(base.count.wait(until: { $0 > 0 }, deadline: Date(timeIntervalSinceNow: 30)))
        cancellation.cancel()
        wait(for: [answered], timeout: 30)
        XCTAssertEqual(outcome.value, "connection reset")
        XCTAssertEqual(base.calls, 1, "no retry after the cancel")
        XCTAssertLessThan(Date().timeIntervalSince(began), 30, "the 60 s backoff was cut short")
    }

    func testWithoutACancelTheBackoffRetries() throws {
        let base = FailingFetcher()
        let fetcher = RetryingFetcher(base, retries: 2, backoff: 0.01)
        XCTAssertThrowsError(
            try fetcher.fetch(FetchRequest(url: URL(string: "https://cdn.example.com/ad.mp4")!, reach: .any, maxBytes: 10), progress: nil))
        XCTAssertEqual(base.calls, 3)
    }
}
