import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

/// What the hostile corpus (scripts/make-hostile-corpus.sh) puts on screen, read back in-process:
/// the right way up, at the right aspect, in the right colours.
final class HostilePixelTests: XCTestCase {
    /// The corpus folder, made once per machine (shared with the CLI tests' cache by the script's hash).
    static let corpus = Result<URL, Error> {
        let script = Fixtures.repoRoot.appendingPathComponent("scripts/make-hostile-corpus.sh")
        let dir = Fixtures.directory.appendingPathComponent("hostile-\(SHA256.hex(of: try Data(contentsOf: script)).prefix(12))")
        guard !FileManager.default.fileExists(atPath: dir.path) else { return dir }
        let part = URL(fileURLWithPath: dir.path + ".part\(getpid())")
        guard try Fixtures.run("/bin/bash", [script.path, part.path]).status == 0 else { throw FixtureError("corpus script failed") }
        if (try? FileManager.default.moveItem(at: part, to: dir)) == nil { try? FileManager.default.removeItem(at: part) }
        return dir
    }

    static let window = Size(width: 240, height: 240)

    /// Plays `name` in a 240x240 window and returns, for the frames shown after the fade-in, the
    /// colours at `points` given as fractions of where the picture should land (a letterboxed
    /// rectangle of the display size), plus the pixels just outside it.
    func play(_ name: String, display: Size, points: [(Double, Double)], imageSeconds: Double = 0.8)
        throws -> (inside: [[[UInt8]]], outside: [[[UInt8]]], harness: PlayerHarness)
    {
        let file = try Self.corpus.get().appendingPathComponent(name).path
        let rect = Placement.scaledRect(display, in: Rect(size: Self.window), fit: .fit)
        let inside = points.map { (rect.x + Int(Double(rect.width) * $0.0), rect.y + Int(Double(rect.height) * $0.1)) }
        // 4 px beyond each letterboxed edge, on the centre lines.
        var outside: [(Int, Int)] = []
        if rect.y >= 6 { outside += [(rect.midX, rect.y - 4), (rect.midX, rect.y + rect.height + 3)] }
        if rect.x >= 6 { outside += [(rect.x - 4, rect.midY), (rect.x + rect.width + 3, rect.midY)] }
        let h = PlayerHarness()
        h.probes = inside + outside
        var options = PlayOptions(file: file)
        options.size = Self.window
        options.transition = .none
        options.showSkip = false
        options.imageDuration = imageSeconds
        XCTAssertEqual(h.play(options), .completed, "\(name): \(h.events.map { $0.jsonLine() })")
        let firstFrame = h.first("first_frame")?.tMs ?? 0
        // After the fade-in; a still picture may be drawn only once, so its last frame.
        var settled = h.samples.filter { $0.nowMs - firstFrame > 400 }
        if settled.isEmpty, let last = h.samples.last { settled = [last] }
        XCTAssertFalse(settled.isEmpty, "\(name): frames were presented")
        return (settled.map { Array($0.probes.prefix(inside.count)) }, settled.map { Array($0.probes.dropFirst(inside.count)) }, h)
    }

