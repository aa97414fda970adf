import Foundation
import LaunchAdCore
import XCTest

/// `<Expires>` (VAST 4.x): read from the InLine (the chain's smallest wins), turned into a time
/// from when the tag was received, and past it the selector no longer picks the cached ad.
final class VASTExpiresTests: XCTestCase {
    func document(expires: String?) -> Data {
        var xml = VASTParserTests.inline()
        if let expires {
            xml = xml.replacingOccurrences(
                of: "<AdSystem version=\"1\">Acme</AdSystem>",
                with: "<AdSystem version=\"1\">Acme</AdSystem>\n<Expires>\(expires)</Expires>")
        }
        return Data(xml.utf8)
    }

    func testExpiresIsReadAsWholeSecondsAndIgnoredWhenNotANumber() throws {
        XCTAssertEqual(try VASTParser.parse(document(expires: " 3600 "), budget: VASTLimits.budget(seconds: 5)).ads.first?.expires, 3600)
        XCTAssertEqual(try VASTParser.parse(document(expires: "2"), budget: VASTLimits.budget(seconds: 5)).ads.first?.expires, 2)
        XCTAssertNil(try VASTParser.parse(document(expires: nil), budget: VASTLimits.budget(seconds: 5)).ads.first?.expires)
        XCTAssertNil(try VASTParser.parse(document(expires: "soon"), budget: VASTLimits.budget(seconds: 5)).ads.first?.expires)
        XCTAssertNil(try VASTParser.parse(document(expires: "-5"), budget: VASTLimits.budget(seconds: 5)).ads.first?.expires)
    }

    func testTheChainsSmallestExpiresBoundsTheAd() throws {
        var inline = try XCTUnwrap(VASTParser.parse(document(expires: "600"), budget: VASTLimits.budget(seconds: 5)).ads.first)
        var wrapper = VASTAd(id: "w")
        wrapper.wrapper = VASTWrapper(tagURI: "https://ads.example/inner")
        wrapper.expires = 120
        var chain = VASTChain(maxWrappers: 5)
        XCTAssertEqual(try chain.step(wrapper), "https://ads.example/inner")
        XCTAssertEqual(try chain.merged(inline: inline, reach: .any).expires, 120)
        inline.expires = 30
        let resolved = try chain.merged(inline: inline, reach: .any)
        XCTAssertEqual(resolved.expires, 30)
        let received = Date(timeIntervalSince1970: 1_000_000)
        XCTAssertEqual(resolved.expiry(receivedAt: received), received.addingTimeInterval(30))
        XCTAssertNil(
            try VASTChain(maxWrappers: 5).merged(
                inline: VASTParser.parse(document(expires: nil), budget: VASTLimits.budget(seconds: 5)).ads[0], reach: .any
            ).expiry(receivedAt: received))
    }

    func testTheSelectorSkipsAnAdPastItsExpiresAndTheNextOneShows() {
        let clock = Date(timeIntervalSince1970: 2_000_000)  // the injected "now"
        let c1 = Creative(url: URL(string: "https://cdn.example/v.mp4")!, width: 320, height: 240, bytes: 1, sha256: "a")
        let c2 = Creative(url: URL(string: "https://cdn.example/w.mp4")!, width: 320, height: 240, bytes: 1, sha256: "b")
        var vast = AdEntry(id: "partner", priority: 5, variants: [c1], vast: "https://ads.example/tag")
        vast.expiresAt = clock.addingTimeInterval(2)
        let house = AdEntry(id: "house", variants: [c2])
        let pick = { (t: TimeInterval) in
            AdSelector.choose(
                from: [vast, house], now: clock.addingTimeInterval(t),
                screen: Size(width: 320, height: 240), isAvailable: { _ in true })?.ad.id
        }
        XCTAssertEqual(pick(0), "partner")
        XCTAssertEqual(pick(1.9), "partner")
        XCTAssertEqual(pick(2), "house", "at its expiry the ad is no longer shown")
        XCTAssertEqual(pick(60), "house")
        XCTAssertTrue(vast.isExpired(at: clock.addingTimeInterval(2)))
        XCTAssertFalse(vast.isExpired(at: clock.addingTimeInterval(1)))
        XCTAssertEqual(AdSelector.worthCaching([vast, house], now: clock.addingTimeInterval(3)).map(\.id), ["house"])
        XCTAssertNil(
            AdSelector.choose(
                from: [vast], now: clock.addingTimeInterval(3), screen: Size(width: 320, height: 240),
                isAvailable: { _ in true }))
    }

    func testTheExpiryIsKeptInTheCacheIndexRecord() throws {
        var ad = AdEntry(id: "partner", variants: [], vast: "https://ads.example/tag")
        ad.expiresAt = Date(timeIntervalSince1970: 1_800_000_000)
        var index = CacheIndex()
        index.setRecord(AdRecord(ad: ad, cachedAt: Date(timeIntervalSince1970: 1_799_999_000)))
        let data = try JSONEncoder().encode(index)
        XCTAssertTrue(String(decoding: data, as: UTF8.self).contains("\"expires_at\""))
        XCTAssertEqual(try JSONDecoder().decode(CacheIndex.self, from: data).record(for: "partner")?.ad.expiresAt, ad.expiresAt)
    }
}
