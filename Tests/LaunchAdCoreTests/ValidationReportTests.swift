import Foundation
import FoundationXML
import LaunchAdCore
import XCTest

final class ValidationReportTests: XCTestCase {
    /// Two creatives: one failing two rules with a decode error, one that could not be read.
    private func sample() -> ValidationReport {
        var facts = madeUpFacts(width: 720, height: 1280, duration: 12)
        facts.probe.file = "spring & <sale>.mp4"
        facts.analysis.decodeErrors = [DecodeIssue(seconds: 3.25, stream: 0, message: "Invalid data found when processing input")]
        facts.analysis.signal.pictures = []
        return ValidationReport([
            .evaluate(facts, against: .launchAd),
            .unreadable(file: "notes.txt", spec: "launch-ad", reason: "cannot open notes.txt: Invalid data found when processing input")
        ])
    }

    func testTextShowsEachRuleWithMeasuredValueAndLimit() {
        let text = sample().render(.text)
        // These made-up facts have no picture readings: the flash rule has nothing to count and skips, saying why.
        XCTAssertTrue(text.contains("FAIL  spring & <sale>.mp4  (launch-ad: 6 pass, 0 warn, 2 fail, 1 skip)"), text)
        XCTAssertTrue(text.range(of: #"skip  flashes +no picture readings +limit: at most 3 /s"#, options: .regularExpression) != nil, text)
        XCTAssertTrue(text.range(of: #"fail  duration +12 s +limit: at most 10 s"#, options: .regularExpression) != nil, text)
        XCTAssertTrue(text.contains("at 3.25 s (stream 0): Invalid data found when processing input"), text)
        XCTAssertTrue(text.contains("fail  readable"), text)
        XCTAssertTrue(text.hasSuffix("2 creatives: 0 passed, 0 warned, 2 failed\n"), text)
    }

    func testJSONCarriesEveryRuleAndTheFacts() throws {
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(sample().render(.json).utf8)) as? [String: Any])
        let creatives = try XCTUnwrap(json["creatives"] as? [[String: Any]])
        XCTAssertEqual(creatives.count, 2)
        XCTAssertEqual(creatives[0]["status"] as? String, "fail")
        let rules = try XCTUnwrap(creatives[0]["rules"] as? [[String: Any]])
        let duration = try XCTUnwrap(rules.first { $0["rule"] as? String == "duration" })
        XCTAssertEqual(duration["measured"] as? Double, 12)
        XCTAssertEqual(duration["unit"] as? String, "s")
        XCTAssertEqual(duration["limit"] as? String, "at most 10 s")
        let facts = try XCTUnwrap(creatives[0]["facts"] as? [String: Any])
        let analysis = try XCTUnwrap(facts["analysis"] as? [String: Any])
        XCTAssertEqual(analysis["decode_errors"] as? Int, 1)
        let unreadable = try XCTUnwrap((creatives[1]["rules"] as? [[String: Any]])?.first)
        XCTAssertTrue(unreadable["measured"] is NSNull)
        XCTAssertEqual(unreadable["reason"] as? String, "cannot open notes.txt: Invalid data found when processing input")
        XCTAssertEqual((json["summary"] as? [String: Any])?["failed"] as? Int, 2)
    }

    func testJUnitIsXMLThatCISystemsRead() throws {
        let doc = try XMLDocument(data: Data(sample().render(.junit).utf8))
        let root = try XCTUnwrap(doc.rootElement())
        XCTAssertEqual(root.name, "testsuites")
        XCTAssertEqual(root.attribute(forName: "tests")?.stringValue, "10")
        XCTAssertEqual(root.attribute(forName: "failures")?.stringValue, "3")
        let suites = root.elements(forName: "testsuite")
        XCTAssertEqual(suites.map { $0.attribute(forName: "name")?.stringValue }, ["spring & <sale>.mp4", "notes.txt"])
        let cases = suites[0].elements(forName: "testcase")
        XCTAssertEqual(cases.count, 9)
        XCTAssertEqual(suites[0].attribute(forName: "skipped")?.stringValue, "1")
        let skipped = cases.first { $0.attribute(forName: "name")?.stringValue == "flashes" }?.elements(forName: "skipped").first
        XCTAssertEqual(skipped?.attribute(forName: "message")?.stringValue, "no picture readings")
        let failed = cases.filter { !$0.elements(forName: "failure").isEmpty }.compactMap { $0.attribute(forName: "name")?.stringValue }
        XCTAssertEqual(failed, ["duration", "decode_errors"])
        let message = cases.first { $0.attribute(forName: "name")?.stringValue == "duration" }?
            .elements(forName: "failure").first?.attribute(forName: "message")?.stringValue
        XCTAssertEqual(message, "measured 12 s; limit at most 10 s")
    }

    func testWarningsPassInJUnitWithTheWarningKept() throws {
        let report = ValidationReport([.evaluate(madeUpFacts(sampleRate: 44_100), against: .iabCTV)])
        let doc = try XMLDocument(data: Data(report.render(.junit).utf8))
        let cases = try XCTUnwrap(doc.rootElement()?.elements(forName: "testsuite").first?.elements(forName: "testcase"))
        let rate = try XCTUnwrap(cases.first { $0.attribute(forName: "name")?.stringValue == "audio_sample_rate" })
        XCTAssertTrue(rate.elements(forName: "failure").isEmpty)
        XCTAssertEqual(rate.elements(forName: "system-out").first?.stringValue, "warning: measured 44100 Hz; limit 48000 Hz; warns: 44100")
    }
}
