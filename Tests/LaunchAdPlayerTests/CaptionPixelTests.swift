import CSDL2
import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

/// Captions as a viewer sees them, read back from the renderer: the box and its text at the
/// cue's time and gone after, turned with --rotate, switched by mute in auto mode, and never
/// over the skip button.
final class CaptionPixelTests: XCTestCase {
    static let output = Size(width: 640, height: 360)

    /// 3 s of colour (red, lime, blue), no sound.
    func bars() throws -> String { try Fixtures.colourBars(seconds: 3, audio: false) }

    func options(_ file: String, mode: CaptionMode = .on, rotation: ScreenRotation = .none) -> PlayOptions {
        var o = PlayOptions(file: file)
        o.size = Self.output
        o.fit = .fill
        o.transition = .none
        o.captionMode = mode
        o.rotation = rotation
        return o
    }

    /// Probes in the scene: inside the box's bottom padding, just below the box, and a row
    /// across the text's middle line; mapped to the output for `rotation`.
    func probes(rotation: ScreenRotation) -> (box: (Int, Int), below: (Int, Int), row: [(Int, Int)]) {
        let scene = rotation.scene(Self.output)
        let layout = AdLayout(window: scene, mode: .fullscreen, skipStyle: .text)
        let font = CaptionLayout.fontPixels(layout: layout)
        let bottom = layout.adArea.maxY - max(4, layout.adArea.height * 5 / 100)
        let map = { (x: Int, y: Int) -> (Int, Int) in
            let p = rotation.toOutput(x: Double(x) + 0.5, y: Double(y) + 0.5, output: Self.output)
            return (Int(p.x), Int(p.y))
        }
        let textY = bottom - max(2, font / 3) - font / 2
        let row = stride(from: scene.width / 2 - 40, to: scene.width / 2 + 40, by: 1).map { map($0, textY) }
        return (map(scene.width / 2, bottom - 2), map(scene.width / 2, bottom + 4), row)
    }

    func track(_ cues: [(Int, Int, String)]) -> CaptionTrack {
        CaptionTrack(cues.map { CaptionCue(startMs: $0.0, endMs: $0.1, text: $0.2) })
    }

    func isWhite(_ p: [UInt8]) -> Bool { p.count >= 3 && p[0] > 200 && p[1] > 200 && p[2] > 200 }

    func assertCueShownThenGone(rotation: ScreenRotation) throws {
        let h = PlayerHarness()
        let p = probes(rotation: rotation)
        h.probes = [p.box, p.below] + p.row
        XCTAssertEqual(h.play(options(try bars(), rotation: rotation), captions: track([(300, 1500, "HHHHHHHHHHHH")])), .completed)
        let during = try XCTUnwrap(h.samples.last { ($0.mediaTime ?? 0) > 0.5 && ($0.mediaTime ?? 0) < 0.95 })
        XCTAssertLessThan(Int(during.probes[0][0]), 130, "the box darkens the red ad at \(rotation.degrees)°")
        XCTAssertEqual(colourName(during.probes[1]), "red", "nothing below the box")
        XCTAssertTrue(during.probes.dropFirst(2).contains(where: isWhite), "white text across the box's middle at \(rotation.degrees)°")
        let after = try XCTUnwrap(h.samples.last { ($0.mediaTime ?? 0) > 1.6 && ($0.mediaTime ?? 0) < 1.95 })
        XCTAssertEqual(colourName(after.probes[0]), "lime", "the cue is gone after its end")
        XCTAssertFalse(after.probes.dropFirst(2).contains(where: isWhite))
        XCTAssertEqual(h.events("caption").map { $0.string("text") }, ["HHHHHHHHHHHH"])
    }

    func testACueIsDrawnInABoxAtItsTimeAndGoneAfter() throws {
        try assertCueShownThenGone(rotation: .none)
    }

    func testTheCaptionTurnsWithTheScreen() throws {
        try assertCueShownThenGone(rotation: .quarter)
    }

