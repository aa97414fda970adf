import Foundation
import XCTest

@testable import LaunchAdCore

/// WebVTT cases of our own beside the WPT corpus (WebVTTConformanceTests): the defects issue
/// 30 found, the signature bytes WPT's missing files stand for, and hostile files, each of
/// which ends with a defined outcome in a bounded number of steps.
final class WebVTTParserTests: XCTestCase {
    func parse(_ s: String) throws -> CaptionParse { try CaptionFormat.parse(Data(s.utf8), budget: .testMinute) }
    func browserCues(_ s: String) throws -> [WebVTTParser.Cue] {
        try WebVTTParser.blocks(s, budget: .testMinute).compactMap { if case .cue(let c) = $0 { return c } else { return nil } }
    }

    func testACueWithoutABlankLineBeforeItIsACue() throws {
        let p = try parse("WEBVTT\n\n00:00.000 --> 00:01.000\none\n00:01.000 --> 00:02.000\ntwo\n")
        XCTAssertEqual(
            p.track.cues, [CaptionCue(startMs: 0, endMs: 1000, text: "one"), CaptionCue(startMs: 1000, endMs: 2000, text: "two")])
    }

    func testANulIsAReplacementCharacterNotARefusal() throws {
        let p = try CaptionFormat.parse(Data("WEBVTT\n\n00:00.000 --> 00:01.000\na\0b\n".utf8), budget: .testMinute)
        XCTAssertEqual(p.track.cues.map(\.text), ["a\u{FFFD}b"])
        // In the signature it is a wrong signature, as a browser says.
        XCTAssertThrowsError(try CaptionFormat.parse(Data("WEBVTT\0\n".utf8), budget: .testMinute)) { XCTAssertTrue($0 is CaptionError) }
    }

    func testInvalidUTF8IsReadAsABrowserDecodesIt() throws {
        // A lone surrogate encoded in UTF-8 (ED A0 80) and a stray continuation byte.
        var bytes = Array("WEBVTT\n\n00:00.000 --> 00:01.000\nx".utf8)
        bytes += [0xED, 0xA0, 0x80, 0x80]
        let p = try CaptionFormat.parse(Data(bytes), budget: .testMinute)
        XCTAssertEqual(p.track.cues.count, 1)
        XCTAssertTrue(p.track.cues[0].text.hasPrefix("x\u{FFFD}"))
    }

    func testSignatureBytesABrowserRefuses() {
        for bad in [
            "WEBVTT\u{00A0}foo\n", "WEBVTT\u{0B}\n", "WEBVTT\u{0C}\n", " WEBVTT\n", "\nWEBVTT\n", "WEBVTTX\n", "WEBVTT-\n", "webvtt\n"
        ] {
            XCTAssertThrowsError(try parse(bad), bad.debugDescription) { XCTAssertTrue($0 is CaptionError) }
        }
        XCTAssertNoThrow(try parse("\u{FEFF}WEBVTT - title\n"))
    }

    func testFormFeedIsWhitespaceInATimingLineAndVerticalTabIsNot() throws {
        XCTAssertEqual(try browserCues("WEBVTT\n\n\u{0C}00:01.000\u{0C}-->\u{0C}00:02.000\u{0C}\nx\n").map(\.startMs), [1000])
        XCTAssertEqual(try browserCues("WEBVTT\n\n\u{0B}00:01.000 --> 00:02.000\nx\n").count, 0)
    }

    func testTimestampsAsStrictAsTheSpec() throws {
        for bad in ["00:00:00.0000", "0:00.000", "00:0:00.000", "00:00:00", "00:00:00.00", "00:60.000", "00:00:60.000", "00.000"] {
            XCTAssertEqual(try browserCues("WEBVTT\n\n\(bad) --> 01:00:00.000\nx\n").count, 0, bad)
        }
        let good = try browserCues("WEBVTT\n\n1:02:03.004 --> 123:00:00.000\nx\n")
        XCTAssertEqual(good.map(\.startMs), [3_723_004])
        XCTAssertEqual(good.map(\.endMs), [442_800_000])
    }

