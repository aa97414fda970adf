import LaunchAdCore
import XCTest

final class DeliveryRuleTests: XCTestCase {
    func testVerdictPerStatus() {
        for status in [200, 204, 299, 301, 302, 304, 399] { XCTAssertEqual(DeliveryRule.verdict(status: status), .delivered, "\(status)") }
        for status in [400, 401, 403, 404, 410, 499] { XCTAssertEqual(DeliveryRule.verdict(status: status), .refused, "\(status)") }
        for status in [408, 429, 500, 502, 503, 599, 100, 0] { XCTAssertEqual(DeliveryRule.verdict(status: status), .retry, "\(status)") }
    }

    func testBackoffDoublesWithJitterUpToTheCap() {
        XCTAssertEqual(DeliveryRule.backoff(attempts: 1, base: 2, cap: 900, unit: 0.5), 2)
        XCTAssertEqual(DeliveryRule.backoff(attempts: 2, base: 2, cap: 900, unit: 0.5), 4)
        XCTAssertEqual(DeliveryRule.backoff(attempts: 5, base: 2, cap: 900, unit: 0.5), 32)
        XCTAssertEqual(DeliveryRule.backoff(attempts: 1, base: 2, cap: 900, unit: 0), 1, "jitter halves at least")
        XCTAssertEqual(DeliveryRule.backoff(attempts: 1, base: 2, cap: 900, unit: 1), 3, "and adds half at most")
        XCTAssertEqual(DeliveryRule.backoff(attempts: 40, base: 2, cap: 900, unit: 0.5), 900)
        XCTAssertEqual(DeliveryRule.backoff(attempts: 1000, base: 2, cap: 900, unit: 1), 1350)
    }
}
