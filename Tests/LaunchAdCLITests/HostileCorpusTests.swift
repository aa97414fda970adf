import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

/// The hostile-creatives corpus (scripts/make-hostile-corpus.sh), made once per machine and
/// remade when the script changes.
enum HostileCorpus {
    static let folder = Result<URL, Error> {
        let script = Fixtures.repoRoot.appendingPathComponent("scripts/make-hostile-corpus.sh")
        let key = SHA256.hex(of: try Data(contentsOf: script)).prefix(12)
        let dir = Fixtures.directory.appendingPathComponent("hostile-\(key)")
        if FileManager.default.fileExists(atPath: dir.path) { return dir }
        let part = Fixtures.directory.appendingPathComponent("hostile-\(key).part\(getpid())")
        try? FileManager.default.removeItem(at: part)
        let made = try Fixtures.run("/bin/bash", [script.path, part.path])
        guard made.status == 0 else { throw FixtureError("make-hostile-corpus.sh failed: \(made.stderr)") }
        do { try FileManager.default.moveItem(at: part, to: dir) } catch { try? FileManager.default.removeItem(at: part) }
        return dir
    }

    static func file(_ name: String) throws -> String { try folder.get().appendingPathComponent(name).path }
    static func names() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: folder.get().path).sorted() }
}

/// Every file of the corpus played headless through the binary: it plays at the right size
/// (rotation and pixel aspect applied) for its length, or ends at once with no_ad and an error
/// saying why; within its duration plus 2 seconds; with exactly one `end`; never a crash.
final class HostileCorpusTests: XCTestCase {
    enum Expect {
        /// Plays to the end, shown at this size (after rotation and pixel aspect) for about `seconds`.
        case plays(Int, Int, seconds: Double, kind: String = "video")
        /// Plays what can be read (damaged): completed, shown for at most `seconds`.
        case playsPart(Int, Int, seconds: Double)
        /// Plays, heavy (an 8192x8192 picture is decoded twice, probed then shown): only the
        /// outcome and a time bound of its duration plus 2.5 s (debug build) are promised.
        case playsSlowly(Int, Int, seconds: Double, kind: String = "video")
        /// Not playable: no_ad, an error with this code.
        case noAd(String)
    }

    static let expected: [String: Expect] = [
        "good.mp4": .plays(160, 120, seconds: 1),
        "moov-at-end.mp4": .plays(160, 120, seconds: 1),
        "truncated.mp4": .playsPart(160, 120, seconds: 1),
        "truncated-no-moov.mp4": .noAd("not_media"),
        "corrupt-middle.mp4": .playsPart(160, 120, seconds: 1),
        "zero-bytes.mp4": .noAd("not_media"),
        "random-bytes.mp4": .noAd("not_media"),
        "random-bytes.png": .noAd("decode_failed"),
        "header-then-noise.mp4": .noAd("no_video_stream"),
        "fuzz-broken.gif": .noAd("not_media"),
        "png-named.mp4": .plays(160, 120, seconds: 1, kind: "image"),
        "mp4-named.png": .plays(160, 120, seconds: 1),
        "mpegts-named.mp4": .plays(160, 120, seconds: 1),
        "audio-only-aac.mp4": .noAd("no_video_stream"),
        "audio-with-cover.mp4": .noAd("no_video_stream"),
        "h264-10bit.mp4": .plays(160, 120, seconds: 1),
        "h264-10bit-full-range.mp4": .plays(160, 120, seconds: 1),
        "hevc-10bit.mp4": .plays(160, 120, seconds: 1),
        "hevc.mp4": .plays(160, 120, seconds: 1),
        "hevc-full-range.mp4": .plays(160, 120, seconds: 1),
        "vp9.mp4": .plays(160, 120, seconds: 1),
        "vp9-full-range.mp4": .plays(160, 120, seconds: 1),
        "yuvj420p-full-range.mp4": .plays(160, 120, seconds: 1),
        "limited-range-levels.mp4": .plays(160, 120, seconds: 1),
        "h264-yuv444.mp4": .plays(160, 120, seconds: 1),
        "prores.mov": .plays(160, 120, seconds: 1),
        "odd-321x241.mp4": .plays(321, 241, seconds: 1),
        "odd-321x241-h264.mp4": .plays(321, 241, seconds: 1),
        "rotate-90.mp4": .plays(96, 160, seconds: 1),
        "rotate-180.mp4": .plays(160, 96, seconds: 1),
        "rotate-270.mp4": .plays(96, 160, seconds: 1),
        "sar-4-3.mp4": .plays(213, 120, seconds: 1),
        "huge-8192.mp4": .playsSlowly(8192, 8192, seconds: 1),
        "huge-8192.png": .playsSlowly(8192, 8192, seconds: 1, kind: "image"),
        "sliver-16x1024.mp4": .plays(16, 1024, seconds: 1),
        "size-change.ts": .plays(160, 120, seconds: 1),
        "vfr.mp4": .plays(160, 120, seconds: 0.92),
        "audio-5.1.mp4": .plays(160, 120, seconds: 1),
        "audio-mono-22k.mp4": .plays(160, 120, seconds: 1),
        "audio-longer-than-video.mp4": .plays(160, 120, seconds: 2),
        "video-longer-than-audio.mp4": .plays(160, 120, seconds: 2),
        "bframes-edit-list.mp4": .plays(160, 120, seconds: 1.2),
        "late-start.ts": .plays(160, 120, seconds: 1),
        "single-frame.mp4": .plays(160, 120, seconds: 0.04),
        "many-streams.mp4": .plays(160, 120, seconds: 1),
        "animated.gif": .plays(160, 120, seconds: 1),
        "alpha.png": .plays(160, 120, seconds: 1, kind: "image"),
        "progressive.jpg": .plays(160, 120, seconds: 1, kind: "image"),
        "cmyk.jpg": .plays(160, 120, seconds: 1, kind: "image")
    ]

