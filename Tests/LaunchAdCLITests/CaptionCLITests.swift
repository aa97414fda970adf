import Foundation
import LaunchAdTestSupport
import XCTest

/// `play --captions`: what was read is reported, a bad file or cue is one `captions_error` and
/// the ad plays on, an oversized file is refused with its reason.
final class CaptionCLITests: XCTestCase {
    func play(_ captions: String, _ extra: [String] = []) throws -> Launchad.Run {
        let clip = try Fixtures.colourBars(seconds: 2, audio: false)
        return try Launchad.run(["play", clip, "--transition", "none", "--captions", captions, "--caption-mode", "on"] + extra)
    }

    func testASidecarIsReadAndItsCuesReachTheScreen() throws {
        let vtt = try Fixtures.write(
            "cli-ok.vtt", Data("WEBVTT\n\n00:00.200 --> 00:00.900\nFirst\n\n00:01.000 --> 00:01.800\nSecond\n".utf8))
        let run = try play(vtt)
        XCTAssertEqual(run.status, 0, run.stderr)
        let loaded = try XCTUnwrap(run.events(named: "captions").first)
        XCTAssertEqual(loaded["format"] as? String, "webvtt")
        XCTAssertEqual(loaded["cues"] as? Int, 2)
        XCTAssertEqual(loaded["source"] as? String, "sidecar")
        XCTAssertEqual(run.events(named: "caption").compactMap { $0["text"] as? String }, ["First", "Second"])
        XCTAssertTrue(run.events(named: "captions_error").isEmpty)
    }

    func testMalformedCuesAreOneErrorAndTheAdPlaysOn() throws {
        let srt = try Fixtures.write(
            "cli-bad-cues.srt",
            Data(
                "1\n00:00:00,200 --> 00:00:01,500\nGood\n\n2\n00:00:02,000 --> 00:00:01,000\nBackwards\n\n3\n25:00:00,000 --> 25:00:01,000\nTomorrow\n"
                    .utf8))
        let run = try play(srt)
        XCTAssertEqual(run.status, 0, run.stderr)
        let errors = run.events(named: "captions_error")
        XCTAssertEqual(errors.count, 1)
        XCTAssertEqual(errors.first?["skipped"] as? Int, 2)
        XCTAssertEqual(errors.first?["message"] as? String, "cue 2: it ends (1000 ms) before it starts (2000 ms)")
        XCTAssertEqual(run.events(named: "caption").compactMap { $0["text"] as? String }, ["Good"])
        XCTAssertEqual(run.events.last?["outcome"] as? String, "completed")
    }

    func testAFileThatIsNoCaptionsOrTooLargeIsRefusedAndTheAdPlays() throws {
        let junk = try Fixtures.write("cli-junk.vtt", Data("<html>not captions</html>".utf8))
        let big = try Fixtures.write("cli-big.vtt", Data(("WEBVTT\n\nNOTE " + String(repeating: "x", count: 1_100_000)).utf8))
        // Issue 29: this file trapped the runtime (exit 132, no `end`).
        let hostile = try Fixtures.write(
            "cli-frame-rate.ttml",
            Data(
                #"<tt xmlns="http://www.w3.org/ns/ttml" xmlns:ttp="http://www.w3.org/ns/ttml#parameter" ttp:frameRate="1e-306"><body><div><p begin="00:00:00:0.5" end="10f">x</p></div></body></tt>"#
                    .utf8))
        let missing = Fixtures.directory.appendingPathComponent("no-such-captions.vtt").path
        for (file, message) in [
            (junk, "not a caption file: the root element is <html>, not <tt>"),
            (big, "the caption file is over the 1048576-byte limit"),
            (hostile, "the TTML file's ttp:frameRate '1e-306' is not a whole number of frames from 1 to 1000")
        ] {
            let run = try play(file)
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertEqual(run.events(named: "captions_error").map { $0["message"] as? String }, [message])
            XCTAssertTrue(run.events(named: "captions").isEmpty)
            XCTAssertEqual(run.events.last?["outcome"] as? String, "completed")
        }
        let run = try play(missing)
        XCTAssertEqual(run.status, 0)
        XCTAssertTrue((run.events(named: "captions_error").first?["message"] as? String ?? "").hasPrefix("cannot read"))
    }

