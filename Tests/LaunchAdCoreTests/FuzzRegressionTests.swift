import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

/// Replays what the manifest fuzz target (Fuzz/ManifestFuzz.swift, scripts/fuzz.sh) found and
/// started from: every input parses or is refused with a reason, and what parses keeps the
/// parser's promises (remote manifests name only remote files, links are http or https).
final class ManifestFuzzRegressionTests: XCTestCase {
    static func inputs(_ target: String) -> [URL] {
        ["Fuzz/regressions/\(target)", "Fuzz/seeds/\(target)"].flatMap { dir -> [URL] in
            let url = Fixtures.repoRoot.appendingPathComponent(dir)
            return ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted().map { url.appendingPathComponent($0) }
        }
    }

    func testFuzzInputsParseOrAreRefused() throws {
        let inputs = Self.inputs("manifest")
        XCTAssertGreaterThan(inputs.count, 1, "the seeds are there")
        var parsed = 0
        for file in inputs {
            let data = try Data(contentsOf: file)
            for base in [URL(string: "https://ads.example.com/v1/manifest.json")!, URL(fileURLWithPath: "/srv/ads/manifest.json")] {
                do {
                    let result = try ManifestParser.parse(data, base: base, budget: ManifestParser.budget(maxBytes: 1_000_000, seconds: 5))
                    parsed += 1
                    for ad in result.manifest.ads {
                        XCTAssertFalse(ad.id.isEmpty, file.lastPathComponent)
                        if let link = ad.link { XCTAssertTrue(Link.isAllowed(link), "\(file.lastPathComponent): \(link)") }
                        for c in ad.creatives where !base.isFileURL {
                            XCTAssertTrue(["http", "https"].contains(c.url.scheme ?? ""), "\(file.lastPathComponent): \(c.url)")
                        }
                    }
                    for r in result.rejected { XCTAssertFalse(r.reason.isEmpty, file.lastPathComponent) }
                } catch let e as ManifestError {
                    XCTAssertFalse(e.message.isEmpty, file.lastPathComponent)
                }
            }
        }
        XCTAssertGreaterThan(parsed, 0, "at least the example manifest parses")
    }
}