    static let quadrants: [(Double, Double)] = [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)]

    /// The four-quadrant picture at `display` size shows `colours` (top-left, top-right,
    /// bottom-left, bottom-right) in every settled frame, with black bars outside it.
    func assertQuadrants(_ name: String, display: Size, _ colours: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let r = try play(name, display: display, points: Self.quadrants)
        let wrong = r.inside.first { $0.map(colourName) != colours }
        XCTAssertNil(
            wrong, "\(name): quadrants \(wrong.map { $0.map(colourName) } ?? []) of \(r.inside.count) frames",
            file: file, line: line)
        let lit = r.outside.first { $0.map(colourName).contains { $0 != "black" } }
        XCTAssertNil(lit, "\(name): letterbox outside the \(display) picture: \(lit ?? [])", file: file, line: line)
    }

    let upright = ["red", "lime", "blue", "white"]

    func testCodecsAndPixelFormatsShowTheSamePicture() throws {
        for name in [
            "good.mp4", "moov-at-end.mp4", "h264-10bit.mp4", "hevc-10bit.mp4", "hevc.mp4", "vp9.mp4",
            "h264-yuv444.mp4", "prores.mov", "mp4-named.png", "mpegts-named.mp4", "many-streams.mp4",
            "bframes-edit-list.mp4", "late-start.ts", "vfr.mp4", "animated.gif"
        ] {
            try assertQuadrants(name, display: Size(width: 160, height: 120), upright)
        }
    }

    func testStillImagesShowTheSamePicture() throws {
        for name in ["png-named.mp4", "progressive.jpg", "cmyk.jpg"] {
            try assertQuadrants(name, display: Size(width: 160, height: 120), upright)
        }
    }

    /// Display-matrix rotation: stored 160x96, turned clockwise by the matrix's angle.
    func testRotatedVideosAreShownUpright() throws {
        try assertQuadrants("rotate-90.mp4", display: Size(width: 96, height: 160), ["blue", "red", "white", "lime"])
        try assertQuadrants("rotate-180.mp4", display: Size(width: 160, height: 96), ["white", "blue", "lime", "red"])
        try assertQuadrants("rotate-270.mp4", display: Size(width: 96, height: 160), ["lime", "white", "red", "blue"])
    }

    /// Non-square pixels widen the picture; odd sizes keep every edge; a sliver is letterboxed.
    func testAspectAndOddSizes() throws {
        try assertQuadrants("sar-4-3.mp4", display: Size(width: 213, height: 120), upright)
        try assertQuadrants("odd-321x241.mp4", display: Size(width: 321, height: 241), upright)
        try assertQuadrants("odd-321x241-h264.mp4", display: Size(width: 321, height: 241), upright)
        try assertQuadrants("sliver-16x1024.mp4", display: Size(width: 16, height: 1024), upright)
    }

    /// Full-range pictures (yuvj420p, or yuv420p/10-bit tagged pc) keep their levels: 0x20 and
    /// 0xE0 stay 0x20 and 0xE0, not stretched to 0x12 and 0xF2 as limited range would show them.
    func testFullRangeVideosKeepTheirLevels() throws {
        for name in [
            "limited-range-levels.mp4", "yuvj420p-full-range.mp4", "hevc-full-range.mp4",
            "h264-10bit-full-range.mp4", "vp9-full-range.mp4"
        ] {
            let r = try play(name, display: Size(width: 160, height: 120), points: [(0.25, 0.5), (0.75, 0.5)])
            let wrong = r.inside.first { abs(Int($0[0].first ?? 0) - 0x20) > 7 || abs(Int($0[1].first ?? 0) - 0xE0) > 7 }
            XCTAssertNil(wrong, "\(name): dark and light halves \(wrong ?? []), expected 32 and 224")
        }
    }

    /// A transparent PNG is drawn over black: the opaque red half is red, the clear half black.
    func testAlphaImageShowsOverBlack() throws {
        let r = try play("alpha.png", display: Size(width: 160, height: 120), points: [(0.25, 0.5), (0.75, 0.5)])
        XCTAssertEqual(r.inside.last?.map(colourName), ["red", "black"])
    }

    /// The picture grows from 160x120 to 320x240 halfway: both halves are drawn whole.
    func testAPictureSizeChangeMidStreamIsShownWhole() throws {
        let r = try play("size-change.ts", display: Size(width: 160, height: 120), points: Self.quadrants)
        XCTAssertNil(r.inside.first { $0.map(colourName) != upright })
        XCTAssertGreaterThan(
            r.harness.samples.compactMap(\.mediaTime).max() ?? 0, 1.6, "the second half was shown (its times start at 1.9 s)")
    }
}
