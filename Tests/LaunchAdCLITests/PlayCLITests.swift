import Foundation
import LaunchAdTestSupport
import XCTest

/// `launchad play` as a user runs it: events on stdout, exit codes, one-line errors.
final class PlayCLITests: XCTestCase {
    func testTheSampleAdPlaysToTheEnd() throws {
        let run = try Launchad.run(["play", Fixtures.media("sample-ad.mp4"), "--transition", "none"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let names = run.events.compactMap { $0["event"] as? String }
        for expected in ["start", "window", "first_frame", "quartile", "complete", "end"] {
            XCTAssertTrue(names.contains(expected), "missing \(expected) in \(names)")
        }
        XCTAssertEqual(names.last, "end")
        XCTAssertEqual(names.filter { $0 == "end" }.count, 1)
        let start = try XCTUnwrap(run.events(named: "start").first)
        XCTAssertEqual(start["width"] as? Int, 720)
        XCTAssertEqual(start["height"] as? Int, 1280)
        XCTAssertEqual(start["has_audio"] as? Bool, true)
        XCTAssertEqual((start["duration"] as? Double) ?? 0, 5.5, accuracy: 0.05)
        let end = try XCTUnwrap(run.events(named: "end").first)
        XCTAssertEqual(end["outcome"] as? String, "completed")
        XCTAssertEqual(Double(end["shown_ms"] as? Int ?? 0), 5500, accuracy: 300)
        let firstFrame = try XCTUnwrap(run.events(named: "first_frame").first?["t_ms"] as? Int)
        XCTAssertLessThan(firstFrame, 3000)
    }

    /// The sample ad cut to 100 kB plays about 2.5 s of its 5.5 s: quartile 25 only, no 50 or
    /// 75 and no `complete`; `error` `media_truncated` with both lengths; outcome `error`, exit 1.
    func testATruncatedVideoClaimsOnlyWhatItShowed() throws {
        let whole = try Data(contentsOf: URL(fileURLWithPath: Fixtures.media("sample-ad.mp4")))
        let cut = try Fixtures.write("sample-ad-100kB.mp4", whole.prefix(100_000))
        let run = try Launchad.run(["play", cut, "--transition", "none"])
        XCTAssertEqual(run.status, 1, run.stdout)
        let names = run.events.compactMap { $0["event"] as? String }
        XCTAssertFalse(names.contains("complete"), "\(names)")
        let error = try XCTUnwrap(run.events(named: "error").first)
        XCTAssertEqual(error["code"] as? String, "media_truncated")
        XCTAssertEqual(error["declared_ms"] as? Int, 5500)
        let shown = try XCTUnwrap(error["shown_ms"] as? Int)
        XCTAssertLessThan(shown, 4000)
        // Only quartiles whose moment the shown time passed.
        let quartiles = run.events(named: "quartile").compactMap { $0["quartile"] as? Int }
        XCTAssertEqual(quartiles, [25, 50, 75].filter { shown >= 5500 * $0 / 100 })
        XCTAssertEqual(run.events.last?["outcome"] as? String, "error")
    }

    func testEventsFileTakesTheEventsInsteadOfStdout() throws {
        let clip = try Fixtures.colourBars(seconds: 1, audio: false)
        let path = Fixtures.directory.appendingPathComponent("events-\(UUID().uuidString).jsonl").path
        let run = try Launchad.run(["play", clip, "--events", path])
        XCTAssertEqual(run.status, 0)
        XCTAssertTrue(run.stdout.isEmpty)
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        XCTAssertTrue(lines.last?.contains("\"event\":\"end\"") ?? false)
        XCTAssertTrue(lines.allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) != nil })
    }