    func play(_ file: String, _ extra: [String] = [], environment: [String: String]? = nil) throws -> Launchad.Run {
        try Self.play(file, extra, environment: environment)
    }

    static func play(_ file: String, _ extra: [String] = [], environment: [String: String]? = nil) throws -> Launchad.Run {
        try Launchad.run(["play", file, "--size", "240x240", "--transition", "none", "--duration", "1"] + extra, environment: environment)
    }

    /// The corpus file `name` played: a huge picture is given the time its CPU-bound decode takes
    /// on a loaded 2-core machine (up to 4 s) before its first frame is late.
    func play(corpus name: String, environment: [String: String]? = nil) throws -> Launchad.Run {
        try Self.play(corpus: name, environment: environment)
    }

    static func play(corpus name: String, environment: [String: String]? = nil) throws -> Launchad.Run {
        let slow = { if case .playsSlowly? = Self.expected[name] { return true } else { return false } }()
        return try play(try HostileCorpus.file(name), slow ? ["--wait", "8"] : [], environment: environment)
    }

    /// Every corpus file with an expectation played, three at a time (each run mostly waits on its
    /// one-second clock; the whole corpus one by one took a minute), a huge picture alone after
    /// the rest, since its decode wants the CPU; in the corpus's order.
    func playAll(environment: [String: String]? = nil) throws -> [(name: String, run: Launchad.Run)] {
        let names = try HostileCorpus.names().filter { Self.expected[$0] != nil }
        let slow = Set(names.filter { if case .playsSlowly? = Self.expected[$0] { return true } else { return false } })
        let results = Locked<[String: Result<Launchad.Run, any Error>]>([:])
        let quick = names.filter { !slow.contains($0) }
        let lanes = 3
        DispatchQueue.concurrentPerform(iterations: lanes) { lane in
            for name in quick.enumerated().filter({ $0.offset % lanes == lane }).map(\.element) {
                let r = Result { try Self.play(corpus: name, environment: environment) }
                results.withLock { $0[name] = r }
            }
        }
        for name in slow {
            let r = Result { try Self.play(corpus: name, environment: environment) }
            results.withLock { $0[name] = r }
        }
        let all = results.withLock { $0 }
        return try names.map { ($0, try all[$0]!.get()) }
    }

    /// Exit 0, 1 or 3 (never a signal or a Swift trap), exactly one `end`, and it is the last event.
    func assertDefinedEnd(_ run: Launchad.Run, _ name: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue([0, 1, 3].contains(run.status), "\(name): exit \(run.status) \(run.stderr)", file: file, line: line)
        for crash in ["Fatal error", "Segmentation fault", "Illegal instruction", "AddressSanitizer", "Aborted"] {
            XCTAssertFalse(run.stderr.contains(crash), "\(name): \(run.stderr)", file: file, line: line)
        }
        XCTAssertEqual(run.events(named: "end").count, 1, "\(name): \(run.stdout)", file: file, line: line)
        XCTAssertEqual(run.events.last?["event"] as? String, "end", "\(name): \(run.stdout)", file: file, line: line)
        let outcome = run.events.last?["outcome"] as? String
        let code: Int32 = ["completed": 0, "error": 1, "no_ad": 3][outcome ?? ""] ?? -1
        XCTAssertEqual(run.status, code, "\(name): the exit code is the outcome's (\(outcome ?? "none"))", file: file, line: line)
    }

    func testEveryCorpusFileHasAnExpectation() throws {
        XCTAssertEqual(
            Set(try HostileCorpus.names()), Set(Self.expected.keys),
            "the corpus script and this table list the same files")
    }

