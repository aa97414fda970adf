import XCTest

@testable import LaunchAdCore

/// Caption boxes: wrapped to the area, centred low, sized to the window, never over the skip button.
final class CaptionLayoutTests: XCTestCase {
    /// Ten pixels a character: a monospaced stand-in for the font.
    let measure: (String) -> Int = { $0.count * 10 }

    func testWrapsAtSpacesThenBetweenCharacters() {
        XCTAssertEqual(CaptionLayout.wrap("the quick brown fox", maxWidth: 100, measure: measure), ["the quick", "brown fox"])
        XCTAssertEqual(CaptionLayout.wrap("abcdefghijklmno end", maxWidth: 60, measure: measure), ["abcdef", "ghijkl", "mno", "end"])
        XCTAssertEqual(CaptionLayout.wrap("one\ntwo", maxWidth: 1000, measure: measure), ["one", "two"])
    }

    func testTheBoxSitsCentredInTheLowerSafeArea() throws {
        let layout = AdLayout(window: Size(width: 720, height: 1280), mode: .fullscreen, skipStyle: .text)
        let font = CaptionLayout.fontPixels(layout: layout)
        XCTAssertEqual(font, 31, "16 points at 720 wide")
        let c = try XCTUnwrap(
            CaptionLayout.place(lines: [Size(width: 300, height: 36), Size(width: 200, height: 36)], layout: layout, font: font))
        XCTAssertEqual(c.box.midX, 360)
        XCTAssertEqual(c.box.maxY, 1280 - 64, "5% of the height above the bottom")
        XCTAssertEqual(c.lines.map(\.width), [300, 200])
        XCTAssertEqual(c.lines[1].maxY, c.box.maxY - 10)
        XCTAssertEqual(c.dropped, 0)
    }

    func testAboveTheLogoBandAndSizedToASmallWindow() throws {
        let layout = AdLayout(window: Size(width: 320, height: 240), mode: .logoBottom, skipStyle: .text)
        let font = CaptionLayout.fontPixels(layout: layout)
        XCTAssertEqual(font, 10, "a twelfth of the ad's area, not less than 10")
        let c = try XCTUnwrap(CaptionLayout.place(lines: [Size(width: 100, height: 12)], layout: layout, font: font))
        XCTAssertLessThanOrEqual(c.box.maxY, layout.adArea.maxY)
    }

    /// A portrait ad letterboxed in a landscape window: the text wraps to 90 % of the picture's
    /// width and the box sits centred on the picture, above its bottom, under its skip button.
    func testOnALetterboxedPictureTheCaptionWrapsToThePicture() throws {
        let layout = AdLayout(
            window: Size(width: 1280, height: 720), mode: .fullscreen, skipStyle: .text, picture: Size(width: 720, height: 1280), fit: .fit)
        let picture = try XCTUnwrap(layout.picture)
        let font = CaptionLayout.fontPixels(layout: layout)
        XCTAssertEqual(font, 17, "16 points of the 405-pixel-wide picture")
        let maxWidth = CaptionLayout.maxTextWidth(layout: layout)
        XCTAssertLessThanOrEqual(maxWidth + 2 * 5, picture.width * 90 / 100)
        let text = "Captions wrap inside the picture, never across the black bars beside it"
        let lines = CaptionLayout.wrap(text, maxWidth: maxWidth, measure: measure)
        XCTAssertGreaterThan(lines.count, 1)
        XCTAssertTrue(lines.allSatisfy { measure($0) <= maxWidth })
        let c = try XCTUnwrap(CaptionLayout.place(lines: lines.map { Size(width: measure($0), height: 20) }, layout: layout, font: font))
        XCTAssertLessThanOrEqual(abs(c.box.midX - picture.midX), 1)
        XCTAssertGreaterThanOrEqual(c.box.x, picture.x)
        XCTAssertLessThanOrEqual(c.box.maxX, picture.maxX)
        XCTAssertEqual(c.box.maxY, picture.maxY - 36, "5 % of the picture's height above its bottom")
        XCTAssertGreaterThanOrEqual(c.box.y, layout.skipButton.maxY)
        for line in c.lines { XCTAssertTrue(line.x >= c.box.x && line.maxX <= c.box.maxX, "\(line) in \(c.box)") }
    }

    /// The lines left out are the last (the bottom: the oldest cue's, or a lone cue's end), so
    /// the newest cue, drawn on top, stays.
    func testTooManyLinesDropTheLastRatherThanCoverTheButton() throws {
        let layout = AdLayout(window: Size(width: 320, height: 240), mode: .fullscreen, skipStyle: .text)
        let lines = (0..<10).map { Size(width: 100 + $0, height: 30) }
        let c = try XCTUnwrap(CaptionLayout.place(lines: lines, layout: layout, font: 12))
        XCTAssertGreaterThan(c.dropped, 0)
        XCTAssertGreaterThanOrEqual(c.box.y, layout.skipButton.maxY, "below the skip button")
        XCTAssertEqual(c.lines.count, 10 - c.dropped)
        XCTAssertEqual(c.lines.map(\.width), Array(100..<(110 - c.dropped)), "the first lines kept, in order")
        XCTAssertNil(CaptionLayout.place(lines: [], layout: layout, font: 12))
    }
}
