import Foundation
import LaunchAdCore
@testable import LaunchAdPlayer
import LaunchAdTestSupport
import XCTest

/// Presents cost a full-frame copy each: the player presents when something visible changed,
/// not at every pass of its 10 ms loop.
final class PresentCountTests: XCTestCase {
    func testTheTextOverlayIsPresentedOnlyWhenSomethingChanged() throws {
        let seconds = 4, fps = 25
        let clip = try Fixtures.colourBars(seconds: seconds, rate: fps)
        setenv("SDL_VIDEODRIVER", "dummy", 1)
        setenv("SDL_AUDIODRIVER", "dummy", 1)
        let sink = RecordingSink()
        let player = AdPlayer(options: PlayOptions(file: clip), events: sink) // text style, fade
        XCTAssertEqual(player.run(), .completed)
        let frames = seconds * fps
        let step = PresentPacer.stepMs(frameDuration: 1 / Double(fps))
        let countdownSteps = seconds + 1 // "Skip 4" ... "Skip 1", "Skip"
        let fadeSteps = (300 + step - 1) / step + (400 + step - 1) / step
        // The first frame, the overlay appearing, window events: a few more.
        XCTAssertLessThanOrEqual(player.presents, frames + countdownSteps + fadeSteps + 4)
        // Each picture shown took a present of its own (a loaded machine may drop some).
        guard case .int(let shown)? = sink.events.last?["frames_shown"] else { return XCTFail("no frames_shown on end") }
        XCTAssertGreaterThanOrEqual(player.presents, shown)
        XCTAssertGreaterThan(shown, frames / 2)
    }
}
