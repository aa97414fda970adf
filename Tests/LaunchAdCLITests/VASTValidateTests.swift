import Foundation
import LaunchAdTestSupport
import XCTest

/// `validate --vast`: the tag's rules, then the creative rules on each media file, in every format.
final class VASTValidateTests: XCTestCase {
    var nginx: Nginx!
    var track: String { "\(nginx.base)/track" }

    override func setUpWithError() throws {
        nginx = try Nginx()
        let clip = try Data(contentsOf: URL(fileURLWithPath: Fixtures.colourBars(seconds: 2, audio: true)))
        for name in ["r1.mp4", "r2.mp4", "r3.mp4"] { try nginx.put(name, clip) }
    }

    override func tearDown() { nginx.stop() }

    var renditions: [String] {
        ["r1.mp4", "r2.mp4", "r3.mp4"].map { VASTTags.mediaFile("\(nginx.base)/\($0)", extra: #"codec="avc1.64000D""#) }
    }

    /// The tag section's rules as `rule=status`.
    func tagRules(_ run: Launchad.Run) throws -> [String: String] {
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], run.stdout + run.stderr)
        let tag = try XCTUnwrap((json["creatives"] as? [[String: Any]])?.first)
        var out: [String: String] = [:]
        for r in tag["rules"] as? [[String: Any]] ?? [] { out[r["rule"] as? String ?? "?"] = r["status"] as? String }
        return out
    }

    func validate(_ url: String, _ extra: [String] = []) throws -> Launchad.Run {
        try Launchad.run(["validate", "--vast", url, "--format", "json", "--no-progress", "--profile", "launch-ad"] + extra)
    }

