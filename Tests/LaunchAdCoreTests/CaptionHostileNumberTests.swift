import Foundation
import XCTest

@testable import LaunchAdCore

/// Issue 29, defect 1: a TTML file with `ttp:frameRate="1e-306"` and a frame-count time
/// trapped the Swift runtime. Every number a caption file chooses (rates, frame counts, ticks,
/// hours) now ends as a CaptionError for the file, a skipped cue with its reason, or a time
/// saturated far past any ad, never a trap; each hostile value here is one such file.
final class CaptionHostileNumberTests: XCTestCase {
    func ttml(root: String = "", _ p: String) -> Data {
        Data(
            """
            <tt xmlns="http://www.w3.org/ns/ttml" xmlns:ttp="http://www.w3.org/ns/ttml#parameter" \(root)>
              <body><div>\(p)<p begin="0s" end="1s">kept</p></div></body>
            </tt>
            """.utf8)
    }

    func testARateThatIsNoRateRefusesTheFile() {
        let frameCounts = #"<p begin="00:00:01:0.5" end="10f">frames</p><p begin="5t" end="1000000000t">ticks</p>"#
        let rates = [
            ("frameRate", ["1e-306", "NaN", "nan", "inf", "-inf", "1e308", "-30", "0", "30.5", "0x1E", "99999999999999999999", "", " "]),
            ("tickRate", ["1e-306", "1e308", "NaN", "inf", "0", "-1", "999999999999999999999", "1.5"]),
            ("frameRateMultiplier", ["1e308 1", "0 1", "1 0", "NaN 1", "1001", "1 2 3", "-1 1", "1 1e-306"]),
            ("subFrameRate", ["0", "1e308", "NaN", "-2"])
        ]
        for (attribute, values) in rates {
            for value in values {
                XCTAssertThrowsError(
                    try CaptionFormat.parse(ttml(root: "ttp:\(attribute)=\"\(value)\"", frameCounts), budget: .testMinute),
                    "\(attribute)=\(value)"
                ) {
                    let message = ($0 as? CaptionError)?.message ?? ""
                    XCTAssertTrue(message.hasPrefix("the TTML file's ttp:\(attribute) '"), message)
                    XCTAssertFalse(message.contains("\n"), message)
                }
            }
        }
    }

    func testExtremeButValidRatesReadEveryTime() throws {
        let p = try CaptionFormat.parse(
            ttml(
                root: #"ttp:frameRate="1" ttp:frameRateMultiplier="1 1000000" ttp:tickRate="1000000000000""#,
                #"<p begin="00:00:00:00" end="1f">slow frames</p><p begin="0t" end="999999999999999999999t">many ticks</p>"#),
            budget: .testMinute)
        XCTAssertEqual(p.track.cues.map(\.text), ["slow frames", "many ticks", "kept"])
        // One frame at a millionth of a frame a second is 11.6 days, 10^21 ticks at 10^12 a
        // second 31 years: both cut at 24 h like any end.
        XCTAssertEqual(p.track.cues.map(\.endMs), [CaptionTime.maxMs, CaptionTime.maxMs, 1000])
    }

    func testHostileTimesSkipTheirCueOrSaturate() throws {
        let hostile = [
            "99999999:99:99", "99999999:00:00", "1e308s", "NaN", "nans", "infs", "-5s", "1e-306s", "999999999999999999999999f",
            "99999999999999999999999999999999999t", String(repeating: "9", count: 5000) + "s", "00:00:00:99999999999", "00:00:00:30",
            "00:00:00.\(String(repeating: "9", count: 400))", "00:00:60", "00:60:00", "0:00:01", "00:00:01:05.9999999999", "12", "5 s"
        ]
        for value in hostile {
            let p = try CaptionFormat.parse(ttml(#"<p begin="\#(value)" end="99999999999999999h">x</p>"#), budget: .testMinute)
            XCTAssertTrue(p.track.cues.contains(CaptionCue(startMs: 0, endMs: 1000, text: "kept")), value)
            XCTAssertEqual(p.skipped, p.track.cues.count == 2 ? 0 : 1, value)
            for c in p.track.cues {
                XCTAssertTrue(c.startMs >= 0 && c.startMs < c.endMs && c.endMs <= CaptionTime.maxMs, "\(value): \(c)")
            }
            if p.skipped == 1 {
                let why = p.firstProblem ?? ""
                XCTAssertTrue(
                    why.hasPrefix("cue 1: cannot read the timing") || why.hasPrefix("cue 1: it starts after 24 h"), "\(value): \(why)")
            }
        }
        // A far end is cut at 24 h: the cue shows for the whole ad.
        let far = try CaptionFormat.parse(ttml(#"<p begin="1s" end="99999999999999999h">long</p>"#), budget: .testMinute)
        XCTAssertEqual(far.track.cues.last, CaptionCue(startMs: 1000, endMs: CaptionTime.maxMs, text: "long"))
    }

    func testDeepNestingAndOffsetsThatAddUp() throws {
        // 63 nested divs each 10^15 ms late: the sum saturates, the cue is past any ad.
        let deep = String(repeating: #"<div begin="277777777777h">"#, count: 60) + "<p>x</p>" + String(repeating: "</div>", count: 60)
        let p = try CaptionFormat.parse(ttml(deep), budget: .testMinute)
        XCTAssertEqual(p.track.cues.map(\.text), ["kept"])
        XCTAssertTrue(p.firstProblem?.contains("starts after 24 h") ?? false, p.firstProblem ?? "")
        let tooDeep = String(repeating: "<div>", count: 70) + String(repeating: "</div>", count: 70)
        XCTAssertThrowsError(try CaptionFormat.parse(ttml(tooDeep), budget: .testMinute)) {
            XCTAssertEqual(($0 as? CaptionError)?.message, "the TTML file nests deeper than 64 elements")
        }
    }

    func testSubRipAndWebVTTNumbersSaturate() throws {
        let srt = try CaptionFormat.parse(
            Data(
                "1\n99999999999999999999:00:00,000 --> 99999999999999999999:00:01,000\nfar\n\n2\n-1:00:00,000 --> 00:00:01,000\nfrom zero\n"
                    .utf8), budget: .testMinute)
        XCTAssertEqual(srt.track.cues, [CaptionCue(startMs: 0, endMs: 1000, text: "from zero")])
        XCTAssertEqual(srt.firstProblem, "cue 1: it starts after 24 h (\(CaptionTime.limitMs) ms), past any ad")
        let vtt = try CaptionFormat.parse(
            Data("WEBVTT\n\n00:00.000 --> 99999999999999999999999:00:00.000\nlong\n".utf8), budget: .testMinute)
        XCTAssertEqual(vtt.track.cues, [CaptionCue(startMs: 0, endMs: CaptionTime.maxMs, text: "long")])
    }
}
