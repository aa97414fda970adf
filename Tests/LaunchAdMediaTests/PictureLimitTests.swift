import Foundation
import LaunchAdMedia
import LaunchAdTestSupport
import XCTest

/// No decoder allocates a picture over `Decoder.maxPixels` (8192x8192): a 746 KB PNG declaring
/// 16000x16000, as a creative or a fallback, took 950 MB to decode before it was scaled down.
final class PictureLimitTests: XCTestCase {
    /// `png` with its header's size replaced by `width` x `height` (the IHDR's CRC made again).
    static func declaring(_ png: Data, width: UInt32, height: UInt32) -> Data {
        var bytes = [UInt8](png)
        for (i, v) in [width, height].enumerated() {
            for k in 0..<4 { bytes[16 + 4 * i + k] = UInt8(truncatingIfNeeded: v >> (24 - 8 * UInt32(k))) }
        }
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes[12..<29] {
            crc ^= UInt32(b)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        crc ^= 0xFFFF_FFFF
        for k in 0..<4 { bytes[29 + k] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * UInt32(k))) }
        return Data(bytes)
    }

    func testAPictureOverTheLimitIsRefusedBeforeItIsDecoded() throws {
        let red = try Fixtures.solidPNG("red")
        let huge = try Fixtures.write("declares-12000.png", Self.declaring(red, width: 12000, height: 12000))
        XCTAssertThrowsError(try ImageLoader.load(path: huge)) { error in
            let e = error as? MediaError
            XCTAssertEqual(e?.code, .notAnImage, "\(error)")
            XCTAssertTrue("\(error)".contains("picture size 12000x12000 is over the 67108864-pixel limit"), "\(error)")
        }
        // The largest the player takes still decodes (here its header only differs).
        let edge = try Fixtures.write("declares-8192.png", Self.declaring(red, width: 8192, height: 8192))
        XCTAssertThrowsError(try ImageLoader.load(path: edge)) { error in
            XCTAssertFalse("\(error)".contains("pixel limit"), "8192x8192 is within the limit: \(error)")
        }
        XCTAssertEqual(try ImageLoader.load(path: try Fixtures.write("plain-red.png", red)).width, 320)
    }
}
