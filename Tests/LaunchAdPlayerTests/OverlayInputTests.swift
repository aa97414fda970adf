import CSDL2
import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

@testable import LaunchAdPlayer

/// The skip button: drawn where the layout says, counting down, and acting on clicks, touches and Esc.
final class OverlayInputTests: XCTestCase {
    func testSkipButtonIsDrawnTopRightAndCountsDown() throws {
        let clip = try Fixtures.colourBars(seconds: 3, audio: false)
        let h = PlayerHarness()
        var options = PlayOptions(file: clip)
        options.size = Size(width: 360, height: 640)
        options.transition = .none
        XCTAssertEqual(h.play(options), .completed)
        let shownTexts = h.samples.map(\.skip.text).reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } }
        XCTAssertEqual(shownTexts.filter { !$0.isEmpty }, ["Skip 3", "Skip 2", "Skip 1", "Skip"].filter { shownTexts.contains($0) })
        XCTAssertTrue(shownTexts.contains("Skip 3") && shownTexts.contains("Skip 2") && shownTexts.contains("Skip 1"))

        // The 320x240 ad letterboxed (fit) in the 360x640 window: the button is on the picture.
        let layout = try XCTUnwrap(h.samples.last?.layout)
        let button = layout.skipButton, picture = try XCTUnwrap(layout.picture)
        XCTAssertEqual(picture, Rect(x: 0, y: 185, width: 360, height: 270))
        XCTAssertGreaterThan(button.x, 360 / 2, "right half")
        XCTAssertTrue(button.y > picture.y && button.maxY < picture.y + picture.height / 4, "top of the picture: \(button)")
        XCTAssertLessThanOrEqual(button.maxX, 360)
    }

    func testSkipButtonPixelsDifferFromTheAdAroundIt() throws {
        let clip = try Fixtures.colourBars(seconds: 2, audio: false)
        let h = PlayerHarness()
        let layout = AdLayout(window: Size(width: 360, height: 640), mode: .fullscreen, skipStyle: .text)
        let b = layout.skipButton
        // Inside the pill at its left end (dark background over red), and just outside it (plain red).
        h.probes = [(b.x + 3, b.midY), (b.x - 6, b.midY)]
        var options = PlayOptions(file: clip)
        options.size = Size(width: 360, height: 640)
        options.fit = .fill
        options.transition = .none
        XCTAssertEqual(h.play(options), .completed)
        let steady = h.samples.filter { ($0.mediaTime ?? 0) > 0.5 && ($0.mediaTime ?? 0) < 0.9 }
        let s = try XCTUnwrap(steady.last)
        let inside = s.probes[0], outside = s.probes[1]
        XCTAssertEqual(colourName(outside), "red")
        XCTAssertLessThan(Int(inside[0]), Int(outside[0]) - 60, "the button darkens the ad beneath it")
    }

    func testClickInsideTheSkipButtonSkips() throws {
        let clip = try Fixtures.colourBars(seconds: 4, audio: false)
        let h = PlayerHarness()
        var clicked = false
        h.onFrame = { s, _ in
            if !clicked, (s.mediaTime ?? 0) > 1.0 {
                clicked = true
                PlayerHarness.pushClick(x: s.layout.skipButton.midX, y: s.layout.skipButton.midY)
            }
        }
        var options = PlayOptions(file: clip)
        options.size = Size(width: 360, height: 640)
        options.link = "https://example.com/sale"
        XCTAssertEqual(h.play(options), .skipped)
        XCTAssertEqual(h.first("skip")?.string("via"), "pointer")
        XCTAssertTrue(h.events("click").isEmpty, "a skip is not a click-through")
        XCTAssertEqual(Double(try XCTUnwrap(h.first("end")?.int("shown_ms"))), 1000, accuracy: 250)
    }

    func testClickOnTheAdOpensTheLink() throws {
        let clip = try Fixtures.colourBars(seconds: 3, audio: false)
        let h = PlayerHarness()
        var clicked = false
        h.onFrame = { s, _ in
            if !clicked, (s.mediaTime ?? 0) > 0.5 { clicked = true; PlayerHarness.pushClick(x: 100, y: 400) }
        }
        var options = PlayOptions(file: clip)
        options.size = Size(width: 360, height: 640)
        options.link = "https://example.com/sale"
        XCTAssertEqual(h.play(options), .clicked)
        XCTAssertEqual(h.first("click")?.string("link"), "https://example.com/sale")
    }

    func testFingerUpInsideTheSkipButtonSkips() throws {
        let clip = try Fixtures.colourBars(seconds: 3, audio: false)
        let h = PlayerHarness()
        var touched = false
        h.onFrame = { s, _ in
            if !touched, (s.mediaTime ?? 0) > 0.5 {
                touched = true
                let b = s.layout.skipButton, w = s.layout.window
                PlayerHarness.pushFingerUp(x: Double(b.midX) / Double(w.width), y: Double(b.midY) / Double(w.height))
            }
        }
        var options = PlayOptions(file: clip)
        options.size = Size(width: 360, height: 640)
        XCTAssertEqual(h.play(options), .skipped)
    }

    func testSkipAfterDisablesTheButtonAndEscape() throws {
        let clip = try Fixtures.colourBars(seconds: 3, audio: false)
        let h = PlayerHarness()
        var pressedEarly = false, pressedLate = false
        h.onFrame = { s, _ in
            if !pressedEarly, (s.mediaTime ?? 0) > 0.5 { pressedEarly = true; PlayerHarness.pushKey(SDLK_ESCAPE) }
            if !pressedLate, (s.mediaTime ?? 0) > 2.2 { pressedLate = true; PlayerHarness.pushKey(SDLK_ESCAPE) }
        }
        var options = PlayOptions(file: clip)
        options.skipAfter = 2
        XCTAssertEqual(h.play(options), .skipped)
        let texts = Set(h.samples.map(\.skip.text))
        XCTAssertTrue(texts.contains("Ad 2") || texts.contains("Ad 1"), "disabled countdown shown: \(texts)")
        let skip = try XCTUnwrap(h.first("skip"))
        XCTAssertEqual(skip.string("via"), "key")
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(skip.int("shown_ms")), 2000, "Esc did nothing before skip-after")
    }

    func testNoSkipHidesTheButton() throws {
        let clip = try Fixtures.colourBars(seconds: 1, audio: false)
        let h = PlayerHarness()
        var options = PlayOptions(file: clip)
        options.showSkip = false
        h.onFrame = { s, _ in if (s.mediaTime ?? 0) > 0.3 { PlayerHarness.pushKey(SDLK_ESCAPE) } }
        XCTAssertEqual(h.play(options), .completed)
        XCTAssertTrue(h.samples.allSatisfy { !$0.skip.visible })
    }

    func testMuteKeyTogglesAndIsReported() throws {
        let clip = try Fixtures.colourBars(seconds: 2)
        let h = PlayerHarness()
        var presses = 0
        h.onFrame = { s, _ in
            let t = s.mediaTime ?? 0
            if presses == 0, t > 0.4 { presses = 1; PlayerHarness.pushKey(SDLK_m) }
            if presses == 1, t > 1.0 { presses = 2; PlayerHarness.pushKey(SDLK_m) }
        }
        XCTAssertEqual(h.play(PlayOptions(file: clip)), .completed)
        XCTAssertEqual(h.events.map(\.name).filter { $0 == "mute" || $0 == "unmute" }, ["mute", "unmute"])
    }

    func testAHeldKeyActsOnce() throws {
        let clip = try Fixtures.colourBars(seconds: 2, audio: false)
        let h = PlayerHarness()
        var pressed = false
        h.onFrame = { s, _ in
            guard !pressed, (s.mediaTime ?? 0) > 0.5 else { return }
            pressed = true
            PlayerHarness.pushKey(SDLK_SPACE)
            for _ in 0..<5 { PlayerHarness.pushKey(SDLK_SPACE, repeating: true) }
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { PlayerHarness.pushKey(SDLK_SPACE) }
        }
        XCTAssertEqual(h.play(PlayOptions(file: clip)), .completed)
        XCTAssertEqual(h.events("pause").compactMap { $0.string("reason") }, ["user"], "the press pauses, the repeats do nothing")
        XCTAssertEqual(h.events("resume").count, 1, "the next press resumes")
    }

    func testClosingTheWindowEndsAsSkipped() throws {
        let clip = try Fixtures.colourBars(seconds: 3, audio: false)
        let h = PlayerHarness()
        var closed = false
        h.onFrame = { s, _ in
            if !closed, (s.mediaTime ?? 0) > 0.3 {
                closed = true
                var e = SDL_Event(); e.type = SDL_QUIT.rawValue; _ = libsdl.SDL_PushEvent(&e)
            }
        }
        var options = PlayOptions(file: clip)
        options.skipAfter = 10
        XCTAssertEqual(h.play(options), .skipped)
        XCTAssertEqual(h.first("skip")?.string("via"), "close")
    }
}

