import XCTest

@testable import LaunchAdCore

/// Which cue shows at shown-time t, and when captions show at all (mode and mute).
final class CaptionTimingTests: XCTestCase {
    let track = CaptionTrack([
        CaptionCue(startMs: 2000, endMs: 3000, text: "second"),
        CaptionCue(startMs: 500, endMs: 2000, text: "first"),
        CaptionCue(startMs: 2500, endMs: 4000, text: "overlap")
    ])

    func testACueShowsFromItsStartUntilJustBeforeItsEnd() {
        XCTAssertNil(track.text(atMs: 499))
        XCTAssertEqual(track.text(atMs: 500), "first")
        XCTAssertEqual(track.text(atMs: 1999), "first")
        XCTAssertEqual(track.text(atMs: 2000), "second", "the first cue's end is the second's start: no blank frame, no overlap")
        XCTAssertEqual(track.text(atMs: 2600), "overlap\nsecond", "overlapping cues stack as in a browser: the later one above")
        XCTAssertEqual(track.text(atMs: 3999), "overlap")
        XCTAssertNil(track.text(atMs: 4000))
        XCTAssertEqual(track.lastEndMs, 4000)
    }

    func testTheShowingSetChangesOnlyAtCueBoundaries() {
        // The player redraws when this set changes: count the changes over 5 s at 1 ms steps.
        var changes = 0
        var last: [Int] = []
        for t in 0..<5000 {
            let now = track.showing(atMs: t)
            if now != last { changes += 1; last = now }
        }
        XCTAssertEqual(changes, 5)  // first on, first→second, +overlap, second off, overlap off
    }

    func testModeAutoFollowsMuteOnAndOffDoNot() {
        XCTAssertEqual(track.onScreen(atMs: 600, mode: .auto, muted: true), "first")
        XCTAssertNil(track.onScreen(atMs: 600, mode: .auto, muted: false))
        XCTAssertEqual(track.onScreen(atMs: 600, mode: .on, muted: false), "first")
        XCTAssertNil(track.onScreen(atMs: 600, mode: .off, muted: true))
    }

    func testCuesAddedLaterKeepStartOrder() {
        var t = CaptionTrack([CaptionCue(startMs: 3000, endMs: 4000, text: "c")])
        t.append([CaptionCue(startMs: 1000, endMs: 2000, text: "a")])
        XCTAssertEqual(t.cues.map(\.text), ["a", "c"])
    }

    func testClockTimes() throws {
        func vtt(_ s: String) -> Int? {
            let a = Array(s.unicodeScalars)
            var p = 0
            let v = WebVTTTimings.timestamp(a[...], &p)
            return p == a.count ? v : nil
        }
        XCTAssertEqual(vtt("01:02.500"), 62_500)
        XCTAssertNil(vtt("01:02.5"), "a WebVTT fraction is exactly three digits")
        XCTAssertNil(vtt("00:61.000"))
        XCTAssertEqual(SRTParser.timing("1:00:00,050 --> 1:00:00,060")?.0, 3_600_050)
        XCTAssertEqual(try TTMLTime(root: { ["tickRate": "90"][$0] }).ms("90t"), 1000)
        XCTAssertEqual(TTMLTime().ms("2m"), 120_000)
    }
}

/// `--caption-lang`, else the locale, else the first file.
final class CaptionLanguageTests: XCTestCase {
    func testPreferredThenLocaleThenFirst() {
        let files: [String?] = ["es", "en-US", nil, "pt"]
        XCTAssertEqual(CaptionLanguage.choose(files, preferred: "pt-BR", locale: "en_US.UTF-8"), 3, "primary subtag match")
        XCTAssertEqual(CaptionLanguage.choose(files, preferred: nil, locale: CaptionLanguage.fromLocale("en_US.UTF-8")), 1)
        XCTAssertEqual(CaptionLanguage.choose(files, preferred: "de", locale: "fr"), 0)
        XCTAssertNil(CaptionLanguage.choose([], preferred: "en", locale: nil))
        XCTAssertEqual(CaptionLanguage.choose(["fre", "eng"], preferred: "en-GB", locale: nil), 1, "MP4's three-letter codes")
    }

    func testTagsAndLocales() {
        XCTAssertTrue(CaptionLanguage.isTag("zh-Hant"))
        XCTAssertFalse(CaptionLanguage.isTag("english"))
        XCTAssertFalse(CaptionLanguage.isTag("../x"))
        XCTAssertNil(CaptionLanguage.fromLocale("C.UTF-8"))
        XCTAssertEqual(CaptionLanguage.fromLocale("de_DE@euro"), "de-DE")
    }
}
