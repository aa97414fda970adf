import LaunchAdCore
import LaunchAdMedia
import LaunchAdTestSupport
import XCTest

/// Caption tracks inside the file, decoded with libavcodec's subtitle decoders.
final class EmbeddedCaptionsTests: XCTestCase {
    let expected = [CaptionCue(startMs: 300, endMs: 1400, text: "Hello captions"), CaptionCue(startMs: 1600, endMs: 2500, text: "Second cue")]

    func testMovTextInMP4() throws {
        let c = try XCTUnwrap(try EmbeddedCaptions.read(path: try CaptionFixtures.textTrack(codec: "mov_text", ext: "mp4")))
        XCTAssertEqual(c.codec, "mov_text")
        XCTAssertEqual(c.language, "eng")
        XCTAssertEqual(c.cues, expected)
    }

    func testWebVTTInMatroska() throws {
        let c = try XCTUnwrap(try EmbeddedCaptions.read(path: try CaptionFixtures.textTrack(codec: "webvtt", ext: "mkv")))
        XCTAssertEqual(c.codec, "webvtt")
        XCTAssertEqual(c.cues, expected)
    }

    func testCEA608TrackThroughCcaption() throws {
        let c = try XCTUnwrap(try EmbeddedCaptions.read(path: try CaptionFixtures.cea608()))
        XCTAssertEqual(c.codec, "cc_dec")
        XCTAssertEqual(c.cues.map(\.text), ["HI"])
        let cue = try XCTUnwrap(c.cues.first)
        XCTAssertEqual(Double(cue.startMs), 330, accuracy: 80, "shown at the end-of-caption command (frame 10 at 29.97 fps)")
    }

    func testAFileWithoutCaptionsHasNone() throws {
        XCTAssertNil(try EmbeddedCaptions.read(path: try Fixtures.colourBars(seconds: 1, audio: false)))
    }
}
