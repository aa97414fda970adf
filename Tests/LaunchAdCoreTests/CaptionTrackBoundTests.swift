import Foundation
import XCTest

@testable import LaunchAdCore

/// Issue 29, defect 8: a 1 MB WebVTT file of 5,000 overlapping cues made a 3 s ad run 10 s (its
/// whole text, 5,000 cues of it, was wrapped and drawn at every change). Every cue showing is on
/// screen, as in a browser, but what is on screen at once is bounded in the core: the newest
/// cues that fit whole in 12 lines and 1,500 characters, found in a few steps per cue shown.
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

    func testFiveThousandOverlappingCuesShowTheNewestThatFitBounded() throws {
        let data = Self.overlapping()
        XCTAssertGreaterThan(data.count, 950_000)
        let track = try CaptionFormat.parse(data, budget: .testMinute).track
        XCTAssertEqual(track.cues.count, CaptionFormat.maxCues)
        var texts = Set<String>()
        for frame in 0..<75 {
            let ms = frame * 40
            let newest = (0..<5000).last { $0 * 3 / 5 <= ms }!
            let shown = track.showing(atMs: ms)
            // The newest started, back to the first that does not fit beside them.
            XCTAssertEqual(shown.last, newest)
            XCTAssertEqual(shown, Array((newest + 1 - shown.count)...newest))
            let text = try XCTUnwrap(track.text(atMs: ms))
            XCTAssertLessThanOrEqual(text.count, CaptionTrack.maxShownCharacters)
            XCTAssertLessThanOrEqual(text.split(separator: "\n").count, CaptionTrack.maxShownLines)
            if let older = shown.first.map({ $0 - 1 }), older >= 0 {
                XCTAssertGreaterThan(text.count + 1 + track.cues[older].text.count, CaptionTrack.maxShownCharacters, "\(ms) ms")
            } else {
                XCTAssertEqual(shown.count, newest + 1, "all showing fit")
            }
            XCTAssertTrue(text.hasPrefix("Cue \(newest):"), "\(ms) ms: the newest on top: \(text.prefix(80))")
            texts.insert(text)
        }
        // 8 cues of 170 characters fit in 1,500 with the 7 line breaks between them; a ninth does not.
        XCTAssertEqual(track.showing(atMs: 2000).count, 8)
        XCTAssertEqual(texts.count, 75, "one new text per frame: each drawn once")
    }

    /// Cues leave whole, the oldest first: the newest that fit beside each other stay, and the
    /// first that does not fit takes every older one with it.
    func testTheNewestCuesThatFitShowWhole() {
        func cues(_ texts: String...) -> CaptionTrack {
            CaptionTrack(texts.enumerated().map { CaptionCue(startMs: $0.offset, endMs: 1000, text: $0.element) })
        }
        let eleven = (1...11).map { "line \($0)" }.joined(separator: "\n")
        XCTAssertEqual(cues(eleven, "newest").text(atMs: 500), "newest\n" + eleven, "12 lines fit")
        let twelve = eleven + "\nline 12"
        XCTAssertEqual(cues(twelve, "newest").text(atMs: 500), "newest", "13 lines do not: the older cue leaves whole")
        let a = String(repeating: "a", count: 500), b = String(repeating: "b", count: 498)
        XCTAssertEqual(cues(a, b, a).text(atMs: 500), [a, b, a].joined(separator: "\n"), "1,500 characters with the breaks fit")
        XCTAssertEqual(cues(a, a, a).showing(atMs: 500), [1, 2], "1,501 do not")
        XCTAssertEqual(cues("old", a, a, a).showing(atMs: 500), [2, 3], "an older cue that would fit stays out")
        // A lone cue over the bounds shows its start: its first 12 lines, its first 1,500 characters.
        let twenty = (1...20).map { "line \($0)" }.joined(separator: "\n")
        XCTAssertEqual(cues(twenty).text(atMs: 1), (1...12).map { "line \($0)" }.joined(separator: "\n"))
        let huge = CaptionTrack([CaptionCue(startMs: 0, endMs: 1000, text: "start" + String(repeating: "x", count: 50_000))])
        XCTAssertEqual(huge.text(atMs: 1)?.count, CaptionTrack.maxShownCharacters)
        XCTAssertEqual(huge.text(atMs: 1)?.hasPrefix("start"), true)
        XCTAssertEqual(cues(a, twenty).text(atMs: 500), (1...12).map { "line \($0)" }.joined(separator: "\n"), "the newest alone")
    }

    /// The search through the cue tree gives what looking at every cue gives: all the cues
    /// showing, newest first while they fit, over tracks of every shape (seeded, so the same
    /// tracks every run).
    func testTheCuesShowingAreThoseEveryCueWouldGive() {
        var seed: UInt64 = 41
        func next(_ n: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(n))
        }
        for round in 0..<100 {
            let count = 1 + next(round < 50 ? 12 : 200)
            let span = 1 + next(5000)
            let cues = (0..<count).map { i in
                let start = next(span), length = 1 + next(next(4) == 0 ? 5000 : 300)
                let lines = 1 + next(next(6) == 0 ? 14 : 3)
                let text = (0..<lines).map { _ in String(repeating: "w", count: 1 + next(next(5) == 0 ? 500 : 60)) }
                return CaptionCue(startMs: start, endMs: start + length, text: "\(i) " + text.joined(separator: "\n"))
            }
            let track = CaptionTrack(cues)
            for ms in stride(from: 0, through: span + 5000, by: 1 + span / 25) {
                var expected: [Int] = []
                var lines = 0, characters = -1
                for i in track.cues.indices.reversed() where track.cues[i].startMs <= ms && ms < track.cues[i].endMs {
                    let text = track.cues[i].text
                    let l = lines + text.split(separator: "\n", omittingEmptySubsequences: false).count
                    let c = characters + 1 + text.count
                    if !expected.isEmpty, l > CaptionTrack.maxShownLines || c > CaptionTrack.maxShownCharacters { break }
                    expected.insert(i, at: 0)
                    (lines, characters) = (l, c)
                }
                XCTAssertEqual(track.showing(atMs: ms), expected, "round \(round), \(ms) ms")
            }
        }
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
        XCTAssertEqual(track.text(atMs: 600), "blip 500\nall along", "the later cue above the earlier")
        XCTAssertEqual(track.lastEndMs, 10_000)
    }
}
