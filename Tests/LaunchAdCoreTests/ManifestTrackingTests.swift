import LaunchAdCore
import XCTest

final class ManifestTrackingTests: XCTestCase {
    let base = URL(string: "https://ads.example.com/v1/manifest.json")!
    let sha = String(repeating: "ab", count: 32)

    func parse(tracking: String) throws -> ParsedManifest {
        let json = """
            {"ads": [{"id": "spring", "type": "image", "link": "https://example.com/sale", "tracking": \(tracking),
                      "variants": [{"url": "a.png", "width": 720, "height": 1280, "bytes": 10, "sha256": "\(sha)"}]}]}
            """
        return try ManifestParser.parse(Data(json.utf8), base: base, budget: ManifestParser.budget(maxBytes: 1_000_000, seconds: 5))
    }

    func testTrackingIsReadAndBecomesAVASTAdForTheSameTracker() throws {
        let p = try parse(
            tracking: """
                {"impression": ["https://t.example.com/imp?ts=[TIMESTAMP]"], "start": ["https://t.example.com/s"],
                 "midpoint": ["https://t.example.com/m1", "https://t.example.com/m2"], "click": ["https://t.example.com/c"],
                 "error": ["https://t.example.com/e?code=[ERRORCODE]"], "notUsed": ["https://t.example.com/n"]}
                """)
        XCTAssertEqual(p.rejected, [])
        let ad = try XCTUnwrap(p.manifest.ads.first)
        XCTAssertEqual(ad.tracking?["midpoint"], ["https://t.example.com/m1", "https://t.example.com/m2"])
        let resolved = try XCTUnwrap(ManifestTracking.resolvedAd(ad, reach: .any))
        XCTAssertEqual(resolved.impressions, ["https://t.example.com/imp?ts=[TIMESTAMP]"])
        XCTAssertEqual(resolved.errors, ["https://t.example.com/e?code=[ERRORCODE]"])
        XCTAssertEqual(resolved.linear.clickTracking, ["https://t.example.com/c"])
        XCTAssertEqual(resolved.linear.tracking.map(\.event), ["start", "midpoint", "midpoint", "notUsed"])
        XCTAssertEqual(resolved.linear.clickThrough, "https://example.com/sale")

        // The same decisions as for a VAST ad: impression and start at the first frame, each once.
        var context = MacroContext(timestamp: Date(), cacheBusting: "", deviceUA: "ua")
        context.playerSize = Size(width: 320, height: 240)
        var tracker = VASTTracker(ad: resolved, context: context)
        let at = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z
        let batches = tracker.batches(for: AdEvent(.firstFrame(fallback: false), tMs: 5), at: at, cacheBuster: { "12345678" })
        XCTAssertEqual(batches.map(\.event), ["impression", "start"])
        XCTAssertEqual(batches.first?.urls, ["https://t.example.com/imp?ts=2026-01-01T00%3A00%3A00.000Z"])
        XCTAssertEqual(tracker.batches(for: AdEvent(.firstFrame(fallback: false), tMs: 6), at: at, cacheBuster: { "1" }), [])
    }

    func testBadTrackingRefusesTheFieldAndKeepsTheAd() throws {
        let cases: [(String, String)] = [
            (#"{"impression": ["javascript:alert(1)"]}"#, "tracking.impression[0] must be an http or https URL"),
            (#"{"impression": ["file:///etc/passwd"]}"#, "tracking.impression[0] must be an http or https URL"),
            (#"{"start": "https://t.example.com/s"}"#, "tracking.start must be an array of at most 20 URLs"),
            (
                #"{"impresion": ["https://t.example.com/i"]}"#,
                "tracking.impresion is not an event (use \(ManifestTracking.events.joined(separator: ", ")))"
            ),
            (#"["https://t.example.com/i"]"#, "\"tracking\" must be an object of event names to URL arrays"),
            (#"{"complete": [42]}"#, "tracking.complete[0] must be an http or https URL")
        ]
        for (tracking, reason) in cases {
            let p = try parse(tracking: tracking)
            XCTAssertEqual(p.rejected, [RejectedAd(id: "spring", reason: reason + "; the ad is kept without tracking")], tracking)
            XCTAssertEqual(p.manifest.ads.map(\.id), ["spring"], tracking)
            XCTAssertNil(p.manifest.ads.first?.tracking, tracking)
        }
    }

    func testTrackingSurvivesTheCacheIndex() throws {
        let ad = try XCTUnwrap(try parse(tracking: #"{"complete": ["https://t.example.com/c"]}"#).manifest.ads.first)
        let back = try JSONDecoder().decode(AdEntry.self, from: try JSONEncoder().encode(ad))
        XCTAssertEqual(back.tracking, ["complete": ["https://t.example.com/c"]])
        // An index written before tracking existed still reads.
        var old = try XCTUnwrap(try JSONSerialization.jsonObject(with: try JSONEncoder().encode(ad)) as? [String: Any])
        old["tracking"] = nil
        XCTAssertNil(try JSONDecoder().decode(AdEntry.self, from: try JSONSerialization.data(withJSONObject: old)).tracking)
    }
}
