import LaunchAdCore
import LaunchAdTestSupport
import XCTest

final class ManifestTests: XCTestCase {
    let base = URL(string: "https://ads.example.com/v1/manifest.json")!
    static let sha = String(repeating: "ab", count: 32)

    func ad(_ fields: String, id: String = "spring", type: String = "video") -> String {
        """
        {"id": "\(id)", "type": "\(type)", \(fields)
         "variants": [{"url": "sale-720x1280.mp4", "width": 720, "height": 1280, "bytes": 912345, "sha256": "\(ManifestTests.sha)"}]}
        """
    }

    func parse(_ json: String) throws -> ParsedManifest {
        try ManifestParser.parse(Data(json.utf8), base: base, budget: ManifestParser.budget(maxBytes: 1_000_000, seconds: 5))
    }

    func testFullExampleParses() throws {
        let json = """
            {"ads": [{"id": "spring-sale", "type": "video",
                      "start": "2026-11-01T00:00:00Z", "end": "2026-12-31T23:59:59Z",
                      "show": true, "priority": 10, "link": "https://example.com/sale",
                      "duration": 5, "skip_after": 0, "layout": "fullscreen",
                      "variants": [{"url": "https://cdn.example.com/sale-720x1280.mp4",
                                    "width": 720, "height": 1280, "bytes": 912345, "sha256": "\(ManifestTests.sha.uppercased())"}],
                      "fallback": {"url": "/img/sale.png", "width": 720, "height": 1280, "bytes": 12345, "sha256": "\(ManifestTests.sha)"}}]}
            """
        let p = try parse(json)
        XCTAssertEqual(p.rejected, [])
        let a = try XCTUnwrap(p.manifest.ads.first)
        XCTAssertEqual(a.id, "spring-sale")
        XCTAssertEqual(a.kind, .video)
        XCTAssertEqual(a.start, Date(timeIntervalSince1970: 1_793_491_200))
        XCTAssertEqual(a.end, Date(timeIntervalSince1970: 1_798_761_599))
        XCTAssertEqual(a.priority, 10)
        XCTAssertEqual(a.link, "https://example.com/sale")
        XCTAssertEqual(a.duration, 5)
        XCTAssertEqual(a.variants[0].sha256, ManifestTests.sha, "digests are kept in lower case")
        XCTAssertEqual(a.fallback?.url.absoluteString, "https://ads.example.com/img/sale.png")
    }

