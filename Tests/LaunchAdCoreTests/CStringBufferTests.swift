import LaunchAdCore
import XCTest

final class CStringBufferTests: XCTestCase {
    func testTextStopsAtTheFirstNUL() {
        XCTAssertEqual(String(cBuffer: Array("stereo".utf8CString) + [0, 65]), "stereo")
    }

    func testABufferWithoutNULIsReadWhole() {
        XCTAssertEqual(String(cBuffer: [104, 105]), "hi")
    }

    func testInvalidUTF8IsReplacedNotTrapped() {
        XCTAssertEqual(String(cBuffer: [104, -1, 105, 0]), "h\u{FFFD}i")
    }
}
