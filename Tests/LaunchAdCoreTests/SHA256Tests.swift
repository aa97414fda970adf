import LaunchAdCore
import LaunchAdTestSupport
import XCTest

final class SHA256Tests: XCTestCase {
    func testKnownVectors() {
        XCTAssertEqual(SHA256.hex(of: Data()), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(SHA256.hex(of: Data("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(
            SHA256.hex(of: Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        XCTAssertEqual(
            SHA256.hex(of: Data(repeating: UInt8(ascii: "a"), count: 1_000_000)),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Every padding length around the 55/56/64-byte block edges, fed in uneven pieces.
    func testPieceByPieceMatchesWhole() {
        let bytes = Data((0..<200).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        for n in [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 128, 200] {
            let slice = bytes.prefix(n)
            var h = SHA256()
            var i = 0
            while i < n { let step = min(7 + i % 13, n - i); h.update(slice.subdata(in: i..<i + step)); i += step }
            XCTAssertEqual(h.finalizeHex(), SHA256.hex(of: Data(slice)), "length \(n)")
        }
    }

    func testFileMatchesSha256sum() throws {
        for name in ["sample-ad.mp4", "fallback.png"] {
            let path = Fixtures.media(name)
            let tool = try Fixtures.run("/usr/bin/sha256sum", [path])
            let expected = String(tool.stdout.prefix(64))
            XCTAssertEqual(expected.count, 64)
            XCTAssertEqual(SHA256.hex(of: try Data(contentsOf: URL(fileURLWithPath: path))), expected, name)
        }
    }
}