    /// WPT's timings-negative case (`00:00:01.000 --> 00:00:00.999`, Corpus/wpt-webvtt) among
    /// cues that show: the algorithm keeps such a cue, a browser never shows it and reports nothing.
    func testACueEndingAsOrBeforeItStartsIsKeptNeverShownAndNoProblem() throws {
        let file =
            "WEBVTT\n\n00:00:01.000 --> 00:00:00.999\nbackwards\n\n00:00.500 --> 00:00.500\nnone\n\n"
            + "00:xx.000 --> 00:02.000\nunreadable\n\n00:02.000 --> 00:03.000\nkept\n"
        XCTAssertEqual(try browserCues(file).map(\.text), ["backwards", "none", "kept"])
        let p = try parse(file)
        XCTAssertEqual(p.track.cues, [CaptionCue(startMs: 2000, endMs: 3000, text: "kept")])
        XCTAssertEqual(p.track.lastEndMs, 3000)
        // Only the unreadable timing is a problem (so a `captions_error`), numbered as before.
        XCTAssertEqual(p.skipped, 1)
        XCTAssertEqual(p.firstProblem, "cue 3: cannot read the timing '00:xx.000 --> 00:02.000'")
        XCTAssertEqual(p.neverShown, 2, "counted, for the captions event's never_shown")
        for ms in stride(from: 0, to: 4000, by: 50) {
            XCTAssertEqual(p.track.text(atMs: ms), (2000..<3000).contains(ms) ? "kept" : nil, "at \(ms) ms")
        }
        // A file of nothing else reads as no cue and no problem.
        let none = try parse("WEBVTT\n\n00:00:01.000 --> 00:00:00.999\ntext2\n")
        XCTAssertTrue(none.track.isEmpty)
        XCTAssertEqual(none.skipped, 0)
        XCTAssertNil(none.firstProblem)
        XCTAssertEqual(none.neverShown, 1, "an empty track, and why")
    }

    func testNoteStyleAndRegionBlocksAndIds() throws {
        let cues = try browserCues(
            "WEBVTT\nKind: captions\n\nSTYLE\n::cue { color: red }\n\nREGION\nid:r\n\nNOTE hi\n\nintro\n00:01.000 --> 00:02.000 region:r\n<v Bob>Hi</v>\n"
        )
        XCTAssertEqual(cues, [WebVTTParser.Cue(id: "intro", startMs: 1000, endMs: 2000, text: "<v Bob>Hi</v>")])
    }

    func testAnUnclosedTagHidesTheRestAsInABrowser() throws {
        XCTAssertEqual(try parse("WEBVTT\n\n00:00.000 --> 00:01.000\nx < 5 then\n").track.cues.map(\.text), ["x"])
        XCTAssertEqual(
            try parse("WEBVTT\n\n00:00.000 --> 00:01.000\n{\\an8}top {not markup} &#x41;&#66;\n").track.cues.map(\.text),
            ["top {not markup} AB"])
    }

    /// Hostile files: each is read or refused, in steps linear in its size.
    func testHostileFilesEndWithADefinedOutcome() throws {
        let mb = CaptionFormat.maxBytes - 64
        let cases: [(String, String)] = [
            ("one 1 MB line", "WEBVTT\n\n00:00.000 --> 00:01.000\n" + String(repeating: "x", count: mb)),
            ("1 MB of -->", "WEBVTT\n\n" + String(repeating: "-->", count: mb / 3)),
            ("1 MB of --> lines", "WEBVTT\n\n" + String(repeating: "-->\n", count: mb / 4)),
            ("1 MB of <", "WEBVTT\n\n00:00.000 --> 00:01.000\n" + String(repeating: "<", count: mb)),
            ("1 MB of {", "WEBVTT\n\n00:00.000 --> 00:01.000\n" + String(repeating: "{\\", count: mb / 2)),
            ("1 MB of &", "WEBVTT\n\n00:00.000 --> 00:01.000\n" + String(repeating: "&#", count: mb / 2)),
            ("1 MB of digits", "WEBVTT\n\n" + String(repeating: "9", count: mb) + ":00:00.000 --> 00:01.000\nx"),
            ("1 MB of CR", "WEBVTT" + String(repeating: "\r", count: mb)),
            ("1 MB of BOMs", String(repeating: "\u{FEFF}", count: mb / 3) + "WEBVTT\n"),
            ("60,000 tiny cues", "WEBVTT\n\n" + String(repeating: "00:00.000 --> 00:01.000\nx\n\n", count: 30_000))
        ]
        for (name, text) in cases {
            let data = Data(text.utf8)
            XCTAssertLessThanOrEqual(data.count, CaptionFormat.maxBytes, name)
            do {
                let p = try CaptionFormat.parse(data, budget: .testMinute)
                XCTAssertLessThanOrEqual(p.track.cues.count, CaptionFormat.maxCues, name)
                for c in p.track.cues.prefix(10) { XCTAssertLessThanOrEqual(c.text.count, CaptionText.maxCharacters, name) }
            } catch {
                XCTAssertTrue(error is CaptionError, name)
            }
        }
    }
}
