import Foundation
import LaunchAdMedia
import LaunchAdTestSupport
import XCTest

@testable import LaunchAdPlayer

/// The video pipeline's first picture of a B-frame stream comes out of the first packet alone
/// (past the decoder's reorder delay), and the stream still decodes whole, in order, each
/// picture once.
final class FirstPictureTests: XCTestCase {
    private func bframeClip() throws -> String {
        try Fixtures.make(
            "first-picture-bframes.mp4",
            ["-f", "lavfi", "-i", "testsrc2=s=640x360:r=30:d=1", "-c:v", "libx264", "-bf", "3", "-pix_fmt", "yuv420p"])
    }

    /// Waits up to `seconds` for the queue to hold `count` pictures.
    private func wait(for count: Int, in pictures: PictureQueue, seconds: Double) -> Bool {
        pictures.wait(until: { waiting, _ in waiting.count >= count }, deadline: Date().addingTimeInterval(seconds))
    }

    func testTheFirstPictureNeedsOnlyTheFirstPacket() throws {
        let d = try Demuxer(path: try bframeClip())
        let v = try XCTUnwrap(d.bestVideoStream)
        let decoder = try d.makeDecoder(stream: v, slicesOnly: true)
        XCTAssertGreaterThan(decoder.reorderDelay, 0, "x264 with B-frames: a reorder delay to get past")
        let pipe = VideoPipeline(decoder: decoder, info: d.stream(v))
        let group = DispatchGroup()
        pipe.start(in: group)
        defer { pipe.abort(); _ = group.wait(timeout: .now() + 2) }
        var packets: [Packet] = []
        let packet = Packet()
        while try d.read(into: packet) {
            if packet.streamIndex == v { packets.append(packet.moveOut()) } else { packet.unref() }
        }
        pipe.packets.put(packets[0])
        XCTAssertTrue(wait(for: 1, in: pipe.pictures, seconds: 5), "a picture from the first packet alone")
        XCTAssertEqual(pipe.pictures.timestamps, [0])

        for p in packets.dropFirst() { pipe.packets.put(p) }
        pipe.packets.finish()
        var shown: [Double] = []
        let deadline = Date().addingTimeInterval(10)
        while !pipe.pictures.isDrained && Date() < deadline {
            if let t = pipe.pictures.timestamps.first, pipe.pictures.pop(1) != nil {
                shown.append(t)
            } else {
                _ = pipe.pictures.wait(until: { waiting, done in !waiting.isEmpty || done }, deadline: deadline)
            }
        }
        XCTAssertEqual(shown.count, packets.count, "every picture once: the first one's second decode is not shown")
        XCTAssertEqual(shown, shown.sorted())
        XCTAssertEqual(Set(shown).count, shown.count)
    }

    /// An interlaced stream is decoded as it comes: its first packet may hold one field only.
    func testAnInterlacedStreamWaitsForItsReorderDelay() throws {
        let path = try Fixtures.make(
            "first-picture-interlaced.mp4",
            [
                "-f", "lavfi", "-i", "testsrc2=s=640x360:r=25:d=1", "-c:v", "libx264", "-bf", "3", "-flags", "+ildct+ilme",
                "-x264-params", "tff=1", "-pix_fmt", "yuv420p"
            ])
        let d = try Demuxer(path: path)
        let v = try XCTUnwrap(d.bestVideoStream)
        let decoder = try d.makeDecoder(stream: v, slicesOnly: true)
        XCTAssertFalse(decoder.isProgressive)
        XCTAssertGreaterThan(decoder.reorderDelay, 0)
        let pipe = VideoPipeline(decoder: decoder, info: d.stream(v))
        let group = DispatchGroup()
        pipe.start(in: group)
        defer { pipe.abort(); _ = group.wait(timeout: .now() + 2) }
        let packet = Packet()
        while try d.read(into: packet) {
            if packet.streamIndex == v { pipe.packets.put(packet.moveOut()); break }
            packet.unref()
        }
        XCTAssertFalse(wait(for: 1, in: pipe.pictures, seconds: 1), "no picture drained from the first packet alone")
    }
}