    func testTheWholeCorpusPlaysOrEndsWithADefinedOutcome() throws {
        for (name, run) in try playAll() {
            guard let expect = Self.expected[name] else { continue }  // reported by the test above
            assertDefinedEnd(run, name)
            let start = run.events(named: "start").first
            let end = run.events(named: "end").first
            let shown = Double(end?["shown_ms"] as? Int ?? -1) / 1000
            switch expect {
            case .plays(let w, let h, let seconds, let kind), .playsSlowly(let w, let h, let seconds, let kind):
                XCTAssertEqual(end?["outcome"] as? String, "completed", "\(name): \(run.stdout)")
                XCTAssertEqual(start?["width"] as? Int, w, "\(name): displayed width")
                XCTAssertEqual(start?["height"] as? Int, h, "\(name): displayed height")
                XCTAssertEqual(start?["kind"] as? String, kind, name)
                XCTAssertEqual(run.events(named: "first_frame").count, 1, name)
                // A huge picture's decode is CPU-bound: on a loaded 2-core machine it has taken 4 s,
                // and 6.9 s with the suite's other shards beside it (the bound catches a hang).
                let slack = { if case .playsSlowly = expect { return 10.0 } else { return 2.0 } }()
                XCTAssertLessThan(run.seconds, seconds + slack, "\(name): within its duration plus \(slack) s")
                if case .plays = expect {
                    XCTAssertEqual(shown, seconds, accuracy: 0.3, "\(name): shown for its length")
                    XCTAssertEqual(run.events(named: "render_error").count, 0, "\(name): \(run.stdout)")
                }
            case .playsPart(let w, let h, let seconds):
                // Completed only if it showed (nearly) all of its declared length; otherwise an
                // `error` media_truncated, and never a `complete`.
                let declared = start?["duration"] as? Double ?? 0
                if shown + 0.5 >= declared {
                    XCTAssertEqual(end?["outcome"] as? String, "completed", "\(name): \(run.stdout)")
                } else {
                    XCTAssertEqual(end?["outcome"] as? String, "error", "\(name): \(run.stdout)")
                    XCTAssertEqual(run.events(named: "error").first?["code"] as? String, "media_truncated", "\(name): \(run.stdout)")
                    XCTAssertEqual(run.events(named: "complete").count, 0, "\(name): \(run.stdout)")
                }
                XCTAssertEqual(start?["width"] as? Int, w, name)
                XCTAssertEqual(start?["height"] as? Int, h, name)
                XCTAssertGreaterThan(shown, 0.1, "\(name): what could be read was shown")
                XCTAssertLessThan(shown, seconds + 0.3, name)
                XCTAssertLessThan(run.seconds, seconds + 2, "\(name): within its duration plus 2 s")
            case .noAd(let code):
                XCTAssertEqual(end?["outcome"] as? String, "no_ad", "\(name): \(run.stdout)")
                XCTAssertEqual(run.events(named: "error").first?["code"] as? String, code, "\(name): \(run.stdout)")
                XCTAssertFalse((run.events(named: "error").first?["message"] as? String ?? "").isEmpty, name)
                XCTAssertEqual(run.events(named: "first_frame").count, 0, name)
                XCTAssertLessThan(run.seconds, 2, "\(name): ends at once")
            }
        }
    }

    /// With a fallback image, every unplayable file gives way to it: a `fallback` event with the
    /// reason, and the fallback is shown for its duration.
    func testUnplayableFilesFallBackToTheImage() throws {
        let fallback = try HostileCorpus.file("progressive.jpg")
        for case let (name, .noAd(code)) in Self.expected.sorted(by: { $0.key < $1.key }) {
            let run = try play(try HostileCorpus.file(name), ["--fallback", fallback])
            assertDefinedEnd(run, name)
            XCTAssertEqual(run.events(named: "fallback").first?["reason"] as? String, code, "\(name): \(run.stdout)")
            XCTAssertEqual(run.events(named: "first_frame").first?["fallback"] as? Bool, true, name)
            XCTAssertEqual(run.events.last?["outcome"] as? String, "completed", name)
            XCTAssertLessThan(run.seconds, 3, "\(name): the fallback's 1 s, plus 2 s")
        }
    }

    /// `probe` reads the corpus too: never a crash, a JSON answer or a one-line error.
    func testProbeNeverCrashesOnTheCorpus() throws {
        for name in try HostileCorpus.names() {
            let run = try Launchad.run(["probe", try HostileCorpus.file(name)])
            XCTAssertTrue([0, 1].contains(run.status), "\(name): exit \(run.status) \(run.stderr)")
            if run.status == 0 {
                XCTAssertNotNil(try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8)), "\(name): \(run.stdout)")
            } else {
                XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, "\(name): \(run.stderr)")
            }
        }
    }
}
