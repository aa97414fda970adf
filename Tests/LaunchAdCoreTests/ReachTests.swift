import LaunchAdCore
import XCTest

final class ReachTests: XCTestCase {
    func testInternalIPv4Ranges() {
        for a in [
            [127, 0, 0, 1], [127, 9, 9, 9], [10, 1, 2, 3], [172, 16, 0, 1], [172, 31, 255, 255], [192, 168, 1, 1],
            [169, 254, 169, 254], [0, 0, 0, 0], [100, 64, 0, 1], [224, 0, 0, 1], [255, 255, 255, 255]
        ] {
            XCTAssertTrue(InternalAddress.contains(ipv4: a.map(UInt8.init)), "\(a)")
        }
        for a in [[8, 8, 8, 8], [172, 15, 0, 1], [172, 32, 0, 1], [192, 169, 0, 1], [100, 128, 0, 1], [93, 184, 216, 34]] {
            XCTAssertFalse(InternalAddress.contains(ipv4: a.map(UInt8.init)), "\(a)")
        }
    }

    func testInternalIPv6RangesAndEmbeddedIPv4() {
        func v6(_ head: [UInt8], _ tail: [UInt8] = []) -> [UInt8] {
            head + [UInt8](repeating: 0, count: 16 - head.count - tail.count) + tail
        }
        XCTAssertTrue(InternalAddress.contains(ipv6: v6([], [1])), "::1")
        XCTAssertTrue(InternalAddress.contains(ipv6: v6([])), "::")
        XCTAssertTrue(InternalAddress.contains(ipv6: v6([0xfd, 0x12])), "unique-local")
        XCTAssertTrue(InternalAddress.contains(ipv6: v6([0xfe, 0x80])), "link-local")
        XCTAssertTrue(InternalAddress.contains(ipv6: v6([], [0xff, 0xff, 127, 0, 0, 1])), "mapped loopback")
        XCTAssertTrue(InternalAddress.contains(ipv6: v6([0, 0x64, 0xff, 0x9b], [169, 254, 169, 254])), "NAT64 metadata")
        XCTAssertFalse(InternalAddress.contains(ipv6: v6([0x20, 0x01, 0x0d, 0xb8], [1])))
        XCTAssertFalse(InternalAddress.contains(ipv6: v6([], [0xff, 0xff, 8, 8, 8, 8])), "mapped public")
    }

    func testAChainIsAsTrustedAsItsLeastTrustedDocument() {
        XCTAssertEqual(Reach.namedByDocument(fromInternalAddress: true), .any)
        XCTAssertEqual(Reach.namedByDocument(fromInternalAddress: false), .publicOnly)
        XCTAssertEqual(Reach.any.narrowed(.publicOnly), .publicOnly)
        XCTAssertEqual(Reach.any.narrowed(.any), .any)
    }
}
