import Foundation
import LaunchAdCore
import LaunchAdMedia
import LaunchAdTestSupport
import XCTest

/// Replays what the media fuzz target (Fuzz/MediaFuzz.swift, scripts/fuzz.sh) found and started
/// from, through the same steps: probe, open and decode a few pictures for the screen, load as a
/// still picture, read its captions. Each either works or throws a MediaError with a code; none crashes (the first
/// find, a 300-byte GIF, freed the demuxer's context twice).
final class MediaFuzzRegressionTests: XCTestCase {
    static let extensions = ["mp4", "png", "jpg", "ts", "gif", "mov", "webm", "bin"]

    func testFuzzInputsOpenOrFailCleanly() throws {
        let dirs = ["Fuzz/regressions/media", "Fuzz/seeds/media"].map { Fixtures.repoRoot.appendingPathComponent($0) }
        let inputs = dirs.flatMap { dir in
            ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted().map { dir.appendingPathComponent($0) }
        }
        XCTAssertGreaterThan(inputs.count, 5, "the seeds and the regressions are there")
        var opened = 0, captioned = 0
        for input in inputs {
            let bytes = try Data(contentsOf: input)
            guard let first = bytes.first else { continue }
            // As the fuzz target: the first byte picks the extension, the rest is the file.
            let path = Fixtures.directory.appendingPathComponent("fuzz-replay.\(Self.extensions[Int(first) % Self.extensions.count])").path
            try bytes.dropFirst().write(to: URL(fileURLWithPath: path))
            defer { try? FileManager.default.removeItem(atPath: path) }
            let name = input.lastPathComponent
            do { _ = try MediaProbe.probe(path); opened += 1 } catch let e as MediaError { XCTAssertFalse(e.message.isEmpty, name) }
            decodeFirstPictures(path)
            do { _ = try ImageLoader.load(path: path) } catch let e as MediaError { XCTAssertFalse(e.message.isEmpty, name) }
            do { if let c = try EmbeddedCaptions.read(path: path) { captioned += c.cues.isEmpty ? 0 : 1 } } catch let e as MediaError {
                XCTAssertFalse(e.message.isEmpty, name)
            }
        }
        XCTAssertGreaterThanOrEqual(captioned, 4, "the captioned seeds (mov_text, 608 track, A/53, WebVTT in WebM) read")
        XCTAssertGreaterThan(opened, 5, "the seeds are media")
    }
}
