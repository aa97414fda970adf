import Foundation
import LaunchAdTestSupport
import XCTest

@testable import LaunchAdCore

/// TTML against the W3C IMSC test suite (Corpus/imsc-tests, README there): cues begin and end
/// where the suite's reference renderings change, with the text each document says it shows
/// (clock times, frames at `ttp:frameRate`, offsets, `dur`, paragraphs without an end, nested
/// spans, `<br/>`); and every time expression of TimeExpressions001 has the value the suite gives.
final class TTMLConformanceTests: XCTestCase {
    static let folder = Fixtures.repoRoot.appendingPathComponent("Tests/LaunchAdCoreTests/Corpus/imsc-tests")

    func read(_ name: String) throws -> CaptionParse {
        try CaptionFormat.parse(try Data(contentsOf: Self.folder.appendingPathComponent("\(name).ttml")), budget: .testMinute)
    }

    static let everyOtherSecond: [CaptionCue] =
        [CaptionCue(startMs: 0, endMs: 6000, text: "This test is going to display a message\nevery other second.")]
        + [6, 8, 10, 12, 14, 16].map { s in
            CaptionCue(startMs: s * 1000, endMs: s * 1000 + 1000, text: "\(s == 6 ? "From" : "from") \(s)s to \(s + 1)s,")
        }
        + [
            CaptionCue(startMs: 18000, endMs: 19000, text: "and, from 18s to 19s."),
            CaptionCue(startMs: 20000, endMs: 25000, text: "This test is over.")
        ]

    /// Paragraphs with a begin and no end last as long as their ancestors: here, to the ad's end.
    static let counting: [CaptionCue] =
        (0...10).map {
            CaptionCue(startMs: $0 * 1000, endMs: CaptionTime.maxMs, text: "This test counts from 0 to 10 in 10 seconds.\n\($0)")
        }
        + [CaptionCue(startMs: 11000, endMs: 20000, text: "This test is over.")]

    static let tenToTwenty = "This text must appear at 10 seconds\nand remain visible to 20 seconds"

    /// Each document's cues, and the times of its reference renderings (seconds).
    static let expected: [String: ([CaptionCue], [Int])] = [
        "BasicTiming001": (
            [CaptionCue(startMs: 10000, endMs: 20000, text: "This text must appear at 10 seconds\nand be remain visible to 20 seconds.")],
            [0, 10, 20]
        ),
        "BasicTiming002": ([CaptionCue(startMs: 10000, endMs: 20000, text: tenToTwenty)], [0, 10, 20]),
        "BasicTiming003": ([CaptionCue(startMs: 10000, endMs: 20000, text: tenToTwenty)], [0, 10, 20]),
        "BeginDur001": (everyOtherSecond, [0, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 25]),
        "BeginEnd001": (everyOtherSecond, [0, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 25]),
        "BeginEnd003": (everyOtherSecond, [0, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 25]),
        "BeginEnd002": (counting, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 20]),
        "FixedBeginEnd002": (counting, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 20]),
        "Br001": (
            [CaptionCue(startMs: 0, endMs: 10000, text: "This text must be on the first line.\nThis text on a second line.")], [0, 10]
        ),
        "br-in-p-001": ([CaptionCue(startMs: 0, endMs: 10000, text: "Two-\nline Subtitle.")], [0, 10]),
        "br-in-span-001": ([CaptionCue(startMs: 0, endMs: 10000, text: "Two-\nline Subtitle.")], [0, 10]),
        "Span001": ([CaptionCue(startMs: 0, endMs: 10000, text: "This text must be visible.")], [0, 10]),
        "Span002": ([CaptionCue(startMs: 0, endMs: 10000, text: "This word must be red.")], [0, 10]),
        "Span003": ([CaptionCue(startMs: 0, endMs: 10000, text: "This text must be green.")], [0, 10]),
        "Span004": ([CaptionCue(startMs: 0, endMs: 10000, text: "Some of this text must red and green.")], [0, 10]),
        "Span005": ([CaptionCue(startMs: 0, endMs: 10000, text: "This text must appear\non two lines.")], [0, 10])
    ]

    func testCuesChangeWhereTheReferenceRenderingsChange() throws {
        func ordered(_ cues: [CaptionCue]) -> [CaptionCue] { cues.sorted { ($0.startMs, $0.text) < ($1.startMs, $1.text) } }
        for (name, (cues, renderings)) in Self.expected.sorted(by: { $0.key < $1.key }) {
            let p = try read(name)
            XCTAssertEqual(ordered(p.track.cues), ordered(cues), name)
            XCTAssertEqual(p.skipped, 0, name)
            // Every change of what is on screen, before the ad's end, is a rendering's time.
            let changes = Set([0] + p.track.cues.flatMap { [$0.startMs, $0.endMs] }.filter { $0 < CaptionTime.maxMs })
            XCTAssertEqual(changes, Set(renderings.map { $0 * 1000 }), name)
        }
    }

    func testTimeExpressionsHaveTheSuitesValues() throws {
        let url = Self.folder.appendingPathComponent("TimeExpressions001.ttml")
        let text = try String(contentsOf: url, encoding: .utf8)
        let time = try TTMLTime(root: { ["frameRate": "24", "frameRateMultiplier": "1000 1001", "tickRate": "60"][$0] })
        XCTAssertTrue(text.contains("ttp:frameRate=\"24\" ttp:frameRateMultiplier=\"1000 1001\" ttp:tickRate=\"60\""))
        // `<p begin="0s" end="EXPR">EXPR = SECONDSs</p>`: the value each paragraph states.
        let pattern = try NSRegularExpression(pattern: "<p begin=\"0s\" end=\"([^\"]+)\">[^=<]+= ([0-9.]+)s</p>")
        let found = pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { m in
            (String(text[Range(m.range(at: 1), in: text)!]), Double(String(text[Range(m.range(at: 2), in: text)!]))!)
        }
        XCTAssertEqual(found.count, 11)
        // The renderings' times are the running sum of the paragraphs' ends (a seq container).
        let renderings = [1.2, 73.2, 4393.2, 4394.201, 4396.201, 8119.201, 11842.436, 15565.671, 19289.505167, 379289.605167, 739289.605167]
        var sum = 0
        for ((expression, stated), rendering) in zip(found, renderings) {
            let ms = try XCTUnwrap(time.ms(expression), expression)
            XCTAssertEqual(ms, Int((stated * 1000).rounded()), expression)
            sum += ms
            XCTAssertEqual(Double(sum), rendering * 1000, accuracy: 1, expression)
        }
    }
}
