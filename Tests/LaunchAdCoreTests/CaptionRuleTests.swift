import XCTest

@testable import LaunchAdCore

/// The `captions` validation rule: required, or in one of some languages or kinds.
final class CaptionRuleTests: XCTestCase {
    func facts(_ tracks: [CaptionFacts]?) -> CreativeFacts {
        var f = CreativeFacts(
            probe: ProbeFacts(
                file: "a.mp4", container: "mp4", formatName: "mov", durationSeconds: 3, fileSize: 1, bitRate: nil, faststart: true,
                streams: []),
            analysis: AnalysisFacts())
        f.captions = tracks
        return f
    }

    let english = CaptionFacts(kind: "mov_text", language: "eng", cues: 2, lastEndMs: 2500)

    func testRequiredCaptions() {
        let required = Limit.oneOf(.string("any"))
        let none = RuleName.captions.evaluate(required, on: facts([]))
        XCTAssertEqual(none.status, .fail)
        XCTAssertEqual(none.measuredText, "none")
        XCTAssertEqual(none.limit, "a caption track")
        let some = RuleName.captions.evaluate(required, on: facts([english]))
        XCTAssertEqual(some.status, .pass)
        XCTAssertEqual(some.measuredText, "mov_text eng, 2 cues")
    }

    func testLanguagesOrKinds() {
        XCTAssertEqual(RuleName.captions.evaluate(.oneOf(.string("fr"), .string("en")), on: facts([english])).status, .pass, "en is eng")
        XCTAssertEqual(RuleName.captions.evaluate(.oneOf(.string("fr")), on: facts([english])).status, .fail)
        XCTAssertEqual(RuleName.captions.evaluate(.oneOf(.string("MOV_TEXT")), on: facts([english])).status, .pass)
        XCTAssertEqual(RuleName.captions.evaluate(Limit(), on: facts([])).status, .pass, "no limit: reported only")
        XCTAssertEqual(RuleName.captions.evaluate(Limit(), on: facts(nil)).status, .fail)
    }
}
