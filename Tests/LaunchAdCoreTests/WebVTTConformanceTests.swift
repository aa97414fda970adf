import Foundation
import LaunchAdTestSupport
import XCTest

@testable import LaunchAdCore

/// The web-platform-tests WebVTT file-parsing cases (Corpus/wpt-webvtt, README there): every
/// file a browser loads gives the cues the WPT test says a browser gives (count, and the ids,
/// texts and times it checks); every file a browser refuses is refused with a CaptionError.
/// Then what LaunchAd shows of those cues: as a browser, never a cue that ends as or before it
/// starts (the algorithm keeps it, it is never on screen, and it is no problem, only counted);
/// where it deliberately differs from a browser, cue text is drawn as plain text (tags removed,
/// lines trimmed), and a cue starting after 24 h (past any ad) is skipped and counted.
final class WebVTTConformanceTests: XCTestCase {
    static let folder = Fixtures.repoRoot.appendingPathComponent("Tests/LaunchAdCoreTests/Corpus/wpt-webvtt")

    /// What a browser's cue list holds, as far as the WPT test checks it.
    struct Browser {
        var count: Int
        var ids: [String]? = nil
        var texts: [String]? = nil
        /// Start and end in ms.
        var times: [(Int, Int)]? = nil
    }

    /// What LaunchAd shows where it differs from the browser's cues, how many of the browser's
    /// cues it counts as skipped (a `captions_error`) or as never on screen (the `captions`
    /// event's `never_shown`), and why.
    struct Shown {
        var texts: [String]
        var skipped = 0
        var neverShown = 0
        var because: String
    }

    static func text1to(_ n: Int) -> [String] { (1...n).map { "text\($0)" } }

