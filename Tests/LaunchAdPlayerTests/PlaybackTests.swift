import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

/// The foundation's promise: the right picture at the right media time, for the media's length.
final class PlaybackTests: XCTestCase {
    func testSolidColoursAreOnScreenAtTheirMediaTimes() throws {
        let clip = try Fixtures.colourBars(seconds: 4)
        let h = PlayerHarness()
        var options = PlayOptions(file: clip)
        options.transition = .none
        let outcome = h.play(options)
        XCTAssertEqual(outcome, .completed)

        let expected = ["red", "lime", "blue", "white"]
        var checked = 0
        for s in h.samples {
            guard let t = s.mediaTime, t.truncatingRemainder(dividingBy: 1) > 0.1, t.truncatingRemainder(dividingBy: 1) < 0.9,
                s.nowMs - (h.first("first_frame")?.tMs ?? 0) > 400
            else { continue }  // after the fade-in
            XCTAssertEqual(colourName(s.pixel), expected[Int(t)], "at media time \(t)")
            checked += 1
        }
        XCTAssertGreaterThan(checked, 50, "pictures presented and read back")
        // Media times on screen never go backwards.
        let times = h.samples.compactMap(\.mediaTime)
        XCTAssertEqual(times, times.sorted())
    }

    func testPlaybackLastsTheMediaDuration() throws {
        let clip = try Fixtures.colourBars(seconds: 4)
        let h = PlayerHarness()
        XCTAssertEqual(h.play(PlayOptions(file: clip)), .completed)
        let first = try XCTUnwrap(h.first("first_frame")).tMs
        let complete = try XCTUnwrap(h.first("complete")).tMs
        let played = Double(complete - first) / 1000
        XCTAssertEqual(played, 4.0, accuracy: 0.4, "wall time from first frame to end of stream")
        XCTAssertEqual(h.events("quartile").compactMap { $0.int("quartile") }, [25, 50, 75])
        XCTAssertEqual(h.events("end").count, 1)
        XCTAssertEqual(h.first("end")?.string("outcome"), "completed")
        let start = try XCTUnwrap(h.first("start"))
        XCTAssertEqual(start.int("width"), 320)
        XCTAssertEqual(start["has_audio"], .bool(true))
    }

    func testThePictureOnScreenFollowsTheAudioBeingHeard() throws {
        let clip = try Fixtures.colourBars(seconds: 4)
        let h = PlayerHarness()
        var options = PlayOptions(file: clip)
        options.skipStyle = .ring  // redraw often, so many moments are sampled
        XCTAssertEqual(h.play(options), .completed)
        let pairs = h.samples.compactMap { s -> (Double, Double)? in
            guard let v = s.mediaTime, let a = s.audioClock, a > 0.2, a < 3.8 else { return nil }
            return (v, a)
        }
        XCTAssertGreaterThan(pairs.count, 60)
        // A picture is due when the audio reaches it and stays until the next one (25 fps: 40 ms).
        let worst = pairs.map { $0.1 - $0.0 }.max() ?? 1
        let earliest = pairs.map { $0.1 - $0.0 }.min() ?? -1
        XCTAssertLessThan(worst, 0.040 + 0.030, "the picture lags the sound by at most a frame and a bit")
        XCTAssertGreaterThan(earliest, -0.010, "no picture is shown before its sound")
    }

    func testVideoWithoutAudioRunsOnTheExternalClock() throws {
        let clip = try Fixtures.colourBars(seconds: 3, audio: false)
        let h = PlayerHarness()
        var options = PlayOptions(file: clip)
        options.transition = .none
        XCTAssertEqual(h.play(options), .completed)
        let played = Double(try XCTUnwrap(h.first("complete")).tMs - (try XCTUnwrap(h.first("first_frame")).tMs)) / 1000
        XCTAssertEqual(played, 3.0, accuracy: 0.3)
        XCTAssertEqual(h.first("start")?["has_audio"], .bool(false))
        let late = h.samples.filter { ($0.mediaTime ?? 0) > 2.2 && ($0.mediaTime ?? 0) < 2.8 }
        XCTAssertFalse(late.isEmpty)
        XCTAssertTrue(late.allSatisfy { colourName($0.pixel) == "blue" })
    }

    func testMaxDurationCapsAVideo() throws {
        let clip = try Fixtures.colourBars(seconds: 4)
        let h = PlayerHarness()
        var options = PlayOptions(file: clip)
        options.maxDuration = 1.5
        options.transition = .none
        XCTAssertEqual(h.play(options), .capped, "1.5 s of a 4 s video: capped, not completed")
        XCTAssertNil(h.first("complete"))
        let shown = try XCTUnwrap(h.first("end")?.int("shown_ms"))
        XCTAssertEqual(Double(shown), 1500, accuracy: 150)
        XCTAssertTrue(h.samples.compactMap(\.mediaTime).allSatisfy { $0 < 1.7 })
    }
}
