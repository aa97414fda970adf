import Foundation
import LaunchAdCore
import XCTest

/// `schedule --at 2026-03-29T02:30 --timezone Europe/Berlin`: a local time read as the kiosk's clock shows it.
final class LocalTimeTests: XCTestCase {
    let berlin = TimeZone(identifier: "Europe/Berlin")!

    func testALocalTimeIsReadInTheZone() {
        XCTAssertEqual(LocalTime.parse("2026-12-24T18:00", in: berlin), ManifestDate.rfc3339("2026-12-24T17:00:00Z"))
        XCTAssertEqual(LocalTime.parse("2026-07-01 09:30:15", in: berlin), ManifestDate.rfc3339("2026-07-01T07:30:15Z"))
    }

    func testTheClocksChanges() {
        // 02:30 does not exist on 29 March 2026 in Berlin (02:00 CET became 03:00 CEST): 03:30 CEST.
        XCTAssertEqual(LocalTime.parse("2026-03-29T02:30", in: berlin), ManifestDate.rfc3339("2026-03-29T01:30:00Z"))
        // 02:30 happens twice on 25 October 2026: the first, still summer time.
        XCTAssertEqual(LocalTime.parse("2026-10-25T02:30", in: berlin), ManifestDate.rfc3339("2026-10-25T00:30:00Z"))
    }

    func testAnythingElseIsRefused() {
        for text in [
            "2026-02-30T10:00", "2026-13-01T10:00", "2026-01-01T24:00", "2026-01-01T10:60", "2026-01-01", "2026-01-01T10",
            "2026-01-01T10:00Z", "2026-01-01T10:00:00+01:00", "26-01-01T10:00", "2026-01-01T+1:00", "２０２６-01-01T10:00"
        ] {
            XCTAssertNil(LocalTime.parse(text, in: berlin), text)
        }
    }
}
