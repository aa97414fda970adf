import Foundation
import LaunchAdTestSupport
import XCTest

/// Real-world tags (Corpus/VAST, see its README for where each came from) played against a
/// loopback nginx: each plays, or fails with the code and the Error URIs a reference client
/// sends, as the `/track/` endpoint receives them. The tags' URLs are rewritten at serve time:
/// media files to a local clip, every other URL to `/track/<host>/...`.
final class VASTCorpusTests: XCTestCase {
    var nginx: Nginx!
    var state: String!
    static let corpus = Fixtures.repoRoot.appendingPathComponent("Tests/LaunchAdCLITests/Corpus/VAST")

    override func setUpWithError() throws {
        nginx = try Nginx()
        state = NSTemporaryDirectory() + "launchad-vast-corpus-\(UUID().uuidString)"
        try nginx.put("ad.mp4", Data(contentsOf: URL(fileURLWithPath: try Fixtures.colourBars(seconds: 2, audio: true))))
    }

    override func tearDown() {
        nginx.stop()
        try? FileManager.default.removeItem(atPath: state)
    }

    /// The tag as served here: media files → the clip, the IAB's raw GitHub URLs → `/iab/`, any other URL → `/track/<host>`.
    func rewrite(_ xml: String) -> String {
        let base = nginx.base
        var s = xml.replacingOccurrences(
            of: #"(<MediaFile[^>]*>\s*(<!\[CDATA\[)?\s*)https?://[^\]<\s]+"#, with: "$1\(base)/ad.mp4",
            options: .regularExpression)
        s = s.replacingOccurrences(
            of: "https://raw.githubusercontent.com/InteractiveAdvertisingBureau/VAST_Samples/master/", with: "\(base)/iab/")
        s = s.replacingOccurrences(
            of: "http://demo.tremormedia.com/proddev/vast/", with: "\(base)/iab/VAST%201-2.0%20Samples/Tremor-Video-Samples/")
        return s.replacingOccurrences(
            of: #"https?://(?!127\.0\.0\.1)([^/\s\]<"']+)"#, with: "\(base)/track/$1", options: .regularExpression)
    }

    /// Serves every file of `folder` (recursively) rewritten, under `under/`.
    func serve(_ folder: URL, under: String) throws {
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        for file in files where file.pathExtension == "xml" {
            let relative = String(file.path.dropFirst(folder.path.count + 1))
            let target = nginx.www.appendingPathComponent(under).appendingPathComponent(relative)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(rewrite(try String(contentsOf: file, encoding: .utf8)).utf8).write(to: target)
        }
    }

    func play(_ url: String) throws -> Launchad.Run {
        try Launchad.run(["play", "--vast", url, "--state", state, "--size", "320x240", "--transition", "none", "--beacon-wait", "5"])
    }

    func testTheVastClientJSFixturesPlayOrFailAsAReferenceClientWould() throws {
        try serve(Self.corpus.appendingPathComponent("vast-client-js"), under: "vcj")
        let ex = "example.com"
        let cases: [(file: String, status: Int32, code: Int?, beacons: [String], absent: [String])] = [
            // A pod of one (its buffet ad has a plain-seconds <Duration>, read, not refused), legacy cache-busters filled.
            (
                "sample.xml", 0, nil,
                [
                    "\(ex)/impression1_asset:", "\(ex)/impression2_", "\(ex)/impression3_", "\(ex)/linear-start",
                    "\(ex)/linear-firstQuartile", "\(ex)/linear-midpoint", "\(ex)/linear-progress-60%", "\(ex)/linear-complete"
                ],
                ["\(ex)/error_", "\(ex)/nonlinear-start", "[random]", "[RANDOM]"]
            ),
            // VAST 2's <VASTAdTagURL><URL>, relative, to an ad whose MediaFile says codec="0".
            (
                "wrapper-legacy.xml", 0, nil,
                [
                    "\(ex)/wrapper-impression", "\(ex)/track/impression", "\(ex)/wrapper-start", "\(ex)/tracking/start",
                    "\(ex)/tracking/complete", "\(ex)/wrapper-complete"
                ], ["\(ex)/wrapper-error", "\(ex)/error"]
            ),
            // An empty wrapped response: the wrapper's Error and the empty document's root Error, 303.
            ("wrapper-empty.xml", 3, 303, ["\(ex)/wrapper-empty_wrapper-error", "\(ex)/empty-no-ad"], ["\(ex)/wrapper-impression"]),
            ("empty-no-ad.xml", 3, 303, ["\(ex)/empty-no-ad"], []),
            // An InLine with no creative: 303 (as vast-client-js), its own Error URI.
            ("empty-no-creative.xml", 3, 303, ["\(ex)/empty-no-creative_inline-error"], []),
            // Two relative wrappers to sample.xml, whose standalone ad is VPAID only: 403 to both wrappers' Error URIs;
            // the buffet's next ad wraps vpaid.xml: 403 again, to its own.
            ("wrapper-a.xml", 3, 403, ["\(ex)/wrapperA-error", "\(ex)/wrapperB-error", "\(ex)/error"], ["\(ex)/wrapperA-impression"]),
            ("outdated-vast.xml", 3, 101, [], [])
        ]
        for c in cases {
            let before = nginx.tracked.count
            let run = try play("\(nginx.base)/vcj/\(c.file)")
            XCTAssertEqual(run.status, c.status, "\(c.file): \(run.stdout)\(run.stderr)")
            XCTAssertEqual(run.events(named: "end").count, 1, c.file)
            if let code = c.code {
                XCTAssertEqual(run.events(named: "error").first?["vast_error"] as? Int, code, "\(c.file): \(run.stdout)")
            }
            let got = nginx.tracked(from: before) { got in c.beacons.allSatisfy { b in got.contains { $0.hasPrefix(b) } } }
            for b in c.beacons { XCTAssertTrue(got.contains { $0.hasPrefix(b) }, "\(c.file): \(b) not in \(got)") }
            for a in c.absent { XCTAssertFalse(got.contains { $0.hasPrefix(a) || $0.contains(a) }, "\(c.file): \(a) in \(got)") }
            if c.file == "sample.xml" {
                XCTAssertEqual(run.events(named: "vast_ad").first?["ad_id"] as? String, "ad_id_0001")
                let impressions = got.filter { $0.hasPrefix("\(ex)/impression") }
                XCTAssertEqual(impressions.count, 3, "\(impressions)")
                for i in impressions {
                    XCTAssertNotNil(i.range(of: #"_\d{8}$"#, options: .regularExpression), "a cache-buster of 8 digits: \(i)")
                }
            }
            if c.file == "wrapper-a.xml" {
                XCTAssertEqual(got.filter { $0.hasPrefix("\(ex)/wrapperA-error") }.count, 1, "\(got)")
            }
        }
    }

    /// The IAB Tech Lab's own sample tags (read from a local checkout: their licence grants no
    /// redistribution, see Corpus/VAST/README.md): each 4.x linear sample plays and its impression arrives.
    func testTheIABSampleTagsPlay() throws {
        guard let dir = ProcessInfo.processInfo.environment["LAUNCHAD_IAB_VAST_SAMPLES"] else {
            // A fact of the machine: the tags may not be shipped in this repository, so CI has no copy.
            throw EnvironmentSkip.because("LAUNCHAD_IAB_VAST_SAMPLES names no checkout of InteractiveAdvertisingBureau/VAST_Samples")
        }
        let root = URL(fileURLWithPath: dir)
        try serve(root, under: "iab")
        var played: [String] = []
        for version in ["4.0", "4.1", "4.2"] {
            for name in [
                "Inline_Simple.xml", "Inline_Linear_Tag-test.xml", "Event_Tracking-test.xml",
                "Video_Clicks_and_click_tracking-Inline-test.xml",
                "Ready_to_serve_Media_Files_check-test.xml", "Universal_Ad_ID-test.xml", "Ad_Verification-test.xml",
                "Viewable_Impression-test.xml", "Category-test.xml", "Wrapper_Tag-test.xml"
            ] {
                let path = "VAST \(version) Samples/\(name)"
                guard FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path) else { continue }
                let before = nginx.tracked.count
                let run = try play("\(nginx.base)/iab/\(path.replacingOccurrences(of: " ", with: "%20"))")
                XCTAssertEqual(run.status, 0, "\(path): \(run.stdout)\(run.stderr)")
                XCTAssertEqual(run.events(named: "first_frame").count, 1, path)
                let got = nginx.tracked(from: before) { $0.contains { $0.lowercased().contains("impression") } }
                XCTAssertTrue(got.contains { $0.lowercased().contains("impression") }, "\(path): \(got)")
                played.append(path)
            }
        }
        // VAST 3.0 and 2.0 linear samples (the Tremor Video ones are VAST 2 with lower-case habits).
        for path in [
            "VAST 3.0 Samples/Inline_Linear_Tag-test.xml", "VAST 3.0 Samples/Event_Tracking-test.xml",
            "VAST 3.0 Samples/Video_Clicks_and_click_tracking-Inline-test.xml", "VAST 3.0 Samples/Wrapper_Tag-test.xml",
            "VAST 3.0 Samples/No_Wrapper_Tag-test.xml", "VAST 1-2.0 Samples/Inline_LinearRegular_VAST2.0.xml",
            "VAST 1-2.0 Samples/Tremor-Video-Samples/vast2RegularLinear.xml",
            "VAST 1-2.0 Samples/Tremor-Video-Samples/vast_inline_linear.xml",
            "VAST 1-2.0 Samples/Tremor-Video-Samples/vast_wrapper_linear_1.xml"
        ]
        where FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path) {
            let run = try play("\(nginx.base)/iab/\(path.replacingOccurrences(of: " ", with: "%20"))")
            XCTAssertEqual(run.status, 0, "\(path): \(run.stdout)\(run.stderr)")
            played.append(path)
        }
        XCTAssertGreaterThanOrEqual(played.count, 20, "\(played)")
    }
}
