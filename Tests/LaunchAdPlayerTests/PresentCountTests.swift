import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

@testable import LaunchAdPlayer

/// Presents cost a full-frame copy each: the player presents when something visible changed,
/// not at every pass of its 10 ms loop.
final class PresentCountTests: XCTestCase {
    func testTheTextOverlayIsPresentedOnlyWhenSomethingChanged() throws {
        try assertPresents(captions: nil, extra: 0)
    }

    /// Captions add at most one present per change of the cues showing: here 7 cues, some
    /// back to back and some with gaps, make 11 changes over the 4 s.
    func testCaptionsAddOnePresentPerCueChange() throws {
        let times = [(200, 700), (700, 1200), (1500, 1900), (2000, 2400), (2400, 2800), (3000, 3300), (3300, 3700)]
        let track = CaptionTrack(
            times.enumerated().map { CaptionCue(startMs: $0.element.0, endMs: $0.element.1, text: "Cue \($0.offset)") })
        var changes = 0, last: [Int] = []
        for t in 0..<4000 where track.showing(atMs: t) != last { changes += 1; last = track.showing(atMs: t) }
        XCTAssertEqual(changes, 11)
        try assertPresents(captions: track, extra: changes)
    }

    func assertPresents(captions: CaptionTrack?, extra: Int) throws {
        let seconds = 4, fps = 25
        let clip = try Fixtures.colourBars(seconds: seconds, rate: fps)
        setenv("SDL_VIDEODRIVER", "dummy", 1)
        setenv("SDL_AUDIODRIVER", "dummy", 1)
        let sink = RecordingSink()
        var options = PlayOptions(file: clip)  // text style, fade
        options.captionMode = .on
        var config = PlayerConfig(options)
        config.captions = captions
        let player = AdPlayer(config: config, events: sink)
        XCTAssertEqual(player.run().outcome, .completed)
        let frames = seconds * fps
        let step = PresentPacer.stepMs(frameDuration: 1 / Double(fps))
        let countdownSteps = seconds + 1  // "Skip 4" ... "Skip 1", "Skip"
        let fadeSteps = (300 + step - 1) / step + (400 + step - 1) / step
        // The first frame, the overlay appearing, window events: a few more.
        XCTAssertLessThanOrEqual(player.presents, frames + countdownSteps + fadeSteps + 4 + extra)
        // Each picture shown took a present of its own (a loaded machine may drop some).
        guard case .int(let shown)? = sink.events.last?["frames_shown"] else { return XCTFail("no frames_shown on end") }
        XCTAssertGreaterThanOrEqual(player.presents, shown)
        XCTAssertGreaterThan(shown, frames / 2)
        if captions != nil { XCTAssertEqual(sink.events.filter { $0.name == "caption" }.count, 7, "each cue reached the screen") }
    }
}