    func testAGoodTagPassesAndEachMediaFileGetsItsOwnSection() throws {
        let url = try nginx.put(
            "good.xml", Data(VASTTags.document(version: "4.2", [VASTTags.inlineAd(id: "g", track: track, media: renditions)]).utf8))
        let run = try validate(url)
        let rules = try tagRules(run)
        for rule in [
            "well_formed", "vast_version", "resolves", "wrapper_depth", "required_elements", "playable_media", "renditions",
            "universal_ad_id", "duration_match"
        ] {
            XCTAssertEqual(rules[rule], "pass", "\(rule): \(run.stdout)")
        }
        XCTAssertEqual(rules["https_uris"], "warn", "the test server is plain http")
        let json = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        let files = (json?["creatives"] as? [[String: Any]])?.map { $0["file"] as? String ?? "" }
        XCTAssertEqual(files, [url, "\(nginx.base)/r1.mp4", "\(nginx.base)/r2.mp4", "\(nginx.base)/r3.mp4"])
        let junit = try Launchad.run(["validate", "--vast", url, "--format", "junit", "--no-progress"])
        XCTAssertTrue(junit.stdout.contains(#"<testcase name="playable_media""#) || junit.stdout.contains("playable_media"), junit.stdout)
        let text = try Launchad.run(["validate", "--vast", url, "--no-progress"])
        XCTAssertTrue(text.stdout.contains("wrapper_depth"), text.stdout)
    }

    /// On a terminal (here forced with --progress) the tag and each media file's download and
    /// analysis show on stderr; the report on stdout is untouched. Judged by the default profile,
    /// a failing media file brings one line naming it and the CTV profile.
    func testProgressAndWhichProfileJudged() throws {
        let url = try nginx.put(
            "progress.xml", Data(VASTTags.document(version: "4.2", [VASTTags.inlineAd(id: "p", track: track, media: renditions)]).utf8))
        let run = try Launchad.run(["validate", "--vast", url, "--format", "json", "--progress"])
        XCTAssertTrue(run.stderr.contains("reading the tag"), run.stderr)
        XCTAssertTrue(run.stderr.contains("3/3 analyse"), run.stderr)
        XCTAssertTrue(run.stderr.contains("100%"), run.stderr)
        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)), "stdout is the report alone")
        let mediaFailed =
            ((try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])?["creatives"] as? [[String: Any]])?
            .dropFirst().contains { $0["status"] as? String == "fail" }
        XCTAssertEqual(mediaFailed, true, "a 320x240 landscape clip fails the launch-ad profile: \(run.stdout)")
        XCTAssertTrue(
            run.stderr.contains(
                "launchad: the media files were judged by the launch-ad profile (the default, for launch screens); a CTV tag's renditions are judged by --profile iab-ctv\n"
            ), run.stderr)
        let chosen = try Launchad.run(["validate", "--vast", url, "--format", "json", "--no-progress", "--profile", "launch-ad"])
        XCTAssertEqual(chosen.stderr, "", "a profile chosen needs no hint, and no bar without a terminal")
    }

    func testEachBrokenTagFailsTheRightRule() throws {
        var six = try nginx.put("in.xml", Data(VASTTags.document([VASTTags.inlineAd(id: "i", track: track, media: renditions)]).utf8))
        for d in 1...6 {
            six = try nginx.put("w\(d).xml", Data(VASTTags.document([VASTTags.wrapperAd(id: "w\(d)", track: track, next: six)]).utf8))
        }
        let noTitle = VASTTags.document([VASTTags.inlineAd(id: "t", track: track, media: renditions)])
            .replacingOccurrences(of: "<AdTitle>t</AdTitle>", with: "")
        let cases: [(String, String, String)] = [
            ("malformed", "<VAST version=\"4.0\"><Ad>", "well_formed"),
            ("version", "<VAST version=\"1.0\"></VAST>", "vast_version"),
            ("no-title", noTitle, "required_elements"),
            (
                "long", VASTTags.document([VASTTags.inlineAd(id: "l", track: track, media: renditions, duration: "00:00:10")]),
                "duration_match"
            ),
            (
                "flash",
                VASTTags.document([
                    VASTTags.inlineAd(
                        id: "f", track: track, media: [VASTTags.mediaFile("\(nginx.base)/a.swf", type: "application/x-shockwave-flash")])
                ]), "playable_media"
            ),
            (
                "js", VASTTags.document([VASTTags.inlineAd(id: "j", track: track, media: renditions, clickThrough: "javascript:alert(1)")]),
                "https_uris"
            )
        ]
        for (name, body, rule) in cases {
            let url = try nginx.put("bad-\(name).xml", Data(body.utf8))
            let run = try validate(url)
            XCTAssertEqual(run.status, 1, name)
            XCTAssertEqual(try tagRules(run)[rule], "fail", "\(name): \(run.stdout)")
        }
        let deep = try validate(six)
        XCTAssertEqual(deep.status, 1)
        XCTAssertEqual(try tagRules(deep)["wrapper_depth"], "fail", deep.stdout)
        let oneRendition = try nginx.put(
            "one.xml", Data(VASTTags.document([VASTTags.inlineAd(id: "o", track: track, media: [renditions[0]])]).utf8))
        XCTAssertEqual(try tagRules(try validate(oneRendition))["renditions"], "warn")
    }

    func testTheHTMLReportShowsTheWrapperChainAndTheMediaFileLadder() throws {
        let vpaid = VASTTags.mediaFile(
            "\(nginx.base)/ad.js", width: 640, height: 480, type: "application/javascript", extra: #"apiFramework="VPAID""#)
        let inline = try nginx.put(
            "h-in.xml",
            Data(VASTTags.document(version: "4.1", [VASTTags.inlineAd(id: "h", track: track, media: [vpaid] + renditions)]).utf8))
        let inner = try nginx.put(
            "h-w2.xml", Data(VASTTags.document(version: "3.0", [VASTTags.wrapperAd(id: "hw2", track: track, next: inline)]).utf8))
        let outer = try nginx.put(
            "h-w1.xml", Data(VASTTags.document(version: "4.2", [VASTTags.wrapperAd(id: "hw1", track: track, next: inner)]).utf8))
        let page = Fixtures.directory.appendingPathComponent("vast-report-\(UUID().uuidString).html").path
        defer { try? FileManager.default.removeItem(atPath: page) }
        let run = try Launchad.run([
            "validate", "--vast", outer, "--format", "html", "--output", page, "--no-progress", "--profile", "launch-ad"
        ])
        XCTAssertEqual(run.stdout, "", run.stderr)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        let tag = try XCTUnwrap(HTMLReading.section("creative-1", in: html))
        // The chain: the tag, then each wrapper's VASTAdTagURI, in order, the InLine last.
        let uris = tag.components(separatedBy: #"<span class="uri">"#).dropFirst().map { String($0.prefix { $0 != "<" }) }
        XCTAssertEqual(uris, [outer, inner, inline], tag)
        XCTAssertTrue(
            tag.contains(#"<li class="inline"><span class="uri">\#(inline)</span> <span class="details">InLine · VAST 4.1 · AdSystem"#), tag
        )
        // The ladder: one row per MediaFile; the VPAID one skipped, each MP4 linked to its own section, which exists.
        let rows = tag.components(separatedBy: #"<tr class="media "#).dropFirst()
        XCTAssertEqual(rows.count, 4, tag)
        XCTAssertTrue(rows.first?.contains("skipped: VPAID (interactive) is not played") == true, tag)
        XCTAssertEqual(rows.filter { $0.contains("<strong>chosen for 1920x1080</strong>") }.count, 1, tag)
        for (n, name) in ["r1.mp4", "r2.mp4", "r3.mp4"].enumerated() {
            let row = try XCTUnwrap(rows.first { $0.contains("<td>\(nginx.base)/\(name)</td>") }, name)
            XCTAssertTrue(row.contains(##"<a href="#creative-\##(n + 2)">section</a>"##), row)
            let section = try XCTUnwrap(HTMLReading.section("creative-\(n + 2)", in: html), name)
            XCTAssertTrue(section.contains("\(nginx.base)/\(name)"), name)
        }
        for href in HTMLReading.elements("a", in: html).compactMap({ $0["href"] }) {
            XCTAssertTrue(href.hasPrefix("#"), href)
            XCTAssertNotNil(HTMLReading.section(String(href.dropFirst()), in: html), href)
        }
    }

    /// The chain as far as it went, when it breaks partway: each wrapper read, then the document
    /// it could not read, marked, and the error under them.
    func testAChainBrokenPartwayShowsEachWrapperUpToTheDocumentItCouldNotRead() throws {
        let missing = "\(nginx.base)/gone.xml"
        let inner = try nginx.put(
            "b-w2.xml", Data(VASTTags.document(version: "3.0", [VASTTags.wrapperAd(id: "bw2", track: track, next: missing)]).utf8))
        let outer = try nginx.put(
            "b-w1.xml", Data(VASTTags.document(version: "4.2", [VASTTags.wrapperAd(id: "bw1", track: track, next: inner)]).utf8))
        let page = Fixtures.directory.appendingPathComponent("vast-broken-\(UUID().uuidString).html").path
        defer { try? FileManager.default.removeItem(atPath: page) }
        let run = try Launchad.run([
            "validate", "--vast", outer, "--format", "html", "--output", page, "--no-progress", "--profile", "launch-ad"
        ])
        XCTAssertEqual(run.status, 1, run.stderr)
        let tag = try XCTUnwrap(HTMLReading.section("creative-1", in: try String(contentsOfFile: page, encoding: .utf8)))
        let uris = tag.components(separatedBy: #"<span class="uri">"#).dropFirst().map { String($0.prefix { $0 != "<" }) }
        XCTAssertEqual(uris, [outer, inner, missing], tag)
        XCTAssertTrue(
            tag.contains(#"<li class="wrapper"><span class="uri">\#(inner)</span> <span class="details">Wrapper · VAST 3.0 · AdSystem"#),
            tag)
        XCTAssertTrue(tag.contains(#"<li class="failed"><span class="uri">\#(missing)</span> <span class="details">not read</span>"#), tag)
        XCTAssertTrue(tag.contains(#"<p class="chain-error">VAST error 301: HTTP 404"#), tag)
    }
}
