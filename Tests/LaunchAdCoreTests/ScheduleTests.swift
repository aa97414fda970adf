import LaunchAdCore
import XCTest

final class ScheduleTests: XCTestCase {
    static let day: TimeInterval = 86400
    let now = Date(timeIntervalSince1970: 1_795_000_000)
    let phone = Size(width: 720, height: 1280)

    func creative(_ w: Int, _ h: Int, _ tag: String = "") -> Creative {
        let sha = SHA256.hex(of: Data("\(w)x\(h)\(tag)".utf8))
        return Creative(url: URL(string: "https://cdn.example.com/\(w)x\(h)\(tag).mp4")!, width: w, height: h, bytes: 100, sha256: sha)
    }

    func ad(
        _ id: String, priority: Int = 0, show: Bool = true, from: TimeInterval? = nil, to: TimeInterval? = nil,
        variants: [Creative]? = nil
    ) -> AdEntry {
        AdEntry(
            id: id, start: from.map { now.addingTimeInterval($0) }, end: to.map { now.addingTimeInterval($0) },
            show: show, priority: priority, variants: variants ?? [creative(720, 1280, id)])
    }

    func chosen(_ ads: [AdEntry], at time: Date? = nil, cached: Set<String>? = nil) -> String? {
        AdSelector.choose(from: ads, now: time ?? now, screen: phone) { c in cached.map { $0.contains(c.sha256) } ?? true }?.ad.id
    }

    func testHighestPriorityWinsAndTiesKeepManifestOrder() {
        XCTAssertEqual(chosen([ad("low", priority: 1), ad("high", priority: 9), ad("mid", priority: 5)]), "high")
        XCTAssertEqual(chosen([ad("first", priority: 3), ad("second", priority: 3)]), "first")
    }

    func testTimeWindowFollowsTheInjectedClock() {
        let ads = [
            ad("later", priority: 9, from: Self.day), ad("over", priority: 8, to: -1), ad("now", priority: 1, from: -Self.day, to: Self.day)
        ]
        XCTAssertEqual(chosen(ads), "now")
        XCTAssertEqual(chosen(ads, at: now.addingTimeInterval(Self.day)), "later", "the window's start is inclusive")
        XCTAssertEqual(chosen(ads, at: now.addingTimeInterval(-10)), "over")
        XCTAssertEqual(chosen(ads, at: now.addingTimeInterval(Self.day + 1)), "later")
        XCTAssertNil(chosen([ad("gone", to: -1)]))
    }

    func testHiddenAdsAreNeverShown() {
        XCTAssertEqual(chosen([ad("hidden", priority: 9, show: false), ad("shown")]), "shown")
        XCTAssertNil(chosen([ad("hidden", show: false)]))
    }

    func testOnlyCachedCreativesCount() {
        let top = ad("top", priority: 9), next = ad("next", priority: 1)
        XCTAssertEqual(chosen([top, next], cached: [next.variants[0].sha256]), "next")
        XCTAssertNil(chosen([top, next], cached: []))
    }

    func testFallbackOnlyWhenCached() {
        var a = ad("a")
        a.fallback = creative(720, 1280, "png")
        let with = AdSelector.choose(from: [a], now: now, screen: phone) { _ in true }
        XCTAssertEqual(with?.fallback, a.fallback)
        let without = AdSelector.choose(from: [a], now: now, screen: phone) { $0 != a.fallback }
        XCTAssertEqual(without?.ad.id, "a")
        XCTAssertNil(without?.fallback)
    }

    func testVariantBestFitsTheScreen() {
        let small = creative(360, 640), phoneSize = creative(720, 1280), big = creative(1080, 1920), wide = creative(1920, 1080)
        let all = [big, wide, small, phoneSize]
        XCTAssertEqual(VariantChooser.best(all, for: Size(width: 720, height: 1280)), phoneSize, "exact size")
        XCTAssertEqual(VariantChooser.best(all, for: Size(width: 750, height: 1334)), big, "smallest that covers")
        XCTAssertEqual(VariantChooser.best(all, for: Size(width: 320, height: 568)), small)
        XCTAssertEqual(VariantChooser.best(all, for: Size(width: 1920, height: 1080)), wide, "landscape screen, landscape creative")
        XCTAssertEqual(VariantChooser.best([small, phoneSize], for: Size(width: 1536, height: 2048)), phoneSize, "largest when none covers")
        XCTAssertEqual(VariantChooser.best([wide], for: phone), wide, "the only one")
        XCTAssertNil(VariantChooser.best([], for: phone))
    }

    func testSelectionUsesOnlyCachedVariants() {
        let small = creative(360, 640), big = creative(1080, 1920)
        let a = ad("a", variants: [small, big])
        XCTAssertEqual(AdSelector.choose(from: [a], now: now, screen: phone) { $0 == small }?.variant, small)
        XCTAssertEqual(AdSelector.choose(from: [a], now: now, screen: phone) { _ in true }?.variant, big)
    }

    func testWorthCachingSkipsHiddenAndExpiredButKeepsUpcoming() {
        let ads = [
            ad("old", priority: 9, to: -1), ad("hidden", show: false), ad("soon", priority: 2, from: Self.day), ad("now", priority: 5)
        ]
        XCTAssertEqual(AdSelector.worthCaching(ads, now: now).map(\.id), ["now", "soon"])
    }
}