    func testCaptionOptionsAreChecked() throws {
        let clip = try Fixtures.colourBars(seconds: 1, audio: false)
        let bad = try Launchad.run(["play", clip, "--caption-mode", "sometimes"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("--caption-mode takes one of auto, on, off, not 'sometimes'"), bad.stderr)
        let lang = try Launchad.run(["play", clip, "--caption-lang", "english please"])
        XCTAssertEqual(lang.status, 2)
    }

    /// CEA-608 captions (a c608 track made from a Scenarist file) reach the screen through ccaption.
    func testCEA608CaptionsInTheFileAreShown() throws {
        let run = try Launchad.run(["play", try CaptionFixtures.cea608(), "--transition", "none", "--mute"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let loaded = try XCTUnwrap(run.events(named: "captions").first)
        XCTAssertEqual(loaded["source"] as? String, "embedded")
        XCTAssertEqual(loaded["format"] as? String, "cc_dec")
        XCTAssertEqual(run.events(named: "caption").compactMap { $0["text"] as? String }, ["HI"])
    }

    /// CEA-608 inside the H.264 stream (A/53) reaches the screen through ccaption too.
    func testA53CaptionsInTheVideoAreShown() throws {
        let run = try Launchad.run(["play", try CaptionFixtures.a53(), "--transition", "none", "--mute"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.events(named: "captions").first?["format"] as? String, "a53 cc_dec")
        XCTAssertEqual(run.events(named: "caption").compactMap { $0["text"] as? String }, ["HI"])
    }

    /// Unmuted in auto mode the file's captions are not read (nor shown) until muted; `off` never reads them.
    func testCaptionModesOnTheFilesTrack() throws {
        let file = try CaptionFixtures.textTrack(codec: "mov_text", ext: "mp4")
        let sounding = try Launchad.run(["play", file, "--transition", "none"])
        XCTAssertTrue(sounding.events(named: "captions").isEmpty)
        XCTAssertTrue(sounding.events(named: "caption").isEmpty)
        // Muted by the host (the control line): the track is read then.
        let muted = try Launchad.run(["play", file, "--transition", "none", "--control", "stdin"], stdin: Data("mute\n".utf8))
        XCTAssertEqual(muted.events(named: "captions").count, 1, muted.stdout)
        let off = try Launchad.run(["play", file, "--transition", "none", "--mute", "--caption-mode", "off"])
        XCTAssertTrue(off.events(named: "captions").isEmpty)
        XCTAssertTrue(off.events(named: "caption").isEmpty)
    }
}

/// `validate` with a spec that requires captions: the captioned file passes, the plain one fails.
final class CaptionValidateTests: XCTestCase {
    func testASpecRequiringCaptions() throws {
        let spec = try Fixtures.write("captions-spec.json", Data(#"{"name": "cc", "rules": {"captions": {"allowed": ["any"]}}}"#.utf8))
        let captioned = try Launchad.run(["validate", try CaptionFixtures.textTrack(codec: "mov_text", ext: "mp4"), "--spec", spec])
        XCTAssertEqual(captioned.status, 0, captioned.stdout)
        XCTAssertTrue(captioned.stdout.contains("mov_text eng, 2 cues"), captioned.stdout)
        let plain = try Launchad.run(["validate", try Fixtures.colourBars(seconds: 1, audio: false), "--spec", spec])
        XCTAssertEqual(plain.status, 1, plain.stdout)
        XCTAssertTrue(plain.stdout.range(of: #"fail +captions +none"#, options: .regularExpression) != nil, plain.stdout)
    }

    /// The HTML report's pictures carry the cue on screen at their times, as a reviewer would see it.
    func testTheReportsPicturesShowTheirCues() throws {
        let out = Fixtures.directory.appendingPathComponent("captioned-\(UUID().uuidString).html").path
        defer { unlink(out) }
        let r = try Launchad.run([
            "validate", try CaptionFixtures.textTrack(codec: "mov_text", ext: "mp4"), "--format", "html", "--output", out
        ])
        XCTAssertNotEqual(r.status, 2, r.stderr)
        let html = try String(contentsOfFile: out, encoding: .utf8)
        let cues = html.components(separatedBy: #"<p class="cue">"#).dropFirst().map { $0.components(separatedBy: "</p>")[0] }
        XCTAssertFalse(cues.isEmpty, "no picture shows a cue")
        XCTAssertTrue(cues.allSatisfy { ["Hello captions", "Second cue"].contains($0) }, "\(cues)")
        XCTAssertLessThan(cues.count, HTMLReading.elements("figure", in: html).count, "pictures between cues show none")
    }
}
