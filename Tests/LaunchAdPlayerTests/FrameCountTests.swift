import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

@testable import LaunchAdPlayer

/// The `complete` and `end` events say what became of every picture: shown or dropped, and how
/// far the picture strayed from the sound.
final class FrameCountTests: XCTestCase {
    private func play(presentDelay: Double) throws -> (complete: AdEvent, end: AdEvent) {
        let clip = try Fixtures.colourBars(seconds: 4)  // 100 pictures, 25 fps, with sound
        setenv("SDL_VIDEODRIVER", "dummy", 1)
        setenv("SDL_AUDIODRIVER", "dummy", 1)
        let sink = RecordingSink()
        var options = PlayOptions(file: clip)
        options.transition = .none
        let player = AdPlayer(options: options, events: sink)
        player.presentDelay = presentDelay
        XCTAssertEqual(player.run().outcome, .completed)
        let complete = try XCTUnwrap(sink.events.first { $0.name == "complete" })
        let end = try XCTUnwrap(sink.events.last)
        XCTAssertEqual(end.name, "end")
        for key in ["frames_shown", "frames_dropped", "av_offset_ms_max"] {
            XCTAssertEqual(complete[key], end[key], key)
        }
        return (complete, end)
    }

    func testEveryPictureIsCountedShownOrDropped() throws {
        let (_, end) = try play(presentDelay: 0)
        let shown = try XCTUnwrap(end.int("frames_shown")), dropped = try XCTUnwrap(end.int("frames_dropped"))
        XCTAssertEqual(shown + dropped, 100)
        XCTAssertGreaterThanOrEqual(shown, 90, "an idle player shows (nearly) every picture")
        let offset = try XCTUnwrap(end.int("av_offset_ms_max"))
        XCTAssertLessThan(offset, 100, "picture and sound stay within a few frames")
    }

    func testASlowScreenDropsLatePicturesAndTheCountsSaySo() throws {
        // Each present takes 120 ms: three 40 ms pictures fall due per present.
        let (_, end) = try play(presentDelay: 0.12)
        let shown = try XCTUnwrap(end.int("frames_shown")), dropped = try XCTUnwrap(end.int("frames_dropped"))
        XCTAssertEqual(shown + dropped, 100)
        XCTAssertGreaterThanOrEqual(dropped, 40)
        XCTAssertLessThanOrEqual(shown, 60)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(end.int("av_offset_ms_max")), 80, "a picture presented 120 ms late is off the sound")
    }

    func testAnImageHasNoFrameCounts() throws {
        let png = try Fixtures.write("red-frames.png", try Fixtures.solidPNG("red"))
        setenv("SDL_VIDEODRIVER", "dummy", 1)
        setenv("SDL_AUDIODRIVER", "dummy", 1)
        let sink = RecordingSink()
        var options = PlayOptions(file: png)
        options.imageDuration = 0.3
        options.transition = .none
        XCTAssertEqual(AdPlayer(options: options, events: sink).run().outcome, .completed)
        XCTAssertNil(sink.events.last?["frames_shown"])
    }
}
