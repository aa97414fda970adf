import Foundation
import XCTest

@testable import LaunchAdCore

/// Review 2 of issues 40 and 42: one bounded quoting of a user's value for every message that
/// quotes one; no URL that may carry credentials holds a password of its own; a key given twice
/// in a signed manifest is refused.
final class QuotedValueTests: XCTestCase {
    func testAQuotedValueIsEscapedAndCutInItsMiddle() {
        XCTAssertEqual(TerminalText.quoted("a\u{1b}[2J b"), "a\\x1b[2J b")
        let long = "/srv/" + String(repeating: "d", count: 120_000) + "/key.pub"
        let quoted = TerminalText.quoted(long)
        XCTAssertEqual(quoted.unicodeScalars.count, TerminalText.maxQuoted)
        XCTAssertTrue(quoted.hasPrefix("/srv/ddd") && quoted.hasSuffix("ddd/key.pub") && quoted.contains("d…d"), quoted)
        XCTAssertEqual(TerminalText.quoted(String(repeating: "q", count: 200)).count, 200, "at the bound: whole")
        // The usage error's cut is the same cut.
        let message = "--x takes a number, not '\(String(repeating: "A", count: 5000))'"
        XCTAssertEqual(UsageError(message).message, TerminalText.cut(message, to: UsageError.maxLength))
        // Every stderr line is bounded whatever a caller quoted.
        let line = String(decoding: TerminalText.line(String(repeating: "z", count: 50_000)), as: UTF8.self)
        XCTAssertEqual(line.unicodeScalars.count, "launchad: \n".count + TerminalText.maxLine)
        // A file's problem quotes its path so.
        XCTAssertEqual(
            FileProblem(errno: ENOENT, path: long, access: .read).description, "cannot read \(quoted): no such file")
    }

    func testAURLThatMayCarryCredentialsHoldsNoUserOrPassword() throws {
        for url in [
            "http://admin:pw@127.0.0.1:8123/", "https://u@ch.example.com/", "http://127.0.0.1:18123@127.0.0.2:18124/",
            "HTTP://a:b@host/x?y", "http://:secret@host/"
        ] {
            let why = try XCTUnwrap(CollectorURL.userinfoRefusal(url), url)
            XCTAssertFalse(why.contains("pw") || why.contains("secret") || why.contains("127.0.0.2"), why)
            XCTAssertEqual(ClickHouseURL.refusal(url), why, "every ClickHouse URL meets it")
        }
        for url in ["http://127.0.0.1:8123/", "https://ch.example.com:8443/db?x=a@b", "https://c.example.com/p@th"] {
            XCTAssertNil(CollectorURL.userinfoRefusal(url), url)
        }
        // A manifest's collector, ClickHouse or plain: refused alone, in a line without the password.
        for format in [#""format": "clickhouse""#, #""format": "json""#] {
            let parsed = try ManifestParser.parse(
                Data(#"{"report": {"url": "https://kiosk:hunter2@ch.example.com/", \#(format)}, "ads": []}"#.utf8),
                base: URL(string: "https://m.example.com/m.json")!, budget: ManifestParser.budget(maxBytes: 10_000, seconds: 5))
            XCTAssertNil(parsed.manifest.report)
            XCTAssertEqual(parsed.rejected.map(\.id), ["report"])
            XCTAssertFalse(parsed.rejected[0].reason.contains("hunter2"), parsed.rejected[0].reason)
        }
    }

    /// `{"version":1,"version":9}`: launchad's decoder keeps the first, jq the last. In a signed
    /// manifest it is `malformed`; an unsigned one is read as before (the first kept).
    func testAKeyGivenTwiceIsMalformedWhenSigned() throws {
        func parse(_ json: String) throws -> ParsedManifest {
            try ManifestParser.parse(
                Data(json.utf8), base: URL(string: "https://m.example.com/m.json")!,
                budget: ManifestParser.budget(maxBytes: 100_000, seconds: 5))
        }
        let ad =
            #"{"id": "a", "type": "image", "variants": [{"url": "a.png", "width": 1, "height": 1, "bytes": 1, "sha256": "\#(String(repeating: "a", count: 64))"}]}"#
        let cases: [(String, String)] = [
            (#"{"version": 1, "version": 9, "ads": []}"#, #"the key "version" is given twice at the manifest's top level"#),
            (#"{"version": 1, "\u0076ersion": 9, "ads": []}"#, #"the key "version" is given twice at the manifest's top level"#),
            (#"{"version": 1, "ads": [\#(ad), {"id": "b", "id": "c"}]}"#, #"the key "id" is given twice in ads[1]"#),
            (
                #"{"version": 1, "ads": [{"id": "x", "tracking": {"start": [], "start": ["https://t"]}}]}"#,
                #"the key "start" is given twice in ads[0].tracking"#
            )
        ]
        for (json, said) in cases {
            let parsed = try parse(json)
            XCTAssertEqual(parsed.signed.problem.map { String($0.prefix(said.count)) }, said, json)
            let refusal = ManifestTrustCheck.fresh(parsed.signed, sha256: "aa", highest: nil, now: Date())
            XCTAssertEqual(refusal?.reason, .malformed, json)
        }
        XCTAssertEqual(try parse(cases[0].0).signed.version, 1, "unsigned: the first, as before")
        // Keys apart in separate objects, and quotes, braces and escapes inside strings, are no duplicates.
        let clean = try parse(
            #"{"version": 2, "note": "a \"version\": {\"x\": [1, 2]}", "ads": [\#(ad), {"id": "b", "x": {"id": "c"}}], "x": {"version": 1}}"#
        )
        XCTAssertNil(clean.signed.problem)
    }
}
