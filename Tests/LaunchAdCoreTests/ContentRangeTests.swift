import LaunchAdCore
import XCTest

final class ContentRangeTests: XCTestCase {
    func testOnlyTheExactShapeWithOrderedBoundsIsRead() {
        XCTAssertEqual(ContentRange("bytes 0-99/100").map { [$0.start, $0.end, $0.total, $0.length] }, [0, 99, 100, 100])
        for bad in [
            "bytes -1/100", "bytes x-/5", "bytes 5-4/10", "bytes 0-10/10", "bytes 0-9/*", "bytes */100", "0-9/100",
            "bytes 0-99999999999999999999/100", "bytes +0-9/100", "bytes 0 -9/100", "", "bytes 0-9/100/7"
        ] {
            XCTAssertNil(ContentRange(bad), bad)
        }
    }

    func testAnAnswerMustStartWhereAskedAndHoldWhatArrived() {
        XCTAssertNotNil(ContentRange.answer("bytes 10-19/30", offset: 10, asked: 10, received: 10))
        XCTAssertNotNil(ContentRange.answer("bytes 10-14/15", offset: 10, asked: 10, received: 5), "the last, shorter range")
        XCTAssertNil(ContentRange.answer("bytes 0-9/30", offset: 10, asked: 10, received: 10), "another offset")
        XCTAssertNil(ContentRange.answer("bytes 10-29/30", offset: 10, asked: 10, received: 20), "longer than asked")
        XCTAssertNil(ContentRange.answer("bytes 10-19/30", offset: 10, asked: 10, received: 4), "fewer bytes than it says")
    }
}