    /// Every .vtt in the folder a browser loads, with the WPT test's expectations.
    static let loads: [String: (Browser, Shown?)] = [
        "arrows": (Browser(count: 6), nil),
        "comment-in-cue-text": (Browser(count: 2, texts: ["NOTE text", "NOTE text\nNOTE text2"], times: [(0, 1000), (1000, 2000)]), nil),
        "header-garbage": (Browser(count: 1, texts: ["text"], times: [(0, 1000)]), nil),
        "header-regions": (
            Browser(
                count: 9,
                texts: Array(repeating: "\"no region\"", count: 4) + [
                    "{}",
                    "{\"width\":32,\"lines\":5,\"regionAnchorX\":41,\"regionAnchorY\":20,\"viewportAnchorX\":31,\"viewportAnchorY\":84,\"scroll\":\"up\"}",
                    "{\"regionAnchorX\":41.125,\"regionAnchorY\":20.25,\"viewportAnchorX\":32.75,\"viewportAnchorY\":32.5}",
                    "{\"width\":67}", "\"no region\""
                ]), nil
        ),
        "header-space": (Browser(count: 1, texts: ["text"], times: [(0, 1000)]), nil),
        "header-tab": (Browser(count: 1, texts: ["text"], times: [(0, 1000)]), nil),
        "header-timings": (Browser(count: 1, texts: ["text"], times: [(0, 1000)]), nil),
        "ids": (Browser(count: 5, ids: [" leading space", "trailing space ", "-- >", "->", " "]), nil),
        "newlines": (Browser(count: 4, ids: ["cr", "lf", "crlf", "lfcr"], texts: ["text0", "text1", "text2", "text3"]), nil),
        "nulls": (
            Browser(
                count: 7, ids: ["", "\u{FFFD} (null in id)", "\u{FFFD} (null in cue data)"] + Array(repeating: "", count: 4),
                texts: ["text0", "text1", "\u{FFFD}text\u{FFFD}2", "text3", "text4", "text5", "text6"]), nil
        ),
        "regions-edge-case": (Browser(count: 4, texts: Array(repeating: "text", count: 4)), nil),
        "regions-id": (Browser(count: 4, texts: Array(repeating: "valid", count: 4)), nil),
        "regions-lines": (Browser(count: 13), nil),
        "regions-old": (Browser(count: 2, texts: ["text1", "text2"]), nil),
        "regions-regionanchor": (Browser(count: 20), nil),
        "regions-scroll": (Browser(count: 6), nil),
        "regions-viewportanchor": (Browser(count: 20), nil),
        "settings-align": (Browser(count: 13, texts: text1to(13)), nil),
        "settings-line": (Browser(count: 36), nil),
        "settings-multiple": (Browser(count: 2, ids: ["id1", "id2"], texts: ["text1", "text2"]), nil),
        "settings-position": (Browser(count: 22), nil),
        "settings-region": (Browser(count: 9), nil),
        "settings-size": (Browser(count: 16), nil),
        "settings-vertical": (Browser(count: 8), nil),
        "signature-bom": (Browser(count: 0), nil),
        "signature-no-newline": (Browser(count: 0), nil),
        "signature-space": (Browser(count: 0), nil),
        "signature-space-no-newline": (Browser(count: 0), nil),
        "signature-tab": (Browser(count: 0), nil),
        "signature-tab-no-newline": (Browser(count: 0), nil),
        "signature-timings": (Browser(count: 0), nil),
        // WPT checks only this file's style sheets; the cues are what the spec's algorithm gives
        // (the timing-like line inside the STYLE block has no `-->`, so it stays style).
        "stylesheets-newlines": (Browser(count: 2, ids: ["foo", "bar"], texts: ["text", "text"]), nil),
        "stylesheets-none": (Browser(count: 0), nil),
        "timings-60": (
            Browser(count: 2, texts: ["text1", "text2"], times: [(0, 216_001_000), (216_000_000, 216_001_000)]),
            Shown(texts: ["text1"], skipped: 1, because: "text2 starts at 60 h, past any ad; text1 is cut at 24 h")
        ),
        "timings-eof": (Browser(count: 0), nil),
        "timings-garbage": (Browser(count: 0), nil),
        "timings-negative": (
            Browser(count: 4, texts: text1to(4), times: [(0, 0), (1000, 999), (60000, 59999), (3_600_000, 3_599_999)]),
            Shown(
                texts: [], skipped: 0, neverShown: 4,
                because: "each ends as or before it starts: a browser keeps them in its list and never shows them; counted, not a problem")
        ),
        "timings-omitted-hours": (Browser(count: 3, texts: text1to(3), times: Array(repeating: (0, 1000), count: 3)), nil),
        "timings-too-long": (Browser(count: 2, texts: text1to(2), times: [(0, 1000), (0, 1000)]), nil),
        "timings-too-short": (Browser(count: 2, texts: text1to(2), times: [(0, 1000), (0, 1000)]), nil),
        "whitespace-chars": (
            Browser(count: 3, ids: ["spaces", "tabs", "form feed"], texts: ["   text0", "text1", "text2"]),
            Shown(texts: ["text0", "text1", "text2"], because: "lines are trimmed for display")
        )
    ]

    /// The files WPT's signature-invalid.html expects a browser to refuse.
    static let refused = [
        "empty", "signature-formfeed", "signature-lowercase", "signature-missing", "signature-missing-whitespace", "signature-partial",
        "signature-two-boms"
    ]

    func data(_ name: String) throws -> Data { try Data(contentsOf: Self.folder.appendingPathComponent("\(name).vtt")) }