    /// `--events` writes into what the path names and never replaces it: a FIFO stays a FIFO and its
    /// reader gets the events (as `--events /dev/null` must leave /dev/null a device).
    func testEventsFileIsWrittenInPlaceNotReplaced() throws {
        let clip = try Fixtures.colourBars(seconds: 1, audio: false)
        let fifo = Fixtures.directory.appendingPathComponent("events-\(UUID().uuidString).fifo").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        defer { unlink(fifo) }
        let r = try Fixtures.run(
            "/bin/sh",
            [
                "-c", "timeout 20 cat \"$0\" > \"$0.out\" & \"$1\" play \"$2\" --events \"$0\"; s=$?; wait; exit $s",
                fifo, Launchad.binary, clip
            ], environment: Launchad.headlessEnvironment())
        defer { unlink(fifo + ".out") }
        XCTAssertEqual(r.status, 0, r.stderr)
        var st = stat()
        XCTAssertEqual(lstat(fifo, &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFIFO, "the FIFO was replaced by a file")
        let read = try String(contentsOfFile: fifo + ".out", encoding: .utf8)
        XCTAssertTrue(read.contains("\"event\":\"end\""), read)
    }

    /// `--events -` is stdout, not a file named `-`.
    func testEventsDashIsStdout() throws {
        let dir = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("launchad-dash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let clip = try Fixtures.colourBars(seconds: 1, audio: false)
        let r = try Fixtures.run(
            "/bin/sh", ["-c", "cd \"$0\" && exec \"$1\" play \"$2\" --events -", dir.path, Launchad.binary, clip],
            environment: Launchad.headlessEnvironment())
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("\"event\":\"end\""), r.stdout)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), [])
    }

    /// Options given but not used are said on stderr: `--logo` without `--layout logo-bottom`,
    /// `--duration` on a video (without a fallback); not `--duration` on an image.
    func testUnusedOptionsAreSaid() throws {
        let clip = try Fixtures.colourBars(seconds: 1, audio: false)
        let video = try Launchad.run(["play", clip, "--duration", "2", "--logo", Fixtures.media("logo.png")])
        XCTAssertEqual(video.status, 0, video.stderr)
        XCTAssertEqual(
            video.stderr,
            "launchad: --logo is drawn only with --layout logo-bottom; ignored\n"
                + "launchad: --duration applies to images and the fallback; this video lasts its own length (--max-duration caps it)\n")
        let image = try Launchad.run(["play", try Fixtures.write("note-red.png", try Fixtures.solidPNG("red")), "--duration", "0.3"])
        XCTAssertEqual(image.stderr, "")
    }

    func testMissingFileIsAnErrorEventAndNoAd() throws {
        let run = try Launchad.run(["play", "/nonexistent/ad.mp4"])
        XCTAssertEqual(run.status, 3)
        XCTAssertLessThan(run.seconds, 3)
        let errors = run.events(named: "error")
        XCTAssertEqual(errors.count, 1)
        XCTAssertEqual(errors.first?["code"] as? String, "file_not_found")
        XCTAssertEqual(
            errors.first?["message"] as? String, "cannot read /nonexistent/ad.mp4: no such file", "FileProblem's words, as every command")
        XCTAssertEqual(run.events(named: "end").first?["outcome"] as? String, "no_ad")
    }

    func testAFileThatIsNotMedia() throws {
        let path = try Fixtures.write("not-media.mp4", Data("this is a text file, not a video\n".utf8))
        let run = try Launchad.run(["play", path])
        XCTAssertEqual(run.status, 3)
        XCTAssertLessThan(run.seconds, 3)
        XCTAssertEqual(run.events(named: "error").first?["code"] as? String, "not_media")
        XCTAssertEqual(run.events(named: "end").count, 1)
    }

    func testAnUndecodableImageIsNeverAnnounced() throws {
        // A PNG signature followed by noise: the image demuxer accepts it, the decoder does not.
        var bytes = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        bytes.append(Data((0..<4000).map { UInt8(($0 * 131 + 7) & 0xff) }))
        let path = try Fixtures.write("noise-after-signature.png", bytes)
        let run = try Launchad.run(["play", path])
        XCTAssertEqual(run.status, 3)
        XCTAssertTrue(run.events(named: "start").isEmpty, "no start event for a creative that never shows")
        XCTAssertEqual(run.events(named: "error").count, 1)
        XCTAssertEqual(run.events(named: "end").first?["outcome"] as? String, "no_ad")
    }

    func testAFileWithNoVideoStream() throws {
        let audio = try Fixtures.make("audio-only.m4a", ["-f", "lavfi", "-i", "sine=d=1", "-c:a", "aac"])
        let run = try Launchad.run(["play", audio])
        XCTAssertEqual(run.status, 3)
        XCTAssertEqual(run.events(named: "error").first?["code"] as? String, "no_video_stream")
    }

    func testUsageErrorsExitTwoWithOneLine() throws {
        for args in [
            ["play"], ["play", "a.mp4", "--bogus"], ["play", "a.mp4", "--link", "ftp://x.example/"],
            ["play", "a.mp4", "--size", "0x0"], ["frobnicate"], []
        ] {
            let run = try Launchad.run(args)
            XCTAssertEqual(run.status, 2, "\(args)")
            XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, "\(args): \(run.stderr)")
            XCTAssertTrue(run.stdout.isEmpty)
        }
    }

    func testEverySubcommandAnswersHelp() throws {
        for command in ["play", "launch", "prefetch", "probe", "validate", "snapshot"] {
            let run = try Launchad.run([command, "--help"])
            XCTAssertEqual(run.status, 0, command)
            XCTAssertTrue(run.stdout.contains("usage: launchad \(command)"), command)
        }
    }

    func testDeviceWindowKeepsThePhoneShape() throws {
        let clip = try Fixtures.colourBars(seconds: 1, audio: false)
        let run = try Launchad.run(["play", clip, "--device", "iphone-8"])
        XCTAssertEqual(run.status, 0)
        let window = try XCTUnwrap(run.events(named: "window").first)
        let w = Double(window["width"] as? Int ?? 0), h = Double(window["height"] as? Int ?? 0)
        XCTAssertEqual(w / h, 750.0 / 1334.0, accuracy: 0.01)
    }

    func testFirstFrameDeadlineGivesTimeoutOrTheFallback() throws {
        // A FIFO nobody writes to: opening it never completes, like a stalled network source.
        let fifo = Fixtures.directory.appendingPathComponent("stalled-\(UUID().uuidString).mp4").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        defer { unlink(fifo) }
        let timedOut = try Launchad.run(["play", fifo, "--wait", "1"])
        XCTAssertEqual(timedOut.status, 3)
        XCTAssertEqual(timedOut.events(named: "end").first?["outcome"] as? String, "timeout")
        XCTAssertLessThan(timedOut.seconds, 4)

        let png = try Fixtures.make("fallback-red.png", ["-f", "lavfi", "-i", "color=c=red:s=90x160", "-frames:v", "1"])
        let fellBack = try Launchad.run(["play", fifo, "--wait", "1", "--fallback", png, "--duration", "1"])
        XCTAssertEqual(fellBack.status, 0)
        XCTAssertEqual(fellBack.events(named: "fallback").first?["reason"] as? String, "first_frame_timeout")
        XCTAssertEqual(fellBack.events(named: "end").first?["outcome"] as? String, "completed")
    }
}