/// Without a font the ring is drawn (and the text style falls back to it).
final class FontlessOverlayTests: XCTestCase {
    func testRingIsDrawnWithoutAFont() throws {
        let clip = try Fixtures.colourBars(seconds: 1, audio: false)
        let layout = AdLayout(window: Size(width: 360, height: 640), mode: .fullscreen, skipStyle: .ring)
        let b = layout.skipButton
        let h = PlayerHarness()
        // The ring at 3 o'clock (a quarter of the progress: white once passed) and inside the disc.
        h.probes = [(b.maxX - 2, b.midY), (b.midX + b.width / 4, b.midY - b.height / 4)]
        var options = PlayOptions(file: clip)
        options.size = Size(width: 360, height: 640)
        options.fit = .fill
        options.skipStyle = .ring
        options.font = "/nonexistent/font.ttf"
        options.transition = .none
        XCTAssertEqual(h.play(options), .completed)
        XCTAssertEqual(h.events("font_missing").count, 1)
        let s = try XCTUnwrap(h.samples.last { ($0.mediaTime ?? 0) > 0.6 })
        XCTAssertGreaterThan(Int(s.probes[0][1]), 150, "white ring at 3 o'clock (green channel, over red video)")
        XCTAssertLessThan(Int(s.probes[1][0]), 200, "dark disc darkens the red beneath")
    }
}
