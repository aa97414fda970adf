import Foundation
import LaunchAdCore
import XCTest

/// Issue 29: the parse budget inside every document parser, the sd_notify escaper, checked numbers.
final class SafeByConstructionTests: XCTestCase {
    /// One start tag of about 980 KB with 140,000 attributes (libxml2's duplicate check is
    /// quadratic: one callback of 4-6 s before): refused before libxml2 sees it.
    static let manyAttributes: String = {
        // Three-character names (` abc=""`, 7 bytes each), all different.
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        let chars = letters + Array("0123456789")
        var tag = "<Ad"
        for i in 0..<140_000 {
            tag += " " + String([letters[i % 52], chars[(i / 52) % 62], chars[(i / 3224) % 62]]) + "=\"\""
        }
        return tag + ">"
    }()

    /// Defect 6: a tag with 140,000 attributes on one element is refused (VAST 100) at once.
    func testATagWithAHugeStartTagIsRefusedBeforeParsing() {
        let doc = Data(("<VAST version=\"4.2\">" + Self.manyAttributes + "<InLine/></Ad></VAST>").utf8)
        XCTAssertGreaterThan(doc.count, 900_000)
        XCTAssertLessThan(doc.count, 1_000_000)
        XCTAssertThrowsError(try VASTParser.parse(doc, budget: VASTLimits.budget(seconds: 1))) {
            XCTAssertEqual(($0 as? VASTError)?.code, 100)
            XCTAssertTrue("\($0)".contains("more than 256 attributes"), "\($0)")
        }
        // An ordinary number of attributes still parses.
        let fine = Data("<VAST version=\"4.2\"><Ad id=\"a\" sequence=\"1\"><InLine/></Ad></VAST>".utf8)
        XCTAssertNoThrow(try VASTParser.parse(fine, budget: VASTLimits.budget(seconds: 1)))
    }

    /// Defect 7: the same trick in a TTML caption file.
    func testATTMLFileWithAHugeStartTagIsRefused() {
        let ttml = Data(
            ("<tt xmlns=\"http://www.w3.org/ns/ttml\"><body><div>" + Self.manyAttributes.replacingOccurrences(of: "<Ad", with: "<p")
                + "hi</p></div></body></tt>").utf8)
        XCTAssertThrowsError(try CaptionFormat.parse(ttml, budget: CaptionFormat.budget(seconds: 1, limitName: "--vast-timeout"))) {
            XCTAssertTrue("\($0)".contains("more than 256 attributes"), "\($0)")
        }
    }

    /// The deadline is looked at inside the parse, for every parser: a spent budget stops VAST,
    /// TTML, WebVTT, SRT and manifests alike.
    func testEveryParserStopsAtItsDeadline() {
        let spent = { ParseBudget(maxBytes: 1_000_000, deadline: .distantPast, limitName: "--vast-timeout") }
        let vtt = Data(("WEBVTT\n\n" + String(repeating: "00:00:01.000 --> 00:00:02.000\nhi\n\n", count: 100)).utf8)
        let srt = Data(String(repeating: "1\n00:00:01,000 --> 00:00:02,000\nhi\n\n", count: 100).utf8)
        let ttml = Data("<tt xmlns=\"http://www.w3.org/ns/ttml\"><body><p begin=\"1s\" end=\"2s\">hi</p></body></tt>".utf8)
        for (name, data) in [("vtt", vtt), ("srt", srt), ("ttml", ttml)] {
            XCTAssertThrowsError(try CaptionFormat.parse(data, budget: spent()), name) {
                XCTAssertTrue("\($0)".contains("took longer than --vast-timeout"), "\(name): \($0)")
            }
        }
        let budget = spent()
        XCTAssertThrowsError(try VASTParser.parse(Data("<VAST version=\"4.2\"><Ad/></VAST>".utf8), budget: budget))
        let manifest = Data(#"{"ads": [{"id": "a"}]}"#.utf8)
        XCTAssertThrowsError(try ManifestParser.parse(manifest, base: URL(string: "https://x.example/m.json")!, budget: budget)) {
            XCTAssertTrue("\($0)".contains("took longer"), "\($0)")
        }
        XCTAssertThrowsError(
            try ManifestParser.parse(
                manifest, base: URL(string: "https://x.example/m.json")!, budget: ManifestParser.budget(maxBytes: 10, seconds: 5)))
    }

    /// Defect 3: a media URL whose name decodes to newlines and assignments cannot add a line
    /// to an sd_notify datagram (it added WATCHDOG=trigger and WATCHDOG_USEC=1 before the first picture).
    func testANameCannotInjectNotifyAssignments() throws {
        let url = "https://cdn.example/clip%0AWATCHDOG%3Dtrigger%0AWATCHDOG_USEC%3D1%0AX.mp4"
        let name = try XCTUnwrap(URL(string: url)?.lastPathComponent)
        XCTAssertTrue(name.contains("\n"), "the name decodes to lines")
        var policy = WatchdogPolicy(pingIntervalMs: 1000, what: name)
        for state in [WatchdogPolicy.State.waiting, .showing(onSchedule: true, lateMs: 0), .ended(.completed)] {
            let message = try XCTUnwrap(policy.message(state, now: 5000)).text
            for line in message.split(separator: "\n", omittingEmptySubsequences: false) {
                XCTAssertTrue(["READY=1", "WATCHDOG=1"].contains(line) || line.hasPrefix("STATUS="), "\(line)")
            }
        }
        let started = WatchdogPolicy.appStarted("app\nWATCHDOG=trigger", pid: 7).text
        XCTAssertEqual(started, "READY=1\nSTATUS=running app\\nWATCHDOG=trigger (pid 7)")
    }

    /// Defect 11: `validate`'s text report escapes what files say (a file name, a subtitle
    /// track's language tag in a measured value): no escape sequence reaches the terminal.
    func testTheTextReportEscapesTextFromFiles() {
        var facts = madeUpFacts(width: 720, height: 1280, duration: 6)
        facts.probe.file = "ad\u{1B}]0;pwned\u{07}.mp4"
        let report = ValidationReport([
            .evaluate(facts, against: .launchAd),
            .unreadable(file: "x\u{1B}[2J.mp4", spec: "launch-ad", reason: "subtitle language \u{1B}[31mred\u{9B}")
        ])
        let text = report.render(.text)
        XCTAssertFalse(text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B }, text)
        XCTAssertTrue(text.contains("ad\\x1b]0;pwned\\x07.mp4"), text)
        XCTAssertTrue(text.contains("subtitle language \\x1b[31mred\\x9b"), text)
    }
}