    func testRelativeURLsResolveAgainstTheManifest() throws {
        let p = try parse(#"{"ads": ["# + ad("") + "]}")
        XCTAssertEqual(p.manifest.ads[0].variants[0].url.absoluteString, "https://ads.example.com/v1/sale-720x1280.mp4")
        let file = try ManifestParser.parse(
            Data((#"{"ads": ["# + ad("") + "]}").utf8),
            base: URL(fileURLWithPath: "/srv/ads/manifest.json"), budget: ManifestParser.budget(maxBytes: 1_000_000, seconds: 5))
        XCTAssertEqual(file.manifest.ads[0].variants[0].url, URL(fileURLWithPath: "/srv/ads/sale-720x1280.mp4"))
    }

    func testTimesTakeRFC3339AndEpochSeconds() throws {
        XCTAssertEqual(ManifestDate.rfc3339("2026-11-01T02:30:00+02:30"), Date(timeIntervalSince1970: 1_793_491_200))
        XCTAssertEqual(ManifestDate.rfc3339("2026-11-01t00:00:00.250z"), Date(timeIntervalSince1970: 1_793_491_200.25))
        XCTAssertEqual(ManifestDate.rfc3339("2024-02-29T12:00:00-01:00"), Date(timeIntervalSince1970: 1_709_211_600))
        for bad in [
            "2026-02-29T00:00:00Z", "2026-11-01", "2026-11-01T00:00:00", "2026-13-01T00:00:00Z", "yesterday",
            "2026-11-01T00:00:00Zjunk", "2026-11-01T24:00:00Z"
        ] {
            XCTAssertNil(ManifestDate.rfc3339(bad), bad)
        }
        let p = try parse(#"{"ads": ["# + ad(#""start": 1793491200, "end": "1798761599","#) + "]}")
        XCTAssertEqual(p.manifest.ads[0].start, Date(timeIntervalSince1970: 1_793_491_200))
        XCTAssertEqual(p.manifest.ads[0].end, Date(timeIntervalSince1970: 1_798_761_599))
    }

    func testDefaults() throws {
        let a = try parse(#"{"ads": ["# + ad("") + "]}").manifest.ads[0]
        XCTAssertTrue(a.show)
        XCTAssertEqual(a.priority, 0)
        XCTAssertNil(a.start)
        XCTAssertNil(a.end)
        XCTAssertNil(a.fallback)
    }

    /// A broken ad is rejected alone, with a reason naming the field; the good ones stay.
    func testBadAdsAreRejectedOneByOne() throws {
        let cases: [(String, String)] = [
            (#""start": "soon","#, "start must be an RFC 3339 time or epoch seconds"),
            (#""start": "2026-12-01T00:00:00Z", "end": "2026-11-01T00:00:00Z","#, "\"end\" is before \"start\""),
            (#""show": "yes","#, "show must be true or false"),
            (#""priority": 1.5,"#, "priority must be a whole number"),
            (#""link": "javascript:alert(1)","#, "\"link\" must be an http or https URL"),
            (#""layout": "sideways","#, "\"layout\" must be one of"),
            (#""duration": -1,"#, "duration must be a number of seconds")
        ]
        for (fields, reason) in cases + [("", "\"type\" must be video, image or vast, not \"audio\"")] {
            let bad = fields.isEmpty ? ad("", type: "audio") : ad(fields)
            let p = try parse(#"{"ads": ["# + bad + "," + ad("", id: "good") + "]}")
            XCTAssertEqual(p.manifest.ads.map(\.id), ["good"], fields)
            XCTAssertEqual(p.rejected.first?.id, "spring", fields)
            XCTAssertTrue(p.rejected.first?.reason.contains(reason) == true, "\(fields): \(p.rejected)")
        }
    }

    func testBadCreativesAreRejected() throws {
        let creative = #"{"url": "a.mp4", "width": 720, "height": 1280, "bytes": 10, "sha256": "\#(ManifestTests.sha)"}"#
        let cases: [(String, String)] = [
            (creative.replacingOccurrences(of: ManifestTests.sha, with: "1234"), "variants[0].sha256 must be 64 hex digits"),
            (creative.replacingOccurrences(of: #""bytes": 10"#, with: #""bytes": 0"#), "variants[0].bytes must be a whole number"),
            (creative.replacingOccurrences(of: #""width": 720, "#, with: ""), "needs \"width\" and \"height\""),
            (creative.replacingOccurrences(of: "a.mp4", with: "file:///etc/passwd"), "variants[0].url must be http or https"),
            (creative.replacingOccurrences(of: "a.mp4", with: "ftp://x/a.mp4"), "variants[0].url must be http or https")
        ]
        for (c, reason) in cases {
            let p = try parse(#"{"ads": [{"id": "x", "type": "video", "variants": [\#(c)]}]}"#)
            XCTAssertEqual(p.manifest.ads, [], c)
            XCTAssertTrue(p.rejected.first?.reason.contains(reason) == true, "\(c): \(p.rejected)")
        }
        let empty = try parse(#"{"ads": [{"id": "x", "type": "video", "variants": []}]}"#)
        XCTAssertEqual(empty.rejected, [RejectedAd(id: "x", reason: "\"variants\" must be a non-empty array")])
    }

    /// In a manifest file, a relative URL may not leave the manifest's folder.
    func testRelativeURLsInAManifestFileStayInItsFolder() throws {
        let base = URL(fileURLWithPath: "/srv/ads/manifest.json")
        func variant(_ url: String) -> String {
            #"{"ads": [{"id": "x", "type": "video", "variants": [{"url": "\#(url)", "width": 720, "height": 1280, "bytes": 10, "sha256": "\#(ManifestTests.sha)"}]}]}"#
        }
        for url in ["../secret.mp4", "sub/../../secret.mp4", "/etc/passwd", "%2e%2e/secret.mp4", "//host/x.mp4"] {
            let p = try ManifestParser.parse(
                Data(variant(url).utf8), base: base, budget: ManifestParser.budget(maxBytes: 1_000_000, seconds: 5))
            XCTAssertEqual(p.manifest.ads, [], url)
            XCTAssertEqual(p.rejected.first?.id, "x", url)
        }
        XCTAssertEqual(
            try ManifestParser.parse(
                Data(variant("../secret.mp4").utf8), base: base, budget: ManifestParser.budget(maxBytes: 1_000_000, seconds: 5)
            ).rejected.first?.reason,
            "variants[0].url leaves the manifest's folder: \"../secret.mp4\"")
        for url in ["sub/a.mp4", "./a.mp4", "sub/../a.mp4"] {
            let p = try ManifestParser.parse(
                Data(variant(url).utf8), base: base, budget: ManifestParser.budget(maxBytes: 1_000_000, seconds: 5))
            XCTAssertEqual(p.manifest.ads.first?.variants.first?.url.standardized.path.hasPrefix("/srv/ads/"), true, url)
        }
    }

    func testDuplicateIdsKeepTheFirst() throws {
        let p = try parse(#"{"ads": ["# + ad(#""priority": 1,"#) + "," + ad(#""priority": 2,"#) + "]}")
        XCTAssertEqual(p.manifest.ads.map(\.priority), [1])
        XCTAssertEqual(p.rejected, [RejectedAd(id: "spring", reason: "id \"spring\" is used twice")])
    }

    func testUnusableManifestsThrowOneLine() {
        for (json, message) in [
            ("not json", "manifest is not valid JSON"), ("[]", "manifest must be a JSON object with an \"ads\" array"),
            (#"{"ad": []}"#, "manifest has no \"ads\" array")
        ] {
            XCTAssertThrowsError(try parse(json)) { XCTAssertEqual($0 as? ManifestError, ManifestError(message)) }
        }
    }

    /// The example shipped in Media/ points at Media/'s own files, with their true sizes and digests.
    func testMediaExampleMatchesItsFiles() throws {
        let url = URL(fileURLWithPath: Fixtures.media("manifest.json"))
        let p = try ManifestParser.parse(Data(contentsOf: url), base: url, budget: ManifestParser.budget(maxBytes: 1_000_000, seconds: 5))
        XCTAssertEqual(p.rejected, [])
        let creatives = p.manifest.ads.flatMap(\.creatives)
        XCTAssertFalse(creatives.isEmpty)
        for c in creatives {
            XCTAssertTrue(c.url.isFileURL)
            let size = try FileManager.default.attributesOfItem(atPath: c.url.path)[.size] as? NSNumber
            XCTAssertEqual(size?.int64Value, c.bytes, c.url.path)
            XCTAssertEqual(SHA256.hex(of: try Data(contentsOf: c.url)), c.sha256, c.url.path)
        }
    }

    /// The manifest example in docs/launch-and-cache.md is a valid manifest.
    func testTheDocsManifestExampleParses() throws {
        let readme = try String(contentsOfFile: Fixtures.repoRoot.appendingPathComponent("docs/launch-and-cache.md").path, encoding: .utf8)
        let section = try XCTUnwrap(readme.range(of: "## The manifest"))
        let rest = readme[section.upperBound...]
        let open = try XCTUnwrap(rest.range(of: "```json\n")),
            close = try XCTUnwrap(rest.range(of: "\n```", range: open.upperBound..<rest.endIndex))
        let p = try ManifestParser.parse(
            Data(rest[open.upperBound..<close.lowerBound].utf8), base: base, budget: ManifestParser.budget(maxBytes: 1_000_000, seconds: 5))
        XCTAssertEqual(p.rejected, [])
        XCTAssertEqual(p.manifest.ads.map(\.id), ["spring-sale", "new-year"])
        XCTAssertEqual(p.manifest.ads[0].variants[1].url.absoluteString, "https://ads.example.com/v1/sale-1080x1920.mp4")
    }
}

/// A manifest ad's `captions`: a file named by its hash and size, no picture size, at most 1 MB.
final class ManifestCaptionParseTests: XCTestCase {
    let sha = String(repeating: "a", count: 64)

    func manifest(_ captions: String) -> Data {
        Data(
            #"{"ads": [{"id": "a", "type": "image", "variants": [{"url": "a.png", "width": 1, "height": 1, "bytes": 1, "sha256": "\#(sha)"}], "captions": \#(captions)}]}"#
                .utf8)
    }

    func testCaptionsAreACreativeOfTheAd() throws {
        let base = URL(string: "https://ads.example/m.json")!
        let m = try ManifestParser.parse(
            manifest(#"{"url": "a.vtt", "bytes": 10, "sha256": "\#(sha)"}"#), base: base,
            budget: ManifestParser.budget(maxBytes: 1_000_000, seconds: 5)
        ).manifest
        let c = try XCTUnwrap(m.ads.first?.captions)
        XCTAssertEqual(c.url.absoluteString, "https://ads.example/a.vtt")
        XCTAssertEqual(m.ads.first?.creatives.count, 2)
        let big = try ManifestParser.parse(
            manifest(#"{"url": "a.vtt", "bytes": 2000000, "sha256": "\#(sha)"}"#), base: base,
            budget: ManifestParser.budget(maxBytes: 1_000_000, seconds: 5))
        XCTAssertEqual(big.rejected, [RejectedAd(id: "a", reason: "captions is 2000000 bytes, over the 1048576-byte caption limit")])
    }
}
