import CSDL2
import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

/// Losing focus or being minimized pauses within a frame; the picture freezes; regaining resumes
/// from the same frame; paused time is left out of shown_ms.
final class FocusPauseTests: XCTestCase {
    func testFocusLossFreezesThePictureAndResumeContinuesFromIt() throws {
        let clip = try Fixtures.colourBars(seconds: 3)
        let h = PlayerHarness()
        var lost = false
        var lostAt = 0.0
        h.onFrame = { s, _ in
            guard !lost, let t = s.mediaTime, t > 1.2 else { return }
            lost = true
            lostAt = t
            PlayerHarness.pushWindowEvent(SDL_WINDOWEVENT_FOCUS_LOST)
            // While away, the window is exposed twice (it redraws the frozen frame), then focus returns.
            let q = DispatchQueue.global()
            q.asyncAfter(deadline: .now() + 0.3) { PlayerHarness.pushWindowEvent(SDL_WINDOWEVENT_EXPOSED) }
            q.asyncAfter(deadline: .now() + 0.6) { PlayerHarness.pushWindowEvent(SDL_WINDOWEVENT_EXPOSED) }
            q.asyncAfter(deadline: .now() + 1.0) { PlayerHarness.pushWindowEvent(SDL_WINDOWEVENT_FOCUS_GAINED) }
        }
        var options = PlayOptions(file: clip)
        options.transition = .none
        options.skipStyle = .ring
        XCTAssertEqual(h.play(options), .completed)

        let pause = try XCTUnwrap(h.first("pause"))
        let resume = try XCTUnwrap(h.first("resume"))
        XCTAssertEqual(pause.string("reason"), "focus_lost")
        XCTAssertEqual(resume.string("reason"), "focus_gained")
        XCTAssertGreaterThanOrEqual(resume.tMs - pause.tMs, 900)

        // While paused: every presented frame shows the same media time and the same pixels.
        let paused = h.samples.filter { $0.isPaused }
        XCTAssertGreaterThanOrEqual(paused.count, 2, "frames presented while paused")
        XCTAssertEqual(Set(paused.compactMap(\.mediaTime)).count, 1, "picture frozen")
        XCTAssertEqual(Set(paused.map { $0.pixel }).count, 1)
        let frozenAt = try XCTUnwrap(paused.first?.mediaTime)
        // From the picture on screen when the focus went (past 1.2 s: later than 1.24 s when a loaded
        // machine dropped the pictures before it).
        XCTAssertLessThan(frozenAt, lostAt + 0.1, "paused within a frame of the focus loss (at \(lostAt) s)")

        // Resumed from the same frame: the next media time follows on.
        let after = h.samples.filter { $0.nowMs > resume.tMs }.compactMap(\.mediaTime)
        let next = try XCTUnwrap(after.first)
        XCTAssertGreaterThanOrEqual(next, frozenAt)
        XCTAssertLessThan(next, frozenAt + 0.25)

        // shown_ms leaves the pause out; wall time includes it.
        let end = try XCTUnwrap(h.first("end"))
        let shown = try XCTUnwrap(end.int("shown_ms"))
        XCTAssertEqual(Double(shown), 3000, accuracy: 300)
        let wall = end.tMs - (try XCTUnwrap(h.first("first_frame")).tMs)
        XCTAssertGreaterThan(wall, shown + 900)
        // The countdown stood still while paused.
        XCTAssertEqual(Set(paused.map(\.skip.progress)).count, 1)
    }

    func testMinimizeAndRestore() throws {
        let clip = try Fixtures.colourBars(seconds: 2, audio: false)
        let h = PlayerHarness()
        var minimized = false
        h.onFrame = { s, _ in
            guard !minimized, (s.mediaTime ?? 0) > 0.5 else { return }
            minimized = true
            PlayerHarness.pushWindowEvent(SDL_WINDOWEVENT_MINIMIZED)
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) { PlayerHarness.pushWindowEvent(SDL_WINDOWEVENT_RESTORED) }
        }
        var options = PlayOptions(file: clip)
        options.skipStyle = .ring
        XCTAssertEqual(h.play(options), .completed)
        XCTAssertEqual(h.events("pause").compactMap { $0.string("reason") }, ["minimized"])
        XCTAssertEqual(h.events("resume").compactMap { $0.string("reason") }, ["restored"])
    }

    func testNoPauseOnBlurKeepsPlaying() throws {
        let clip = try Fixtures.colourBars(seconds: 2, audio: false)
        let h = PlayerHarness()
        var sent = false
        h.onFrame = { s, _ in
            if !sent, (s.mediaTime ?? 0) > 0.5 { sent = true; PlayerHarness.pushWindowEvent(SDL_WINDOWEVENT_FOCUS_LOST) }
        }
        var options = PlayOptions(file: clip)
        options.pauseOnBlur = false
        options.transition = .none
        XCTAssertEqual(h.play(options), .completed)
        XCTAssertTrue(sent)
        XCTAssertTrue(h.events("pause").isEmpty)
        XCTAssertEqual(Double(try XCTUnwrap(h.first("end")?.int("shown_ms"))), 2000, accuracy: 250)
    }

    /// The previous ad's window, closing, sends its own hidden and focus-lost events (late, on a
    /// loaded machine): they must not pause the next ad the process shows (a pod, a host).
    func testAnEarlierWindowsEventsDoNotPauseTheNextAd() throws {
        let clip = try Fixtures.colourBars(seconds: 1, audio: false)
        XCTAssertEqual(PlayerHarness().play(PlayOptions(file: clip)), .completed)
        PlayerHarness.pushWindowEvent(SDL_WINDOWEVENT_HIDDEN)  // to the window just closed
        PlayerHarness.pushWindowEvent(SDL_WINDOWEVENT_FOCUS_LOST)
        let next = PlayerHarness()
        XCTAssertEqual(next.play(PlayOptions(file: clip)), .completed)
        XCTAssertEqual(next.events("pause").count, 0)
    }
}
