import LaunchAdCore
import LaunchAdMedia
import LaunchAdTestSupport
import XCTest

/// Caption tracks inside the file, decoded with libavcodec's subtitle decoders.
final class EmbeddedCaptionsTests: XCTestCase {
    let expected = [
        CaptionCue(startMs: 300, endMs: 1400, text: "Hello captions"), CaptionCue(startMs: 1600, endMs: 2500, text: "Second cue")
    ]

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

extension EmbeddedCaptionsTests {
    /// CEA-608 as A/53 user data in the H.264 stream (what FFmpeg exports as A53 side data).
    func testCEA608InTheH264Stream() throws {
        let file = try CaptionFixtures.a53()
        let probe = try Fixtures.run("/usr/bin/ffprobe", ["-hide_banner", file])
        XCTAssertTrue(probe.stderr.contains("Closed Captions"), "ffprobe sees the captions too: \(probe.stderr)")
        let c = try XCTUnwrap(try EmbeddedCaptions.read(path: file))
        XCTAssertEqual(c.codec, "a53 cc_dec")
        XCTAssertEqual(c.cues.map(\.text), ["HI"])
        let cue = try XCTUnwrap(c.cues.first)
        XCTAssertEqual(Double(cue.startMs), 480, accuracy: 60, "shown at frame 12-13's end-of-caption")
        XCTAssertEqual(Double(cue.endMs), 2000, accuracy: 80, "erased at frame 50")
    }
}
