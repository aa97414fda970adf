import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

@testable import LaunchAdPlayer

/// The window opens at the size the container's header gives, while the streams are still
/// probed, and takes the probed shape when the stream itself says otherwise.
final class WindowShapeTests: XCTestCase {
    /// The engine tells the header's size before it is ready: the first wake-up comes while it
    /// is still opening, with the size already known.
    func testTheHeadersSizeIsKnownBeforeTheStreamsAreProbed() throws {
        let clip = try Fixtures.colourBars(seconds: 1, size: "320x240", audio: false)
        let seen = Locked<[(opening: Bool, size: Size?)]>([])
        let box = Locked<PlaybackEngine?>(nil)
        let engine = PlaybackEngine(source: clip, muted: true, events: RecordingSink()) {
            guard let e = box.withLock({ $0 }) else { return }
            let opening: Bool
            if case .opening = e.state { opening = true } else { opening = false }
            seen.change { $0.append((opening, e.headerDisplaySize)) }
        }
        box.withLock { $0 = engine }
        engine.start()
        defer { engine.stop(wait: true) }
        seen.wait(until: { $0.contains { !$0.opening } }, deadline: Date().addingTimeInterval(10))
        let wakes = seen.withLock { $0 }
        let first = try XCTUnwrap(wakes.first, "the engine woke the player")
        XCTAssertTrue(first.opening, "the first wake-up comes before the streams are probed: \(wakes)")
        XCTAssertEqual(first.size, Size(width: 320, height: 240))
        XCTAssertTrue(wakes.contains { !$0.opening }, "and the engine became ready")
    }

    /// A stream whose sample aspect (2:1) only its own parameters carry, not the container: the
    /// window opens at the header's 320x240, and the first picture is drawn in a 640x240 one.
    func testAWindowOpenedAtTheHeadersSizeTakesTheProbedShape() throws {
        let clip = try Fixtures.make(
            "sar-in-stream-only.mp4",
            [
                "-f", "lavfi", "-i", "testsrc2=s=320x240:r=25:d=1", "-c:v", "libx264", "-pix_fmt", "yuv420p",
                "-bsf:v", "h264_metadata=sample_aspect_ratio=2/1"
            ])
        let harness = PlayerHarness()
        var options = PlayOptions(file: clip)
        options.transition = .none
        let outcome = harness.play(options)
        XCTAssertEqual(outcome, .completed)
        let window = try XCTUnwrap(harness.first("window"))
        XCTAssertEqual(window.int("width"), 320, "opened at the header's size")
        let start = try XCTUnwrap(harness.first("start"))
        XCTAssertEqual(start.int("width"), 640, "the probed display size")
        let first = try XCTUnwrap(harness.samples.first { $0.mediaTime != nil })
        XCTAssertEqual(first.layout.window, Size(width: 640, height: 240), "the first picture is drawn in the probed shape")
    }
}
