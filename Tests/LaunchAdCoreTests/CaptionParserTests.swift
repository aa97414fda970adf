import Foundation
import XCTest

@testable import LaunchAdCore

/// WebVTT, SRT and TTML read into cues; malformed cues skipped and counted; files refused with a reason.
final class CaptionParserTests: XCTestCase {
    func parse(_ s: String) throws -> CaptionParse {
        try CaptionFormat.parse(Data(s.utf8), budget: CaptionFormat.budget(seconds: 5, limitName: "--vast-timeout"))
    }

    func testWebVTTCuesWithIdsSettingsMarkupAndNotes() throws {
        let p = try parse(
            """
            \u{FEFF}WEBVTT - an ad
            Kind: captions

            NOTE a comment
            with two lines

            STYLE
            ::cue { color: yellow }

            intro
            00:00.500 --> 00:02.000 line:90% align:center
            <v Narrator>Hello <b>there</b> &amp; welcome</v>

            00:00:02.000 --> 00:00:03.250
            Two
            lines
            """)
        XCTAssertEqual(p.format, .webvtt)
        XCTAssertEqual(
            p.track.cues,
            [
                CaptionCue(startMs: 500, endMs: 2000, text: "Hello there & welcome"),
                CaptionCue(startMs: 2000, endMs: 3250, text: "Two\nlines")
            ])
        XCTAssertEqual(p.skipped, 0)
    }

    func testWebVTTMalformedCuesAreSkippedAndCounted() throws {
        let p = try parse(
            "WEBVTT\r\n\r\n00:01.000 --> 00:00.500\r\nbackwards\r\n\r\n00:xx.000 --> 00:02.000\r\nbad\r\n\r\n00:02.000 --> 00:03.000\r\nkept\r\n"
        )
        XCTAssertEqual(p.track.cues.map(\.text), ["kept"])
        // The backwards cue is never on screen, as in a browser, which keeps it and reports nothing.
        XCTAssertEqual(p.skipped, 1)
        XCTAssertEqual(p.firstProblem, "cue 2: cannot read the timing '00:xx.000 --> 00:02.000'")
    }

    func testWebVTTWithoutHeaderIsNotWebVTT() {
        XCTAssertThrowsError(try parse("WEBVTTX\n\n00:01.000 --> 00:02.000\nx\n")) { e in
            XCTAssertEqual(
                (e as? CaptionError)?.message,
                "the WebVTT file does not start with its signature (WEBVTT, then a space, a tab or the line's end)")
        }
    }

    func testSRTWithAndWithoutNumbersCommaOrDot() throws {
        let p = try parse(
            """
            1
            00:00:01,000 --> 00:00:02,500
            <i>First</i> {\\an8}cue

            00:00:03.000 --> 00:00:04.000
            Second

            3
            00:00:05,000 --> nonsense
            Third
            """)
        XCTAssertEqual(p.format, .srt)
        // As FFmpeg reads it: a line that is no timing line is text of the cue before it.
        XCTAssertEqual(
            p.track.cues,
            [
                CaptionCue(startMs: 1000, endMs: 2500, text: "First cue"),
                CaptionCue(startMs: 3000, endMs: 4000, text: "Second\n3\n00:00:05,000 --> nonsense\nThird")
            ])
        XCTAssertEqual(p.skipped, 0)
    }

    func testTextThatIsNoCaptionFileIsRefused() {
        XCTAssertThrowsError(try parse("hello\nworld\n")) { e in
            XCTAssertTrue("\(e)".hasPrefix("not a caption file"), "\(e)")
        }
        XCTAssertThrowsError(
            try CaptionFormat.parse(Data([0xff, 0xfe, 0x00, 0x41]), budget: CaptionFormat.budget(seconds: 5, limitName: "--vast-timeout"))
        ) { e in
            XCTAssertEqual("\(e)", "the caption file is not UTF-8 text")
        }
        XCTAssertThrowsError(try parse("<html><body>404</body></html>")) { e in
            XCTAssertEqual("\(e)", "not a caption file: the root element is <html>, not <tt>")
        }
    }

    func testOverOneMegabyteIsRefusedWithItsSize() {
        let big = Data(("WEBVTT\n\n" + String(repeating: "x", count: CaptionFormat.maxBytes)).utf8)
        XCTAssertThrowsError(try CaptionFormat.parse(big, budget: CaptionFormat.budget(seconds: 5, limitName: "--vast-timeout"))) { e in
            XCTAssertEqual("\(e)", "the caption file is \(big.count) bytes, over the 1048576-byte limit")
        }
    }

    func testTTMLParagraphsWithOffsetsClockFramesBreaksAndSpans() throws {
        let p = try parse(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <tt xmlns="http://www.w3.org/ns/ttml" xmlns:ttp="http://www.w3.org/ns/ttml#parameter" ttp:frameRate="25" xml:lang="en">
              <body><div begin="1s">
                <p begin="0.5s" end="2s">Hello <span tts:color="yellow">big</span>
                   world<br/>again</p>
                <p begin="00:00:03:05" dur="1000ms">Frames</p>
                <p begin="nonsense" end="5s">Bad</p>
              </div></body>
            </tt>
            """)
        XCTAssertEqual(p.format, .ttml)
        XCTAssertEqual(
            p.track.cues,
            [
                CaptionCue(startMs: 1500, endMs: 3000, text: "Hello big world\nagain"),
                CaptionCue(startMs: 4200, endMs: 5200, text: "Frames")
            ])
        XCTAssertEqual(p.skipped, 1)
    }

    func testTTMLWithADoctypeIsRefused() {
        XCTAssertThrowsError(try parse("<!DOCTYPE tt [<!ENTITY x \"y\">]><tt><body><p begin=\"0s\" end=\"1s\">&x;</p></body></tt>")) { e in
            XCTAssertEqual("\(e)", "the TTML file declares a DOCTYPE or entities, which are refused")
        }
    }

    func testMimeTypes() {
        XCTAssertEqual(CaptionFormat(mimeType: "text/vtt"), .webvtt)
        XCTAssertEqual(CaptionFormat(mimeType: " application/ttml+xml"), .ttml)
        XCTAssertNil(CaptionFormat(mimeType: "text/html"))
    }

    func testASSEventTextFromLibavcodec() {
        XCTAssertEqual(CaptionText.ass("0,0,Default,,0,0,0,,{\\i1}Hello{\\i0}\\Nworld, again"), "Hello\nworld, again")
        XCTAssertEqual(CaptionText.ass("Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,Plain"), "Plain")
    }
}

/// Replays the caption fuzz target's seeds and findings (Fuzz/CaptionFuzz.swift): each input is
/// read or refused with a reason, and every kept cue is timed and has text.
final class CaptionFuzzRegressionTests: XCTestCase {
    func testFuzzInputsAreReadOrRefused() throws {
        let inputs = ManifestFuzzRegressionTests.inputs("captions")
        XCTAssertGreaterThanOrEqual(inputs.count, 3, "the seeds are there")
        var read = 0
        for file in inputs {
            do {
                let p = try CaptionFormat.parse(
                    try Data(contentsOf: file), budget: CaptionFormat.budget(seconds: 5, limitName: "--vast-timeout"))
                read += 1
                for c in p.track.cues { XCTAssertTrue(c.endMs > c.startMs && !c.text.isEmpty, file.lastPathComponent) }
            } catch let e as CaptionError {
                XCTAssertFalse(e.message.isEmpty, file.lastPathComponent)
            }
        }
        XCTAssertGreaterThanOrEqual(read, 3)
    }
}