    func testEveryFileOfTheCorpusHasAnExpectation() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { $0.hasSuffix(".vtt") }
        XCTAssertEqual(Set(files.map { String($0.dropLast(4)) }), Set(Self.loads.keys).union(Self.refused))
        XCTAssertEqual(files.count, 48)
    }

    func testABrowsersCuesFromEveryFileItLoads() throws {
        for (name, (browser, _)) in Self.loads.sorted(by: { $0.key < $1.key }) {
            let blocks = try WebVTTParser.blocks(WebVTTParser.decode(try data(name)), budget: .testMinute)
            let cues = blocks.compactMap { if case .cue(let c) = $0 { return c } else { return nil } }
            XCTAssertEqual(cues.count, browser.count, name)
            guard cues.count == browser.count else { continue }
            if let ids = browser.ids { XCTAssertEqual(cues.map(\.id), ids, name) }
            if let texts = browser.texts { XCTAssertEqual(cues.map(\.text), texts, name) }
            if let times = browser.times {
                XCTAssertEqual(cues.map(\.startMs), times.map(\.0), name)
                XCTAssertEqual(cues.map(\.endMs), times.map(\.1), name)
            }
        }
    }

    func testWhatLaunchAdShowsOfThem() throws {
        for (name, (browser, shown)) in Self.loads.sorted(by: { $0.key < $1.key }) {
            let parse = try CaptionFormat.parse(try data(name), budget: .testMinute)
            XCTAssertEqual(parse.format, .webvtt, name)
            // Blocks a browser drops for their timing line are counted as skipped, with the line.
            let unreadable = try WebVTTParser.blocks(WebVTTParser.decode(try data(name)), budget: .testMinute).count - browser.count
            XCTAssertEqual(parse.neverShown, shown?.neverShown ?? 0, name)
            if let shown {
                XCTAssertEqual(parse.track.cues.map(\.text), shown.texts, "\(name): \(shown.because)")
                XCTAssertEqual(parse.skipped, unreadable + shown.skipped, "\(name): \(parse.firstProblem ?? "")")
            } else {
                XCTAssertEqual(parse.track.cues.count, browser.count, name)
                XCTAssertEqual(parse.skipped, unreadable, "\(name): \(parse.firstProblem ?? "")")
                if let texts = browser.texts { XCTAssertEqual(parse.track.cues.map(\.text), texts, name) }
            }
        }
    }

    /// Issue 41 saw newlines "lose its first cue" and nulls "lose cues 1-4 of 7" in the `caption`
    /// events: their cues all show from 0 to 1 s, and every one is read (above). A browser shows
    /// every cue showing, each placed as low as it fits in text track cue order (start, then the
    /// later end, then the file's order): the first at the bottom, each later one above it
    /// (WebVTT's "apply WebVTT cue settings", snap-to-lines). So does LaunchAd: the text lists
    /// them top to bottom, the file's last cue first.
    func testCuesShowingTogetherAllShowStackedAsABrowserStacksThem() throws {
        for (name, count) in [("newlines", 4), ("nulls", 7)] {
            let track = try CaptionFormat.parse(try data(name), budget: .testMinute).track
            XCTAssertEqual(track.cues.count, count, name)
            XCTAssertEqual(track.showing(atMs: 0), Array(0..<count), name)
            let browser = try XCTUnwrap(Self.loads[name]?.0.texts, name)
            XCTAssertEqual(track.text(atMs: 0), browser.reversed().joined(separator: "\n"), name)
            XCTAssertNil(track.text(atMs: 1000), name)
        }
        let nulls = try CaptionFormat.parse(try data("nulls"), budget: .testMinute).track
        XCTAssertEqual(nulls.text(atMs: 999), "text6\ntext5\ntext4\ntext3\n\u{FFFD}text\u{FFFD}2\ntext1\ntext0")
    }

    func testEveryFileABrowserRefusesIsRefused() throws {
        for name in Self.refused {
            XCTAssertThrowsError(try WebVTTParser.parse(WebVTTParser.decode(try data(name)), budget: .testMinute), name) { e in
                XCTAssertEqual(
                    (e as? CaptionError)?.message,
                    "the WebVTT file does not start with its signature (WEBVTT, then a space, a tab or the line's end)",
                    name)
            }
            // Read by content, only one of them is a caption file at all: signature-missing is a
            // timing line and its text, which is SubRip as FFmpeg reads it.
            if name == "signature-missing" {
                XCTAssertEqual(try CaptionFormat.parse(try data(name), budget: .testMinute).format, .srt)
            } else {
                XCTAssertThrowsError(try CaptionFormat.parse(try data(name), budget: .testMinute), name) {
                    XCTAssertTrue($0 is CaptionError, name)
                }
            }
        }
    }
}
