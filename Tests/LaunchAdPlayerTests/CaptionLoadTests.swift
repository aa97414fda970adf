import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

@testable import LaunchAdPlayer

/// Issue 29, defect 8, in the player: a 3 s ad with 5,000 overlapping cues (1 MB of WebVTT)
/// plays as any ad does, each caption the viewer sees bounded (the newest cues that fit in 12
/// lines and 1,500 characters), drawn again only when it changes.
final class CaptionLoadTests: XCTestCase {
    func testFiveThousandOverlappingCuesDoNotSlowTheAd() throws {
        var vtt = "WEBVTT\n\n"
        for i in 0..<5000 {
            let start = i * 3 / 5
            vtt += String(format: "00:%02d.%03d --> 00:10.000\n", start / 1000, start % 1000)
            vtt += "Cue \(i): " + String(repeating: "overlapping words ", count: 9) + "\n\n"
        }
        let track = try CaptionFormat.parse(Data(vtt.utf8), budget: CaptionFormat.budget(seconds: 60, limitName: "the test's minute")).track
        let seconds = 3, fps = 25
        let clip = try Fixtures.colourBars(seconds: seconds, rate: fps)
        setenv("SDL_VIDEODRIVER", "dummy", 1)
        setenv("SDL_AUDIODRIVER", "dummy", 1)
        let sink = RecordingSink()
        var options = PlayOptions(file: clip)
        options.captionMode = .on
        var config = PlayerConfig(options)
        config.captions = track
        let player = AdPlayer(config: config, events: sink)
        XCTAssertEqual(player.run().outcome, .completed)
        guard case .int(let shown)? = sink.events.last?["frames_shown"] else { return XCTFail("no frames_shown on end") }
        XCTAssertGreaterThan(shown, seconds * fps / 2, "pictures were shown, not dropped behind caption drawing")
        let captions = sink.events.filter { $0.name == "caption" }
        XCTAssertGreaterThan(captions.count, 0)
        // One caption change per new picture at most (the text follows the picture's time).
        XCTAssertLessThanOrEqual(captions.count, shown + 1)
        for event in captions {
            guard case .string(let text)? = event["text"] else { return XCTFail("a caption without text") }
            XCTAssertLessThanOrEqual(text.count, CaptionTrack.maxShownCharacters)
            XCTAssertLessThanOrEqual(text.split(separator: "\n").count, CaptionTrack.maxShownLines)
            // Past the first 5 ms, eight of these 171-character cues fit: all showing, as a browser would, up to the bounds.
            guard case .int(let at)? = event["at_ms"], at >= 5 else { continue }
            XCTAssertEqual(text.split(separator: "\n").count, 8, "at \(at) ms")
        }
    }
}