    func testAutoModeShowsCaptionsOnlyOnceMuted() throws {
        let h = PlayerHarness()
        let p = probes(rotation: .none)
        h.probes = [p.box]
        var pressed = false
        h.onFrame = { s, _ in
            if !pressed, (s.mediaTime ?? 0) > 1.1 { pressed = true; PlayerHarness.pushKey(SDLK_m) }
        }
        XCTAssertEqual(h.play(options(try bars(), mode: .auto), captions: track([(100, 2900, "Muted")])), .completed)
        let sounding = try XCTUnwrap(h.samples.last { ($0.mediaTime ?? 0) > 0.4 && ($0.mediaTime ?? 0) < 0.95 })
        XCTAssertEqual(colourName(sounding.probes[0]), "red", "no caption while the sound is on")
        let muted = try XCTUnwrap(h.samples.last { ($0.mediaTime ?? 0) > 1.5 && ($0.mediaTime ?? 0) < 1.95 })
        XCTAssertLessThan(Int(muted.probes[0][1]), 130, "the box darkens the lime ad once muted")
        XCTAssertEqual(h.events("mute").count, 1)
    }

    /// A cue too long for a small window loses its last lines rather than reach the button.
    func testALongCueNeverCoversTheSkipButton() throws {
        let b = AdLayout(window: Self.output, mode: .fullscreen, skipStyle: .text).skipButton
        let font = CaptionLayout.fontPixels(layout: AdLayout(window: Self.output, mode: .fullscreen, skipStyle: .text))
        // The box's top comes within a line (about 1.2 font heights) of the button's bottom and its padding.
        let inButton = (b.midX, b.maxY - 2), belowY = b.maxY + max(2, font / 3) + font * 6 / 5 + 2
        let underButton = (0..<8).map { (b.x + $0 * 4, belowY) }
        func run(_ captions: CaptionTrack?) throws -> PlayerHarness.Sample {
            let h = PlayerHarness()
            h.probes = [inButton] + underButton
            XCTAssertEqual(h.play(options(try bars()), captions: captions), .completed)
            return try XCTUnwrap(h.samples.last { ($0.mediaTime ?? 0) > 0.5 && ($0.mediaTime ?? 0) < 0.95 })
        }
        let words = (1...200).map { "word\($0)" }.joined(separator: " ")
        let plain = try run(nil), captioned = try run(track([(0, 3000, words)]))
        XCTAssertLessThan(captioned.probes.dropFirst().map { Int($0[0]) }.min()!, 130, "the box rises to just under the button")
        for c in 0..<3 {
            XCTAssertEqual(
                Double(captioned.probes[0][c]), Double(plain.probes[0][c]), accuracy: 8, "the button is drawn as without captions")
        }
    }

    /// A mov_text track in the MP4 itself: read beside playback, drawn at its cue's time.
    func testTheFilesOwnTextTrackIsDrawn() throws {
        let h = PlayerHarness()
        let p = probes(rotation: .none)
        h.probes = [p.box]
        XCTAssertEqual(h.play(options(try CaptionFixtures.textTrack(codec: "mov_text", ext: "mp4"))), .completed)
        XCTAssertEqual(h.first("captions")?.string("source"), "embedded")
        XCTAssertEqual(h.first("captions")?.int("cues"), 2)
        let during = try XCTUnwrap(h.samples.last { ($0.mediaTime ?? 0) > 0.6 && ($0.mediaTime ?? 0) < 1.3 })
        XCTAssertLessThan(Int(during.probes[0][0]), 130, "the first cue's box over the red picture")
        let gap = try XCTUnwrap(h.samples.last { ($0.mediaTime ?? 0) > 1.45 && ($0.mediaTime ?? 0) < 1.55 })
        XCTAssertEqual(colourName(gap.probes[0]), "red", "nothing between the cues")
        XCTAssertEqual(h.events("caption").map { $0.string("text") }, ["Hello captions", "Second cue"])
    }
}
