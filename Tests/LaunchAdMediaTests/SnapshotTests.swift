import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

@testable import LaunchAdMedia

/// Contact sheets decoded back by the ffmpeg CLI: the right size, the right pictures in the right cells.
final class SnapshotTests: XCTestCase {
    /// The PNG at `path` as rgb24 pixels, decoded by the ffmpeg CLI, with its size from ffprobe.
    private func pixels(_ path: String) throws -> (width: Int, height: Int, rgb: [UInt8]) {
        let size = try Fixtures.run(
            "/usr/bin/ffprobe",
            [
                "-v", "error", "-show_entries", "stream=width,height,codec_name",
                "-of", "csv=p=0", path
            ]
        ).stdout
        let f = size.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",")
        XCTAssertEqual(f.first, "png")
        let raw = path + ".rgb"
        let r = try Fixtures.run("/usr/bin/ffmpeg", ["-y", "-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "rgb24", raw])
        XCTAssertEqual(r.status, 0, r.stderr)
        let data = try Data(contentsOf: URL(fileURLWithPath: raw))
        return (Int(f[1]) ?? 0, Int(f[2]) ?? 0, [UInt8](data))
    }

    private func colour(_ p: (width: Int, height: Int, rgb: [UInt8]), _ x: Int, _ y: Int) -> String {
        let i = (y * p.width + x) * 3
        let (r, g, b) = (p.rgb[i], p.rgb[i + 1], p.rgb[i + 2])
        func hi(_ v: UInt8) -> Bool { v > 200 }
        func lo(_ v: UInt8) -> Bool { v < 60 }
        switch (hi(r), hi(g), hi(b)) {
        case (true, false, false) where lo(g) && lo(b): return "red"
        case (false, true, false) where lo(r) && lo(b): return "lime"
        case (false, false, true) where lo(r) && lo(g): return "blue"
        case (true, true, true): return "white"
        default: return "rgb(\(r),\(g),\(b))"
        }
    }

    private func out(_ name: String) -> String {
        let path = Fixtures.directory.appendingPathComponent(name).path
        try? FileManager.default.removeItem(atPath: path)
        return path
    }

    func testASheetShowsEvenlySpacedPicturesInOrder() throws {
        let clip = try Fixtures.colourBars(seconds: 4, audio: false)
        var o = SnapshotOptions()
        o.out = out("sheet.png")
        o.count = 4
        o.tileWidth = 80
        let result = try ContactSheet.write(clip, o)
        XCTAssertEqual(result.times.count, 4)
        for (t, want) in zip(result.times, [0.0, 1, 2, 3]) { XCTAssertEqual(t, want, accuracy: 0.05) }
        let p = try pixels(o.out)
        // 2x2 tiles of 80x60, 4 px margin around and padding between.
        XCTAssertEqual([p.width, p.height], [4 + 80 + 4 + 80 + 4, 4 + 60 + 4 + 60 + 4])
        XCTAssertEqual([result.width, result.height], [p.width, p.height])
        let centres = [(4 + 40, 4 + 20), (88 + 40, 4 + 20), (4 + 40, 68 + 20), (88 + 40, 68 + 20)]
        XCTAssertEqual(centres.map { colour(p, $0.0, $0.1) }, ["red", "lime", "blue", "white"])
        // The time label is drawn at the bottom left of each picture: not the picture's own colour there.
        XCTAssertTrue(FileManager.default.fileExists(atPath: ContactSheet.font))
        let label = (4..<40).map { colour(p, 88 + $0, 4 + 55) }
        XCTAssertTrue(label.contains { $0 != "lime" }, "a label on the second picture")
    }

    func testLongGroupsOfPicturesDecodeOnInsteadOfSeekingBack() throws {
        // One keyframe for the whole clip: every picture after the first is decoded on from the last.
        let plain = try Fixtures.colourBars(seconds: 4, audio: false)
        let longGOP = try Fixtures.make("bars-long-gop.mp4", ["-i", plain, "-c:v", "libx264", "-g", "1000", "-pix_fmt", "yuv420p"])
        var o = SnapshotOptions()
        o.out = out("long-gop.png")
        o.count = 8
        o.tileWidth = 40
        o.columns = 8
        let result = try ContactSheet.write(longGOP, o)
        for (t, want) in zip(result.times, stride(from: 0.0, to: 4, by: 0.5)) { XCTAssertEqual(t, want, accuracy: 0.041) }
        let p = try pixels(o.out)
        let colours = (0..<8).map { colour(p, 4 + $0 * 44 + 20, 4 + 5) }
        XCTAssertEqual(colours, ["red", "red", "lime", "lime", "blue", "blue", "white", "white"])
    }

    func testMPEGTSWhoseSeeksLandBetweenKeyframes() throws {
        // A TS clock starts at about 1.4 s and its seeks land where the decoder cannot start:
        // the sheet still shows the right pictures, labelled from 0.
        let plain = try Fixtures.colourBars(seconds: 4, audio: false)
        let ts = try Fixtures.make("bars.ts", ["-i", plain, "-c:v", "libx264", "-g", "1000", "-pix_fmt", "yuv420p", "-f", "mpegts"])
        var o = SnapshotOptions()
        o.out = out("ts.png")
        o.count = 4
        o.tileWidth = 80
        let result = try ContactSheet.write(ts, o)
        for (t, want) in zip(result.times, [0.0, 1, 2, 3]) { XCTAssertEqual(t, want, accuracy: 0.05) }
        let p = try pixels(o.out)
        let centres = [(4 + 40, 4 + 20), (88 + 40, 4 + 20), (4 + 40, 68 + 20), (88 + 40, 68 + 20)]
        XCTAssertEqual(centres.map { colour(p, $0.0, $0.1) }, ["red", "lime", "blue", "white"])
    }

    func testAStillImageIsOnePicture() throws {
        var o = SnapshotOptions()
        o.out = out("still.png")
        o.tileWidth = 100
        let still = try Fixtures.make("still-360x120.png", ["-f", "lavfi", "-i", "testsrc2=s=360x120", "-frames:v", "1"])
        let result = try ContactSheet.write(still, o)
        XCTAssertEqual(result.times.count, 1)
        let p = try pixels(o.out)
        XCTAssertEqual([p.width, p.height], [108, 42])
    }

    func testOneFrameAtATime() throws {
        let clip = try Fixtures.colourBars(seconds: 4, audio: false)
        var o = SnapshotOptions()
        o.out = out("frame.png")
        o.at = 2.5
        let result = try ContactSheet.write(clip, o)
        XCTAssertEqual(result.times.first ?? 0, 2.5, accuracy: 0.05)
        let p = try pixels(o.out)
        XCTAssertEqual([p.width, p.height], [320, 240])
        XCTAssertEqual(colour(p, 160, 120), "blue")
        XCTAssertEqual(colour(p, 5, 5), "blue")
    }

    func testRotatedVideoIsShownUpright() throws {
        let plain = try Fixtures.colourBars(seconds: 1, audio: false)
        let rotated = try Fixtures.make("bars-rot.mp4", ["-i", plain, "-c", "copy", "-metadata:s:v:0", "rotate=90"])
        var o = SnapshotOptions()
        o.out = out("rotated.png")
        o.at = 0.5
        _ = try ContactSheet.write(rotated, o)
        let p = try pixels(o.out)
        XCTAssertEqual([p.width, p.height], [240, 320])
    }

    func testWhatCannotBePicturedSaysWhy() throws {
        let sine = try Fixtures.make("snap-audio.wav", ["-f", "lavfi", "-i", "sine=d=1"])
        var o = SnapshotOptions()
        o.out = out("none.png")
        XCTAssertThrowsError(try ContactSheet.write(sine, o)) { e in XCTAssertEqual((e as? MediaError)?.code, .noVideoStream) }
        o.at = 9
        XCTAssertThrowsError(try ContactSheet.write(try Fixtures.colourBars(seconds: 2, audio: false), o)) { e in
            XCTAssertTrue((e as? MediaError)?.message.contains("past the end") == true, "\(e)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: o.out))
    }
}
