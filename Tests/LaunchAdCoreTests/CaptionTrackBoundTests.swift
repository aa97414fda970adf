import Foundation
import XCTest

@testable import LaunchAdCore

/// Issue 29, defect 8: a 1 MB WebVTT file of 5,000 overlapping cues made a 3 s ad run 10 s (its
/// whole text, 5,000 cues of it, was wrapped and drawn at every change). What is on screen at
/// once is bounded in the core: the latest few cues, a few lines, a few hundred characters.
final class CaptionTrackBoundTests: XCTestCase {
    /// 5,000 cues starting 0.6 ms apart over a 3 s ad, each lasting past its end, ~200
    /// characters each: 1 MB, as the file.
    static func overlapping() -> Data {
        var vtt = "WEBVTT\n\n"
        for i in 0..<5000 {
            let start = i * 3 / 5
            vtt += String(format: "00:%02d.%03d --> 00:10.000\n", start / 1000, start % 1000)
            vtt += "Cue \(i): " + String(repeating: "overlapping words ", count: 9) + "\n\n"
        }
        return Data(vtt.utf8)
    }

    func testFiveThousandOverlappingCuesShowTheLatestFewBounded() throws {
        let data = Self.overlapping()
        XCTAssertGreaterThan(data.count, 950_000)
        let track = try CaptionFormat.parse(data, budget: .testMinute).track
        XCTAssertEqual(track.cues.count, CaptionFormat.maxCues)
        var texts = Set<String>()
        for frame in 0..<75 {
            let ms = frame * 40
            let shown = track.showing(atMs: ms)
            XCTAssertLessThanOrEqual(shown.count, CaptionTrack.maxShownCues)
            // The latest started, in start order.
            if let last = shown.last { XCTAssertLessThanOrEqual(track.cues[last].startMs, ms) }
            XCTAssertEqual(shown, shown.sorted())
            let text = try XCTUnwrap(track.text(atMs: ms))
            XCTAssertLessThanOrEqual(text.count, CaptionTrack.maxShownCharacters)
            XCTAssertLessThanOrEqual(text.split(separator: "\n").count, CaptionTrack.maxShownLines)
            let newest = "Cue \((0..<5000).last { $0 * 3 / 5 <= ms }!):"
            XCTAssertTrue(text.contains(newest), "\(ms) ms: \(text.prefix(80))")
            texts.insert(text)
        }
        XCTAssertEqual(texts.count, 75, "one new text per frame: each drawn once")
    }

    func testOlderLinesLeaveFirst() {
        let long = (1...20).map { "line \($0)" }.joined(separator: "\n")
        let track = CaptionTrack([
            CaptionCue(startMs: 0, endMs: 1000, text: long), CaptionCue(startMs: 10, endMs: 1000, text: "newest")
        ])
        XCTAssertEqual(track.text(atMs: 500), ((10...20).map { "line \($0)" } + ["newest"]).joined(separator: "\n"))
        let wide = CaptionTrack([
            CaptionCue(startMs: 0, endMs: 1000, text: String(repeating: "a", count: 1000)),
            CaptionCue(startMs: 1, endMs: 1000, text: String(repeating: "b", count: 600))
        ])
        XCTAssertEqual(wide.text(atMs: 500), String(repeating: "b", count: 600), "the older cue leaves whole")
        // A cue built in code with more than a screen of one line keeps its start.
        let huge = CaptionTrack([CaptionCue(startMs: 0, endMs: 1000, text: "start" + String(repeating: "x", count: 50_000))])
        XCTAssertEqual(huge.text(atMs: 1)?.count, CaptionTrack.maxShownCharacters)
        XCTAssertEqual(huge.text(atMs: 1)?.hasPrefix("start"), true)
    }

    /// Characters are what a reader counts: one letter with 400,000 combining marks (700 KB
    /// of WebVTT) was one character, passed every bound and was measured at each frame (45% of
    /// the pictures dropped). A cue keeps a few marks per character, whichever reader made it.
    func testCombiningMarksCannotHideAScreenfulInOneCharacter() throws {
        let one = "a" + String(repeating: "\u{0301}", count: 400_000)
        let many = String(repeating: "b" + String(repeating: "\u{0301}", count: 700), count: 500)
        for text in [one, many] {
            let vtt = "WEBVTT\n\n00:00.000 --> 00:05.000\n" + text + "\n"
            let track = try CaptionFormat.parse(Data(vtt.utf8), budget: .testMinute).track
            let shown = try XCTUnwrap(track.text(atMs: 100))
            XCTAssertLessThanOrEqual(shown.unicodeScalars.count, 500 * CaptionText.maxScalarsPerCharacter)
            XCTAssertEqual(shown.first?.unicodeScalars.first, text.unicodeScalars.first, "the text's start stays")
        }
        // A cue made by another reader (a file's own text track) is held to the same.
        let decoded = CaptionCue(startMs: 0, endMs: 1, text: many)
        XCTAssertLessThanOrEqual(decoded.text.unicodeScalars.count, CaptionTrack.maxShownCharacters * CaptionText.maxScalarsPerCharacter)
        XCTAssertEqual(CaptionCue(startMs: 0, endMs: 1, text: "e\u{301} 👨‍👩‍👧‍👦 ok").text, "e\u{301} 👨‍👩‍👧‍👦 ok", "accents and emoji sequences stay")
    }

    func testAnEarlyLongCueStillShowsBesideLaterShortOnes() {
        var cues = [CaptionCue(startMs: 0, endMs: 10_000, text: "all along")]
        cues += (0..<1000).map { CaptionCue(startMs: 100 + $0, endMs: 101 + $0, text: "blip \($0)") }
        let track = CaptionTrack(cues)
        XCTAssertEqual(track.text(atMs: 5000), "all along", "ended cues are passed over, the long one found")
        XCTAssertEqual(track.text(atMs: 600), "all along\nblip 500")
        XCTAssertEqual(track.lastEndMs, 10_000)
    }
}
