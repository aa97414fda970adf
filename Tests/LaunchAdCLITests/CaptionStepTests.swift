import Foundation
import LaunchAdCore
import LaunchAdPlayer
import LaunchAdTestSupport
import XCTest

@testable import LaunchAdEngine

/// What the caption reader says of a file, in process: a WebVTT file whose cues all end as or
/// before they start (WPT's timings-negative) read as `cues: 0` and nothing else; the `captions`
/// event now says how many of its cues can never be on screen.
final class CaptionStepTests: XCTestCase {
    func read(_ file: String) -> (CaptionTrack?, [AdEvent]) {
        let sink = RecordingSink()
        let load = CaptionStep.loader(
            file, source: .sidecar, reach: .any, o: PlayOptions(file: "ad.mp4"), network: RunNetwork(PrefetchOptions()))
        let track = load(sink, { false })
        return (track, sink.events)
    }

    func testCuesThatCanNeverShowAreCountedInTheCaptionsEvent() throws {
        let corpus = Fixtures.repoRoot.appendingPathComponent("Tests/LaunchAdCoreTests/Corpus/wpt-webvtt")
        let (track, events) = read(corpus.appendingPathComponent("timings-negative.vtt").path)
        XCTAssertEqual(track?.isEmpty, true)
        XCTAssertEqual(events.map(\.name), ["captions"], "not a problem: no captions_error")
        XCTAssertEqual(events.first?["cues"], 0)
        XCTAssertEqual(events.first?["never_shown"], 4)
        // A file whose cues all can show says nothing more.
        let (shown, more) = read(corpus.appendingPathComponent("newlines.vtt").path)
        XCTAssertEqual(shown?.cues.count, 4)
        XCTAssertEqual(more.map(\.name), ["captions"])
        XCTAssertEqual(more.first?["cues"], 4)
        XCTAssertNil(more.first?["never_shown"])
    }
}
