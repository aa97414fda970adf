import Foundation
import LaunchAdTestSupport
import XCTest

/// `play --vast` with tags as servers really send them (one bad ad among good ones, labels that
/// lie, verifications) and as a hostile server sends them (deep nesting, UTF-7, floods of URIs),
/// asserted on what the nginx `/track/` endpoint and a collector receive.
final class VASTRealWorldPlayTests: XCTestCase {
    var nginx: Nginx!
    var track: String { "\(nginx.base)/track" }
    var state: String!

    override func setUpWithError() throws {
        nginx = try Nginx()
        state = NSTemporaryDirectory() + "launchad-vast-rw-\(UUID().uuidString)"
        try nginx.put("ad.mp4", Data(contentsOf: URL(fileURLWithPath: try Fixtures.colourBars(seconds: 2, audio: true))))
    }

    override func tearDown() {
        nginx.stop()
        try? FileManager.default.removeItem(atPath: state)
    }

    var media: String { VASTTags.mediaFile("\(nginx.base)/ad.mp4", extra: #"codec="H.264""#) }

    func play(_ url: String, _ extra: [String] = []) throws -> Launchad.Run {
        try Launchad.run(
            ["play", "--vast", url, "--state", state, "--size", "320x240", "--transition", "none", "--beacon-wait", "5"] + extra)
    }

    /// One ad's malformed <Duration> fails that ad alone (101, its own Error URI); the pod's other
    /// ad plays; a plain-seconds duration is read; codec="H.264" plays.
    func testABadAdFailsAloneAndThePodCarriesOn() throws {
        let bad = VASTTags.inlineAd(id: "bad", track: track, media: [media], sequence: 1, duration: "half a minute")
        let plain = VASTTags.inlineAd(id: "plain", track: track, media: [media], sequence: 2, duration: "2")
        let run = try play(try nginx.put("pod.xml", Data(VASTTags.document([bad, plain]).utf8)))
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertEqual(run.events(named: "error").first?["vast_error"] as? Int, 101, run.stdout)
        XCTAssertEqual(run.events(named: "ad_end").map { $0["ad_id"] as? String }, ["plain"])
        XCTAssertEqual(run.events(named: "end").count, 1)
        let got = nginx.tracked { $0.contains { $0.hasPrefix("plain/complete") } }
        XCTAssertTrue(got.contains("bad/error?code=101"), "\(got)")
        XCTAssertTrue(got.contains { $0.hasPrefix("plain/impression") } && got.contains { $0.hasPrefix("plain/complete") }, "\(got)")
        XCTAssertFalse(got.contains { $0.hasPrefix("bad/impression") }, "\(got)")
    }

    /// The first file by its attributes is not media at all: the next candidate plays; the failed
    /// try sends no Error URI and ends nothing (one `ad_end`). With no candidate left it is 405.
    func testAFileThatDoesNotDecodeGivesWayToTheNextCandidate() throws {
        try nginx.put("fake.mp4", Data("this is not a video".utf8))
        // The smallest file covering the window, so the first chosen.
        let fake = VASTTags.mediaFile("\(nginx.base)/fake.mp4", extra: #"codec="avc1.64000D""#)
        let larger = VASTTags.mediaFile("\(nginx.base)/ad.mp4", width: 640, height: 480, extra: #"codec="H.264""#)
        let run = try play(
            try nginx.put("lying.xml", Data(VASTTags.document([VASTTags.inlineAd(id: "ly", track: track, media: [larger, fake])]).utf8)))
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertEqual(run.events(named: "media_fallback").first?["media"] as? String, "\(nginx.base)/fake.mp4", run.stdout)
        XCTAssertEqual(run.events(named: "ad_end").count, 1, run.stdout)
        XCTAssertEqual(run.events(named: "first_frame").count, 1)
        let got = nginx.tracked { $0.contains { $0.hasPrefix("ly/complete") } }
        XCTAssertFalse(got.contains { $0.hasPrefix("ly/error") }, "\(got)")

        let only = try play(
            try nginx.put("only-fake.xml", Data(VASTTags.document([VASTTags.inlineAd(id: "of", track: track, media: [fake])]).utf8)))
        XCTAssertEqual(only.status, 3, only.stdout)
        XCTAssertEqual(only.events(named: "error").first?["vast_error"] as? Int, 405, only.stdout)
        XCTAssertTrue(nginx.tracked { $0.contains("of/error?code=405") }.contains("of/error?code=405"))
    }

    /// Verifications cannot run here: each is told once with [REASON] 2. Under SDL's dummy driver
    /// the display cannot tell viewability: ViewUndetermined, not Viewable.
    func testVerificationNotExecutedAndViewUndetermined() throws {
        let extra = """
            <AdVerifications><Verification vendor="v.example"><JavaScriptResource apiFramework="omid"><![CDATA[https://v.example/omid.js]]></JavaScriptResource>
            <TrackingEvents><Tracking event="verificationNotExecuted"><![CDATA[\(track)/ver/ne?reason=[REASON]]]></Tracking></TrackingEvents></Verification></AdVerifications>
            <ViewableImpression><Viewable><![CDATA[\(track)/view/yes]]></Viewable><NotViewable><![CDATA[\(track)/view/no]]></NotViewable>
            <ViewUndetermined><![CDATA[\(track)/view/unknown]]></ViewUndetermined></ViewableImpression>
            """
        let tag = VASTTags.document(version: "4.1", [VASTTags.inlineAd(id: "vv", track: track, media: [media])])
            .replacingOccurrences(of: "<AdTitle>vv</AdTitle>", with: "<AdTitle>vv</AdTitle>\(extra)")
        let run = try play(try nginx.put("verify.xml", Data(tag.utf8)))
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        let got = nginx.tracked { $0.contains { $0.hasPrefix("vv/complete") } && $0.contains("view/unknown") }
        XCTAssertEqual(got.filter { $0.hasPrefix("ver/") }, ["ver/ne?reason=2"])
        XCTAssertEqual(got.filter { $0.hasPrefix("view/") }, ["view/unknown"])
    }

    /// `--report` with a pod: one play record per ad played, each with its ad's id.
    func testReportSendsOneRecordPerAdPlayed() throws {
        let collector = try Collector()
        let tag = VASTTags.document([
            VASTTags.inlineAd(id: "p1", track: track, media: [media], sequence: 1),
            VASTTags.inlineAd(id: "p2", track: track, media: [media], sequence: 2)
        ])
        let run = try play(try nginx.put("report.xml", Data(tag.utf8)), ["--report", "\(collector.url)/pop", "--screen-id", "lobby"])
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        let records = collector.records
        XCTAssertEqual(records.map { $0["ad_id"] as? String }, ["p1", "p2"], "\(records)")
        XCTAssertEqual(records.map { $0["outcome"] as? String }, ["completed", "completed"])
        XCTAssertEqual(Set(records.compactMap { $0["id"] as? String }).count, 2, "each its own duplicate key")
        // A tag sniffed from its root element (no --vast) reports the same way.
        let sniffed = try Launchad.run([
            "play", try nginx.put("report-tag", Data(tag.utf8)), "--state", state, "--size", "320x240",
            "--transition", "none", "--beacon-wait", "5", "--report", "\(collector.url)/pop"
        ])
        XCTAssertEqual(sniffed.status, 0, sniffed.stdout + sniffed.stderr)
        XCTAssertEqual(collector.records.map { $0["ad_id"] as? String }, ["p1", "p2", "p1", "p2"])
    }

    /// Issue 20: 100,000 elements deep, UTF-7 and an unknown encoding: VAST 100, exit 3, one `end`, no crash.
    func testDeepNestingAndForeignEncodingsAreRefusedWithError100() throws {
        let deep =
            "<VAST version=\"4.0\">" + String(repeating: "<a>", count: 100_000) + String(repeating: "</a>", count: 100_000) + "</VAST>"
        let utf7 =
            #"<?xml version="1.0" encoding="UTF-7"?>+ADwAIQ-DOCTYPE v +AFs-+ADwAIQ-ENTITY a +ACI-aaaa+ACI-+AD4AXQA+-<VAST version="4.0"/>"#
        for (name, body) in [
            ("deep", deep), ("utf7", utf7), ("latin", #"<?xml version="1.0" encoding="ISO-8859-1"?><VAST version="4.0"/>"#)
        ] {
            let url = try nginx.put("\(name).xml", Data(body.utf8))
            let run = try play(url)
            XCTAssertEqual(run.status, 3, "\(name): \(run.stdout)\(run.stderr)")
            XCTAssertEqual(run.events(named: "error").first?["vast_error"] as? Int, 100, name)
            XCTAssertEqual(run.events(named: "end").count, 1, name)
            let check = try Launchad.run(["validate", "--vast", url, "--format", "json", "--no-progress"])
            XCTAssertTrue((1..<128).contains(check.status), "\(name): exit \(check.status) \(check.stderr)")
            XCTAssertTrue(check.stdout.contains("well_formed"), name)
        }
    }

    /// 12,000 impressions in the InLine and in each of 5 wrappers: 200 are sent (the InLine's),
    /// the rest counted in `vast_ad` and never queued; the ad plays to its end.
    func testAFloodOfTrackingURIsIsCappedAndSaid() throws {
        let flood = { (id: String) in (0..<12_000).map { "<Impression><![CDATA[\(self.track)/\(id)/imp/\($0)]]></Impression>" }.joined() }
        let inline = VASTTags.document([VASTTags.inlineAd(id: "in", track: track, media: [media])])
            .replacingOccurrences(of: "<AdTitle>in</AdTitle>", with: "<AdTitle>in</AdTitle>\(flood("in"))")
        var next = try nginx.put("flood-in.xml", Data(inline.utf8))
        for d in (1...5).reversed() {
            let w = VASTTags.document([VASTTags.wrapperAd(id: "w\(d)", track: track, next: next)])
                .replacingOccurrences(of: "<AdSystem>", with: "\(flood("w\(d)"))<AdSystem>")
            next = try nginx.put("flood-w\(d).xml", Data(w.utf8))
        }
        let run = try play(next, ["--beacon-wait", "20"])
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        let ad = try XCTUnwrap(run.events(named: "vast_ad").first)
        XCTAssertEqual(ad["uris_dropped"] as? Int, 6 * 12_000 + 6 - 200, run.stdout)
        let got = nginx.tracked { $0.filter { $0.contains("/imp/") }.count >= 200 && $0.contains { $0.hasPrefix("in/complete") } }
        let impressions = got.filter { $0.contains("/imp/") }
        XCTAssertEqual(impressions.count, 200)
        XCTAssertTrue(impressions.allSatisfy { $0.hasPrefix("in/imp/") }, "the InLine's own first")
        let items = (try? FileManager.default.contentsOfDirectory(atPath: state + "/outbox/items")) ?? []
        XCTAssertLessThan(items.count, 300, "never 78,000 files")
    }

    /// `validate --vast` checks 20 media files of a tag at most; the rest are listed as not checked.
    func testValidateChecksAtMostTwentyMediaFiles() throws {
        let files = (1...25).map { VASTTags.mediaFile("\(nginx.base)/ad.mp4?n=\($0)", extra: #"codec="avc1.64000D""#) }
        let url = try nginx.put("many.xml", Data(VASTTags.document([VASTTags.inlineAd(id: "m", track: track, media: files)]).utf8))
        let run = try Launchad.run(["validate", "--vast", url, "--format", "json", "--no-progress"])
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], run.stdout + run.stderr)
        let sections = try XCTUnwrap(json["creatives"] as? [[String: Any]])
        XCTAssertEqual(sections.count, 1 + 20)
        let rules = sections[0]["rules"] as? [[String: Any]] ?? []
        let checked = try XCTUnwrap(rules.first { $0["rule"] as? String == "media_checked" }, "\(rules)")
        XCTAssertEqual(checked["status"] as? String, "warn")
        XCTAssertTrue("\(checked["measured"] ?? "")".contains("5 not checked"), "\(checked)")
        XCTAssertTrue("\(checked["measured"] ?? "")".contains("ad.mp4?n=25"), "\(checked)")
    }

    /// `validate --vast` names each leniency and each ad that fails alone under its own rule,
    /// and lints the MediaFiles' required attributes; the tag still resolves and plays.
    func testValidateNamesEachLeniencyAndBadAd() throws {
        let bare = #"<MediaFile type="video/mp4"><![CDATA[\#(nginx.base)/ad.mp4]]></MediaFile>"#
        var good = VASTTags.inlineAd(id: "ok", track: track, media: [bare], duration: "2")
        good = good.replacingOccurrences(of: "<Impression>", with: "<impression>").replacingOccurrences(
            of: "</Impression>", with: "</impression>")
        let bad = VASTTags.inlineAd(id: "bad", track: track, media: [media], sequence: 1, skipoffset: "soon")
        let url = try nginx.put("lint.xml", Data(VASTTags.document(version: "3.0", [bad, good]).utf8))
        let run = try Launchad.run(["validate", "--vast", url, "--format", "json", "--no-progress"])
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], run.stdout + run.stderr)
        let rules = ((json["creatives"] as? [[String: Any]])?.first?["rules"] as? [[String: Any]]) ?? []
        let status = Dictionary(
            rules.map { ($0["rule"] as? String ?? "?", $0["status"] as? String ?? "?") }, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(status["duration_format"], "warn", "\(rules)")
        XCTAssertEqual(status["element_case"], "warn", "\(rules)")
        XCTAssertEqual(status["ad_values"], "fail", "\(rules)")
        XCTAssertEqual(status["media_attributes"], "fail", "\(rules)")
        XCTAssertEqual(status["vast_version"], "pass", "not blamed on the version")
        let values = try XCTUnwrap(rules.first { $0["rule"] as? String == "ad_values" })
        XCTAssertTrue("\(values["measured"] ?? "")".contains("skipoffset 'soon'"), "\(values)")
        let attrs = try XCTUnwrap(rules.first { $0["rule"] as? String == "media_attributes" })
        XCTAssertTrue("\(attrs["measured"] ?? "")".contains("no delivery, width, height"), "\(attrs)")
        // The pod's first ad fails alone; the good one is the one validated and played.
        XCTAssertEqual(status["resolves"], "fail", "the first ad (the pod's) does not resolve: \(rules)")
        let played = try play(url)
        XCTAssertEqual(played.status, 0, played.stdout)
        XCTAssertEqual(played.events(named: "ad_end").map { $0["ad_id"] as? String }, ["ok"])
    }

    /// Every refusal made once the document's Error URIs are known fires them: `<VAST>` with no
    /// version and no ad is an empty answer (303), an unsupported version 102.
    func testRefusalsOfAWholeDocumentFireItsRootErrorURIs() throws {
        for (name, version, code) in [("noversion", "", 303), ("five", #" version="5.0""#, 102)] {
            let before = nginx.tracked.count
            let body = "<VAST\(version)><Error><![CDATA[\(track)/\(name)/error?code=[ERRORCODE]]]></Error></VAST>"
            let run = try play(try nginx.put("\(name).xml", Data(body.utf8)))
            XCTAssertEqual(run.status, 3, "\(name): \(run.stdout)")
            XCTAssertEqual(run.events(named: "error").first?["vast_error"] as? Int, code, "\(name): \(run.stdout)")
            XCTAssertEqual(nginx.tracked(from: before) { !$0.isEmpty }, ["\(name)/error?code=\(code)"])
        }
    }
}
