import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

final class ValidationSpecTests: XCTestCase {
    private func parse(_ json: String) throws -> Spec { try Spec.parse(Data(json.utf8), defaultName: "team.json") }

    private func specError(_ json: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        oneLineError(SpecError.self, \.message, file: file, line: line) { _ = try parse(json) }
    }

    func testASpecFileUsesTheSameRuleNamesAndLimits() throws {
        let spec = try parse(
            """
            {"name": "acme", "rules": {"duration": {"max": 20}, "audio_sample_rate": {"allowed": [48000], "warn": [44100]},
             "faststart": {"allowed": [true]}, "loudness_integrated": {"target": -23, "tolerance": 1}}}
            """)
        XCTAssertEqual(spec.name, "acme")
        XCTAssertEqual(spec.rules[.duration], Limit(max: 20))
        XCTAssertEqual(spec.rules[.audioSampleRate], Limit(allowed: [.number(48000)], warn: [.number(44100)]))
        XCTAssertEqual(spec.rules[.faststart], Limit(allowed: [.bool(true)]))
        let report = CreativeReport.evaluate(madeUpFacts(duration: 25), against: spec)
        XCTAssertEqual(report.results.map(\.rule), ["faststart", "duration", "audio_sample_rate", "loudness_integrated"])
        XCTAssertEqual(report.results.map(\.status), [.pass, .fail, .pass, .fail])
    }

    func testABuiltInProfileIsTheSameDataASpecFileCanWrite() throws {
        let spec = try parse(
            """
            {"extends": "iab-ctv", "rules": {"duration": {"max": 60}, "true_peak": null, "first_frame_black": {"allowed": [false]}}}
            """)
        XCTAssertEqual(spec.name, "team.json")
        XCTAssertEqual(spec.rules[.duration], Limit(max: 60))
        XCTAssertNil(spec.rules[.truePeak])
        XCTAssertEqual(spec.rules[.container], Spec.iabCTV.rules[.container])
        XCTAssertEqual(spec.rules.count, Spec.iabCTV.rules.count)
        let tiers = try parse(
            """
            {"rules": {"video_bitrate_kbps": {"by_resolution": {"1920x1080": {"min": 10000}}}}}
            """)
        XCTAssertEqual(CreativeReport.evaluate(madeUpFacts(videoKbps: 8_000), against: tiers).status, .fail)
        XCTAssertEqual(CreativeReport.evaluate(madeUpFacts(videoKbps: 12_000), against: tiers).status, .pass)
    }

    func testMistakesInASpecAreNamed() {
        XCTAssertTrue(specError(#"{"rules": {"durations": {"max": 1}}}"#).contains("unknown rule 'durations'"))
        XCTAssertTrue(specError(#"{"rules": {"duration": {"maximum": 1}}}"#).contains("unknown limit 'maximum'"))
        XCTAssertTrue(specError(#"{"rules": {"duration": {"max": "ten"}}}"#).contains("wrong type"))
        XCTAssertTrue(specError(#"{"extends": "tv", "rules": {}}"#).contains("'extends' names no profile: 'tv'"))
        XCTAssertTrue(specError(#"{"rule": {}}"#).contains("unknown key 'rule'"))
        XCTAssertTrue(specError(#"{"name": "x"}"#).contains("no 'rules'"))
        XCTAssertTrue(specError(#"{"rules": {}}"#).contains("no rules"))
        XCTAssertTrue(specError(#"{"rules": {"loudness_integrated": {"target": -23}}}"#).contains("tolerance"))
        XCTAssertTrue(specError("{rules: ").contains("not valid JSON"))
    }

    func testEveryProfileNameResolves() {
        for name in Spec.profileNames { XCTAssertEqual(Spec.profile(named: name)?.name, name) }
        XCTAssertNil(Spec.profile(named: "nope"))
    }
}
