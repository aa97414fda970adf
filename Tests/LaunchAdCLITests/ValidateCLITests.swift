import Foundation
import FoundationXML
import LaunchAdCLI
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

@testable import LaunchAdEngine

/// `launchad validate` as a user runs it: reports, exit codes, bad input.
final class ValidateCLITests: XCTestCase {
    /// A portrait creative that meets the launch-ad profile: 3 s, faststart, 360x640.
    static func portraitAd() throws -> String {
        try Fixtures.make(
            "validate-portrait.mp4",
            [
                "-f", "lavfi", "-i", "testsrc2=s=360x640:r=25:d=3", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:d=3",
                "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", "-ac", "2", "-movflags", "+faststart"
            ])
    }

    private func assertOneLine(_ stderr: String, contains text: String, file: StaticString = #filePath, line: UInt = #line) {
        let lines = stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, "one line: \(stderr)", file: file, line: line)
        XCTAssertTrue(stderr.hasPrefix("launchad: ") && stderr.contains(text), stderr, file: file, line: line)
    }

    func testAPassingCreativeExitsZeroAndAFailingOneExitsOne() throws {
        let ad = try Self.portraitAd()
        let pass = try Launchad.run(["validate", ad])
        XCTAssertEqual(pass.status, 0, pass.stdout + pass.stderr)
        XCTAssertTrue(pass.stdout.hasPrefix("PASS  \(ad)  (launch-ad: 9 pass, 0 warn, 0 fail)"), pass.stdout)
        XCTAssertTrue(pass.stdout.contains("pass  orientation         portrait"), pass.stdout)

        // The same creative is 3 s long and portrait: not what a CTV slot takes.
        let ctv = try Launchad.run(["validate", "--profile", "iab-ctv", ad])
        XCTAssertEqual(ctv.status, 1)
        XCTAssertTrue(
            ctv.stdout.range(of: #"fail  duration +3 s +limit: one of 6, 15, 20, 30 s \(\+/-1\)"#, options: .regularExpression) != nil,
            ctv.stdout)
        XCTAssertTrue(ctv.stdout.range(of: #"fail  resolution +360x640"#, options: .regularExpression) != nil, ctv.stdout)
        XCTAssertEqual(ctv.stderr, "", "no progress bar or FFmpeg chatter when stderr is not a terminal")
    }

    func testACreativeMadeToTheCTVSpecPassesIt() throws {
        // Made to pass every iab-ctv rule.
        let ad = try Fixtures.cleanCTVClip()
        let r = try Launchad.run(["validate", "--profile", "iab-ctv", "--format", "json", ad])
        XCTAssertEqual(r.status, 0, r.stdout)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let rules = try XCTUnwrap((json["creatives"] as? [[String: Any]])?.first?["rules"] as? [[String: Any]])
        XCTAssertEqual(rules.count, Spec.iabCTV.rules.count)
        XCTAssertEqual(rules.filter { $0["status"] as? String != "pass" }.count, 0, "\(rules)")
        let loudness = try XCTUnwrap(rules.first { $0["rule"] as? String == "loudness_integrated" }?["measured"] as? Double)
        XCTAssertEqual(loudness, -24, accuracy: 0.3)
        // EBU R128 holds the same reading to -23 +/-1 instead.
        let ebu = try Launchad.run(["validate", "--profile", "iab-ctv", "--loudness", "ebu", ad])
        XCTAssertEqual(ebu.status, abs(loudness + 23) <= 1 ? 0 : 1, ebu.stdout)
        XCTAssertTrue(ebu.stdout.contains("limit: -23 +/-1 LUFS"), ebu.stdout)
    }

    func testAnImageAdIsValidatedToo() throws {
        let r = try Launchad.run(["validate", Fixtures.media("fallback.png")])
        XCTAssertEqual(r.status, 0, r.stdout)
        XCTAssertTrue(r.stdout.contains("pass  duration            not applicable to a still image"), r.stdout)
    }

    func testJUnitReportParsesAsXML() throws {
        let ad = try Self.portraitAd()
        let empty = try Fixtures.write("validate-empty.mp4", Data())
        let r = try Launchad.run(["validate", ad, empty, "--profile", "iab-ctv", "--format", "junit"])
        XCTAssertEqual(r.status, 1)
        let doc = try XMLDocument(data: Data(r.stdout.utf8))
        let suites = try XCTUnwrap(doc.rootElement()?.elements(forName: "testsuite"))
        XCTAssertEqual(suites.count, 2)
        XCTAssertEqual(suites[0].elements(forName: "testcase").count, Spec.iabCTV.rules.count)
        let failures = suites[0].elements(forName: "testcase").filter { !$0.elements(forName: "failure").isEmpty }
        XCTAssertTrue(failures.contains { $0.attribute(forName: "name")?.stringValue == "duration" })
        let unreadable = suites[1].elements(forName: "testcase").first?.elements(forName: "failure").first
        XCTAssertTrue(unreadable?.attribute(forName: "message")?.stringValue?.contains("is empty") == true)
    }

    func testJSONReportCarriesMeasuredValuesAndFacts() throws {
        let ad = try Self.portraitAd()
        let out = Fixtures.directory.appendingPathComponent("report.json").path
        let r = try Launchad.run(["validate", ad, "--format", "json", "--output", out])
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(r.stdout, "")
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out))) as? [String: Any])
        let creative = try XCTUnwrap((json["creatives"] as? [[String: Any]])?.first)
        let rules = try XCTUnwrap(creative["rules"] as? [[String: Any]])
        let width = try XCTUnwrap(rules.first { $0["rule"] as? String == "width" })
        XCTAssertEqual(width["measured"] as? Int, 360)
        let analysis = try XCTUnwrap((creative["facts"] as? [String: Any])?["analysis"] as? [String: Any])
        XCTAssertEqual(analysis["video_frames"] as? Int, 75)
        XCTAssertNotNil(analysis["integrated_loudness"] as? Double)
    }

    func testASpecFileAndItsMistakes() throws {
        let ad = try Self.portraitAd()
        let spec = try Fixtures.write(
            "team-spec.json",
            Data(
                """
                {"name": "team", "extends": "launch-ad", "rules": {"duration": {"max": 2}, "audio_sample_rate": {"allowed": [44100], "warn": [48000]}}}
                """.utf8))
        let r = try Launchad.run(["validate", ad, "--spec", spec])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stdout.contains("(team: 8 pass, 1 warn, 1 fail)"), r.stdout)
        XCTAssertTrue(r.stdout.range(of: #"warn  audio_sample_rate +48000 Hz"#, options: .regularExpression) != nil, r.stdout)

        let bad = try Fixtures.write("bad-spec.json", Data(#"{"rules": {"loudness": {"max": -20}}}"#.utf8))
        let b = try Launchad.run(["validate", ad, "--spec", bad])
        XCTAssertEqual(b.status, 2)
        assertOneLine(b.stderr, contains: "unknown rule 'loudness'")
        // A limit that cannot mean anything for its rule is named with the rule.
        let malformed = try Fixtures.write(
            "malformed-spec.json", Data(#"{"extends": "iab-ctv", "rules": {"letterbox": {"max": "ten"}}}"#.utf8))
        let m = try Launchad.run(["validate", ad, "--spec", malformed])
        XCTAssertEqual(m.status, 2)
        assertOneLine(m.stderr, contains: "rules.letterbox.max")
        let words = try Fixtures.write("words-spec.json", Data(#"{"rules": {"colour_tags": {"min": 1}}}"#.utf8))
        let w = try Launchad.run(["validate", ad, "--spec", words])
        XCTAssertEqual(w.status, 2)
        assertOneLine(w.stderr, contains: "rules.colour_tags: 'min' needs a number")
        let missing = try Launchad.run(["validate", ad, "--spec", "/nonexistent/spec.json"])
        XCTAssertEqual(missing.status, 2)
        assertOneLine(missing.stderr, contains: "cannot read /nonexistent/spec.json")
    }

    func testUsageMistakesExitTwoWithOneLine() throws {
        for (args, text) in [
            (["validate"], "needs at least one FILE"), (["validate", "a.mp4", "--profile", "tv"], "--profile takes one of"),
            (["validate", "a.mp4", "--format", "pdf"], "--format takes one of")
        ] {
            let r = try Launchad.run(args)
            XCTAssertEqual(r.status, 2, "\(args)")
            assertOneLine(r.stderr, contains: text)
        }
    }

    func testBadFilesGiveACleanFailingReportNeverACrashOrAHang() throws {
        let good = try Data(contentsOf: URL(fileURLWithPath: try Self.portraitAd()))
        var damaged = good
        for i in stride(from: damaged.count / 3, to: damaged.count - 64, by: damaged.count / 25) {
            for j in 0..<24 { damaged[i + j] = UInt8((i + j * 37) & 0xff) }
        }
        let slow = try Fixtures.make("validate-slow.mp4", ["-i", try Self.portraitAd(), "-c", "copy"])
        let slowData = try Data(contentsOf: URL(fileURLWithPath: slow))
        let cases: [(String, String)] = [
            (try Fixtures.write("v-empty.mp4", Data()), "is empty"),
            (try Fixtures.write("v-text.mp4", Data("not a video\n".utf8)), "Invalid data found"),
            (try Fixtures.write("v-noise.mp4", Data((0..<30_000).map { UInt8(($0 * 7919) & 0xff) })), "not a media file"),
            (try Fixtures.write("v-cut.mp4", good.prefix(good.count / 2)), "cut short"),
            (try Fixtures.write("v-cut-slow.mp4", slowData.prefix(slowData.count / 2)), "no moov box"),
            (try Fixtures.write("v-damaged.mp4", damaged), "decode_errors"),
            ("/nonexistent/ad.mp4", "no such file")
        ]
        for (path, reason) in cases {
            let r = try Launchad.run(["validate", path])
            XCTAssertEqual(r.status, 1, "\(path): \(r.stdout) \(r.stderr)")
            XCTAssertTrue(r.stdout.hasPrefix("FAIL  \(path)"), r.stdout)
            XCTAssertTrue(r.stdout.contains(reason), "\(path) should say '\(reason)': \(r.stdout)")
            XCTAssertLessThan(r.seconds, 20, "\(path) took \(r.seconds) s")
        }
    }

    /// `--output` never replaces what is not a regular file (as `--output /dev/stdout` must not
    /// replace /dev/stdout): a FIFO stays a FIFO and its reader gets the report. A symlink to a
    /// regular file stays a symlink; the report replaces its target.
    func testAnOutputThatIsAFIFOOrASymlinkIsWrittenThroughNotReplaced() throws {
        let ad = try Self.portraitAd()
        let dir = Fixtures.directory.appendingPathComponent("output-special-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("report.fifo").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let r = try Fixtures.run(
            "/bin/sh",
            [
                "-c", "timeout 20 cat \"$0\" > \"$0.out\" & \"$1\" validate \"$2\" --format json --output \"$0\"; s=$?; wait; exit $s",
                fifo, Launchad.binary, ad
            ], environment: Launchad.headlessEnvironment())
        XCTAssertEqual(r.status, 0, r.stderr)
        var st = stat()
        XCTAssertEqual(lstat(fifo, &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFIFO, "the FIFO was replaced by a file")
        XCTAssertTrue(try String(contentsOfFile: fifo + ".out", encoding: .utf8).contains("\"creatives\""))

        let target = dir.appendingPathComponent("target.json").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        let link = dir.appendingPathComponent("link.json").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        XCTAssertEqual(try Launchad.run(["validate", ad, "--format", "json", "--output", link]).status, 0)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link), target, "the link is still a link")
        XCTAssertTrue(try String(contentsOfFile: target, encoding: .utf8).contains("\"creatives\""))
    }

    func testAnUnwritableOutputIsOneLineExitTwoAndNothingHalfWritten() throws {
        let ad = try Self.portraitAd()
        let dir = Fixtures.directory.appendingPathComponent("output-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let notAFolder = try Fixtures.write("output-plain-file", Data("x".utf8))
        for format in ["html", "json"] {
            for path in ["/nonexistent/folder/report.html", dir.path, notAFolder + "/report.html"] {
                let r = try Launchad.run(["validate", ad, "--format", format, "--output", path])
                XCTAssertEqual(r.status, 2, "\(path): \(r.stderr)")
                assertOneLine(r.stderr, contains: "--output: cannot write \(path)")
                XCTAssertEqual(r.stdout, "")
            }
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), [], "nothing left in the folder")
        // A report replaces the one before it whole, and leaves no temporary file.
        let out = dir.appendingPathComponent("report.html").path
        try Data("old report".utf8).write(to: URL(fileURLWithPath: out))
        XCTAssertEqual(try Launchad.run(["validate", ad, "--format", "html", "--output", out]).status, 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["report.html"])
        let html = try String(contentsOfFile: out, encoding: .utf8)
        XCTAssertTrue(html.hasPrefix("<!DOCTYPE html>") && html.hasSuffix("</body></html>\n"))
    }

    /// The rules of a JSON report's first creative by name: (status, measured or reason).
    private func rules(_ stdout: String) throws -> [String: (status: String, text: String)] {
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any])
        let list = try XCTUnwrap((json["creatives"] as? [[String: Any]])?.first?["rules"] as? [[String: Any]])
        var out: [String: (String, String)] = [:]
        for r in list {
            out[r["rule"] as? String ?? ""] = (r["status"] as? String ?? "", (r["reason"] as? String) ?? "\(r["measured"] ?? "")")
        }
        return out
    }

    func testCreativesTheFiltersCannotAnalyseSkipEachQualityRuleWithTheReason() throws {
        let audioOnly = try Fixtures.make(
            "validate-audio-only.m4a", ["-f", "lavfi", "-i", "sine=sample_rate=48000:d=2", "-c:a", "aac", "-ac", "2"])
        let oneFrame = try Fixtures.make(
            "validate-one-frame.mp4",
            [
                "-f", "lavfi", "-i", "testsrc=s=320x240:r=25", "-frames:v", "1",
                "-c:v", "libx264", "-pix_fmt", "yuv420p"
            ])
        let eightK = try Fixtures.make(
            "validate-8k.mp4",
            [
                "-f", "lavfi", "-i", "testsrc=s=7680x4320:r=25:d=0.2", "-c:v", "libx264",
                "-preset", "ultrafast", "-pix_fmt", "yuv420p"
            ])
        let pictureRules = ["freeze_frames", "flashes", "interlaced", "letterbox", "broadcast_range"]
        let cases: [(String, [String], String)] = [
            (
                audioOnly, pictureRules + ["colour_tags", "keyframe_interval", "frame_rate", "av_duration_match", "video_bitrate_floor"],
                "no video stream"
            ),
            (oneFrame, pictureRules + ["frame_rate", "keyframe_interval"], "only 1 picture: too few to analyse"),
            (eightK, pictureRules, "7680x4320 is larger than 4096x2304: pictures not analysed"),
            (oneFrame, ["audio_phase", "dc_offset", "audio_clipping"], "no audio stream")
        ]
        for (path, skipped, reason) in cases {
            let r = try Launchad.run(["validate", path, "--profile", "iab-ctv", "--format", "json"])
            XCTAssertTrue([0, 1].contains(r.status), r.stderr)
            XCTAssertEqual(r.stderr, "")
            let found = try rules(r.stdout)
            for rule in skipped {
                XCTAssertEqual(found[rule]?.status, "skip", "\(path) \(rule): \(found[rule].map { "\($0)" } ?? "missing")")
                XCTAssertEqual(found[rule]?.text, reason, "\(path) \(rule)")
            }
            XCTAssertLessThan(r.seconds, 30, "\(path) took \(r.seconds) s")
        }
        // The text report says so in words, and counts the skips apart.
        let text = try Launchad.run(["validate", oneFrame, "--profile", "iab-ctv"])
        XCTAssertTrue(
            text.stdout.range(of: #"skip  flashes +only 1 picture: too few to analyse"#, options: .regularExpression) != nil, text.stdout)
        XCTAssertTrue(
            text.stdout.range(of: #"\(iab-ctv: \d+ pass, \d+ warn, \d+ fail, 11 skip\)"#, options: .regularExpression) != nil, text.stdout)
    }

    func testJobsCheckSeveralCreativesAtOnceAndKeepTheirOrder() throws {
        let files = [
            try Self.portraitAd(), try Fixtures.colourBars(seconds: 2), try Fixtures.write("jobs-empty.mp4", Data()),
            try Fixtures.colourBars(seconds: 3, size: "160x120")
        ]
        let one = try Launchad.run(["validate", "--jobs", "1", "--format", "json"] + files)
        let two = try Launchad.run(["validate", "--jobs", "2", "--format", "json"] + files)
        let many = try Launchad.run(["validate", "--format", "json"] + files)
        XCTAssertEqual(one.status, 1, "the empty file fails")
        XCTAssertEqual(two.status, one.status)
        XCTAssertEqual(two.stdout, one.stdout, "two at once report exactly what one at a time does, in the files' order")
        XCTAssertEqual(many.stdout, one.stdout)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(two.stdout.utf8)) as? [String: Any])
        XCTAssertEqual((json["creatives"] as? [[String: Any]])?.compactMap { $0["file"] as? String }, files)
        for bad in ["0", "x", "65"] {
            let r = try Launchad.run(["validate", "--jobs", bad, files[0]])
            XCTAssertEqual(r.status, 2)
            assertOneLine(r.stderr, contains: "--jobs")
        }
    }

    /// On a terminal one bar covers the whole run; in a pipe there is none (the other tests' empty stderr).
    func testOneProgressBarOnATerminalForAllTheCreatives() throws {
        let files = [try Self.portraitAd(), try Fixtures.colourBars(seconds: 2)]
        let command = ([Launchad.binary, "validate", "--jobs", "2"] + files).map { "'\($0)'" }.joined(separator: " ")
        // script(1) gives the run a terminal; its output is what that terminal showed.
        let r = try Fixtures.run("/usr/bin/script", ["-qec", command + " >/dev/null", "/dev/null"])
        XCTAssertEqual(r.status, 1, "the colour bars are not portrait: \(r.stdout)")
        XCTAssertTrue(r.stdout.contains("2/2 checked  [############################] 100%"), r.stdout)
        XCTAssertTrue(r.stdout.contains("\r\u{1B}[2K"), "drawn in place")
    }

    func testTheProgressOfSeveralCreativesAddsUp() throws {
        let pipe = Pipe()
        let progress = ValidateProgress(["a.mp4", "b.mp4"], output: pipe.fileHandleForWriting)
        progress.update(0, 1)
        progress.update(1, 1)
        progress.finish()
        try pipe.fileHandleForWriting.close()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(text.hasSuffix("2/2 checked  [############################] 100%\n"), text)
    }
}
