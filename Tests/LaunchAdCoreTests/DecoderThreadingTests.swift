import LaunchAdCore
import XCTest

final class DecoderThreadingTests: XCTestCase {
    func testAnOrdinaryAdDecodesOnSliceThreads() {
        XCTAssertEqual(DecoderThreading.forPlayback(width: 1920, height: 1080, framesPerSecond: 30), .slices)
        XCTAssertEqual(DecoderThreading.forPlayback(width: 1080, height: 1920, framesPerSecond: 30), .slices)
        XCTAssertEqual(DecoderThreading.forPlayback(width: 1920, height: 1080, framesPerSecond: 60), .slices)
        XCTAssertEqual(DecoderThreading.forPlayback(width: 1280, height: 720, framesPerSecond: 0), .slices, "unknown rate: 30")
    }

    func testBiggerPixelRatesUseFrameThreads() {
        XCTAssertEqual(DecoderThreading.forPlayback(width: 3840, height: 2160, framesPerSecond: 30), .frames)
        XCTAssertEqual(DecoderThreading.forPlayback(width: 1920, height: 1080, framesPerSecond: 120), .frames)
        XCTAssertEqual(DecoderThreading.forPlayback(width: 2560, height: 1440, framesPerSecond: 60), .frames)
        XCTAssertEqual(DecoderThreading.forPlayback(width: 3840, height: 2160, framesPerSecond: .nan), .frames, "unknown rate: 30")
    }

    func testTheLimitIsInclusive() {
        XCTAssertEqual(DecoderThreading.forPlayback(width: 1920, height: 1088, framesPerSecond: 60), .slices)
        XCTAssertEqual(DecoderThreading.forPlayback(width: 1920, height: 1089, framesPerSecond: 60), .frames)
    }
}
