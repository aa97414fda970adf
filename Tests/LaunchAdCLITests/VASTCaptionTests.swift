import Foundation
import LaunchAdTestSupport
import XCTest

/// VAST `<ClosedCaptionFiles>` on nginx: the file in the asked language (else the locale's)
/// is fetched, parsed and shown; WebVTT and TTML; a URL the VAST rules refuse is never fetched.
/// The icon tests (VASTIconTests.swift) share this nginx.
final class VASTCaptionTests: XCTestCase {
    var nginx: Nginx!
    var state: String!

    override func setUpWithError() throws {
        nginx = try Nginx()
        state = NSTemporaryDirectory() + "launchad-vastcc-state-\(UUID().uuidString)"
        try nginx.put("ad.mp4", Data(contentsOf: URL(fileURLWithPath: try Fixtures.colourBars(seconds: 2, audio: false))))
        try nginx.put("cc-en.vtt", Data("WEBVTT\n\n00:00.200 --> 00:01.500\nEnglish words\n".utf8))
        try nginx.put(
            "cc-es.ttml",
            Data(
                """
                <tt xmlns="http://www.w3.org/ns/ttml" xml:lang="es"><body><div>
                <p begin="0.2s" end="1.5s">Palabras<br/>en español</p></div></body></tt>
                """.utf8))
    }

    override func tearDown() {
        nginx.stop()
        try? FileManager.default.removeItem(atPath: state)
    }

    func tag(_ captionFiles: String) throws -> String {
        let media = VASTTags.mediaFile("\(nginx.base)/ad.mp4")
        let ad = VASTTags.inlineAd(
            id: "cc", track: "\(nginx.base)/track", media: [media, "<ClosedCaptionFiles>\(captionFiles)</ClosedCaptionFiles>"])
        return try nginx.put("tag-\(UUID().uuidString).xml", Data(VASTTags.document(version: "4.1", [ad]).utf8))
    }

    var bothLanguages: String {
        """
        <ClosedCaptionFile type="application/ttml+xml" language="es"><![CDATA[\(nginx.base)/cc-es.ttml]]></ClosedCaptionFile>
        <ClosedCaptionFile type="text/vtt" language="en"><![CDATA[\(nginx.base)/cc-en.vtt]]></ClosedCaptionFile>
        """
    }

    func play(_ url: String, _ extra: [String] = [], lang: String = "C") throws -> Launchad.Run {
        try Launchad.run(
            ["play", "--vast", url, "--state", state, "--size", "320x240", "--transition", "none", "--mute"] + extra,
            environment: Launchad.headlessEnvironment(["LANG": lang, "LC_ALL": "", "LC_MESSAGES": ""]))
    }

    func testTheAskedLanguagesTTMLFileIsShown() throws {
        let run = try play(try tag(bothLanguages), ["--caption-lang", "es"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let loaded = try XCTUnwrap(run.events(named: "captions").first)
        XCTAssertEqual(loaded["source"] as? String, "vast")
        XCTAssertEqual(loaded["format"] as? String, "ttml")
        XCTAssertEqual(loaded["language"] as? String, "es")
        XCTAssertEqual(run.events(named: "caption").compactMap { $0["text"] as? String }, ["Palabras\nen español"])
    }

    func testTheLocalesLanguageElseTheFirst() throws {
        let url = try tag(bothLanguages)
        let english = try play(url, lang: "en_GB.UTF-8")
        XCTAssertEqual(english.events(named: "captions").first?["format"] as? String, "webvtt")
        XCTAssertEqual(english.events(named: "caption").compactMap { $0["text"] as? String }, ["English words"])
        let other = try play(url, lang: "de_DE.UTF-8")
        XCTAssertEqual(other.events(named: "captions").first?["language"] as? String, "es", "the first file")
    }

    func testAFileURLInTheTagIsNeverRead() throws {
        let secret = try Fixtures.write("vast-cc-secret.vtt", Data("WEBVTT\n\n00:00.000 --> 00:02.000\nsecret\n".utf8))
        let run = try play(try tag(#"<ClosedCaptionFile type="text/vtt" language="en"><![CDATA[file://\#(secret)]]></ClosedCaptionFile>"#))
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.events(named: "captions").isEmpty)
        XCTAssertTrue(run.events(named: "caption").isEmpty)
    }

    func testAMissingCaptionFileIsOneErrorAndTheAdPlays() throws {
        let run = try play(try tag(#"<ClosedCaptionFile type="text/vtt"><![CDATA[\#(nginx.base)/cc-missing.vtt]]></ClosedCaptionFile>"#))
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.events(named: "captions_error").count, 1)
        XCTAssertEqual(run.events(named: "end").first?["outcome"] as? String, "completed")
    }
}

extension VASTCaptionTests {
    /// `validate --vast` fetches and parses every caption file: cue counts, the last cue against
    /// the ad's length, and a file that cannot be read fails the tag.
    func testValidateVASTReadsEachCaptionFile() throws {
        try nginx.put("cc-long.vtt", Data("WEBVTT\n\n00:00.000 --> 00:01.000\nA\n\n00:05.000 --> 00:06.000\nLate\n".utf8))
        let url = try tag(
            bothLanguages + """
                <ClosedCaptionFile type="text/vtt" language="de"><![CDATA[\(nginx.base)/cc-long.vtt]]></ClosedCaptionFile>
                """)
        let run = try Launchad.run(["validate", "--vast", url, "--format", "json"])
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], run.stdout)
        let creatives = try XCTUnwrap(json["creatives"] as? [[String: Any]], run.stdout)
        let rules = try XCTUnwrap(creatives.first?["rules"] as? [[String: Any]])
        let cc = try XCTUnwrap(rules.first { $0["rule"] as? String == "closed_caption_files" }, "\(rules)")
        XCTAssertEqual(cc["status"] as? String, "warn")
        XCTAssertEqual(
            cc["measured"] as? String,
            "es application/ttml+xml: 1 cues, last ends at 1.5 s; en text/vtt: 1 cues, last ends at 1.5 s; "
                + "de text/vtt: 2 cues, last ends at 6 s (after the ad's 2 s)")
        let broken = try Launchad.run([
            "validate", "--vast",
            try tag(#"<ClosedCaptionFile type="text/vtt"><![CDATA[\#(nginx.base)/cc-missing.vtt]]></ClosedCaptionFile>"#)
        ])
        XCTAssertEqual(broken.status, 1)
        XCTAssertTrue(broken.stdout.contains("closed_caption_files"), broken.stdout)
    }
}
