import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

@testable import LaunchAdMedia

/// The analysis pass against signals made for it and against the ffmpeg CLI's own figures.
final class AnalysisTests: XCTestCase {
    /// FFmpeg's own log off, as the commands have it: damaged fixtures would fill the test output.
    override func setUp() { MediaLog.configure() }

    private func analyse(_ path: String) throws -> CreativeFacts { try CreativeAnalyzer(path: path).run() }

    /// What `ffmpeg -i FILE -af ebur128=peak=true,silencedetect -vf blackdetect -f null -` prints.
    private struct CLIFigures {
        var integrated: Double?, range: Double?, truePeak: Double?
        var black: [Interval] = [], silence: [Interval] = []
    }

    private func ffmpegFigures(_ path: String, video: Bool = true) throws -> CLIFigures {
        var args = ["-hide_banner", "-nostats", "-i", path, "-af", "ebur128=peak=true,silencedetect"]
        args += video ? ["-vf", "blackdetect"] : []
        let r = try Fixtures.run("/usr/bin/ffmpeg", args + ["-f", "null", "-"])
        var f = CLIFigures()
        var silenceStart: Double?
        func number(after key: String, in line: Substring) -> Double? {
            guard let range = line.range(of: key) else { return nil }
            return Double(line[range.upperBound...].trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "")
        }
        for line in r.stderr.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("I:") { f.integrated = number(after: "I:", in: line) }
            if trimmed.hasPrefix("LRA:") { f.range = number(after: "LRA:", in: line) }
            if trimmed.hasPrefix("Peak:") { f.truePeak = number(after: "Peak:", in: line) }
            if let s = number(after: "black_start:", in: line), let e = number(after: "black_end:", in: line) {
                f.black.append(Interval(s, e))
            }
            if let s = number(after: "silence_start: ", in: line) { silenceStart = s }
            if let e = number(after: "silence_end: ", in: line), let s = silenceStart { f.silence.append(Interval(s, e)) }
        }
        return f
    }

    private func assertSame(
        _ a: [Interval], _ b: [Interval], accuracy: Double, _ what: String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(a.count, b.count, "\(what): \(a) vs ffmpeg \(b)", file: file, line: line)
        for (x, y) in zip(a, b) {
            XCTAssertEqual(x.start, y.start, accuracy: accuracy, "\(what) start", file: file, line: line)
            XCTAssertEqual(x.end, y.end, accuracy: accuracy, "\(what) end", file: file, line: line)
        }
    }

    func testSineAtMinus23dBFSOnBothChannelsReadsMinus23LUFS() throws {
        // 10^(-23/20) = 0.0707946: a 1 kHz sine peaking at -23 dBFS, in both channels, uncompressed.
        let sine = try Fixtures.make(
            "sine-23dbfs.wav",
            [
                "-f", "lavfi", "-i", "aevalsrc=0.0707946*sin(2*PI*1000*t)|0.0707946*sin(2*PI*1000*t):s=48000:d=5", "-c:a", "pcm_s16le"
            ])
        let a = try analyse(sine).analysis
        XCTAssertEqual(try XCTUnwrap(a.integratedLoudness), -23.0, accuracy: 0.1)
        XCTAssertEqual(try XCTUnwrap(a.truePeak), -23.0, accuracy: 0.1)
        XCTAssertEqual(try XCTUnwrap(a.loudnessRange), 0, accuracy: 0.1)
        XCTAssertEqual(a.silence, [])
        XCTAssertEqual(a.decodeErrors, [])
        XCTAssertNil(a.firstFrameBlack, "no video, no first picture")
    }

    func testLoudnessMatchesTheFFmpegCLI() throws {
        // Pink noise that gets louder halfway, so range and peak are not trivial; AAC in MP4 as delivered.
        let clip = try Fixtures.make(
            "loudness-steps.mp4",
            [
                "-f", "lavfi", "-i", "anoisesrc=color=pink:amplitude=0.25:seed=7:d=8:r=48000",
                "-af", "volume='if(lt(t,4),0.3,1)':eval=frame", "-c:a", "aac", "-b:a", "128k", "-ac", "2"
            ])
        let ours = try analyse(clip).analysis
        let cli = try ffmpegFigures(clip, video: false)
        XCTAssertEqual(try XCTUnwrap(ours.integratedLoudness), try XCTUnwrap(cli.integrated), accuracy: 0.1)
        XCTAssertEqual(try XCTUnwrap(ours.loudnessRange), try XCTUnwrap(cli.range), accuracy: 0.1)
        XCTAssertEqual(try XCTUnwrap(ours.truePeak), try XCTUnwrap(cli.truePeak), accuracy: 0.1)
        XCTAssertGreaterThan(try XCTUnwrap(ours.loudnessRange), 3, "the step shows as loudness range")
    }

    func testBlackAndSilenceMatchTheFFmpegCLI() throws {
        // Black 2.5 s, pictures 2 s, black 2.5 s; silence 3 s, a tone 1.5 s, silence 2.5 s.
        let clip = try Fixtures.make(
            "black-silence.mp4",
            [
                "-f", "lavfi", "-i", "color=black:s=320x240:r=25:d=2.5", "-f", "lavfi", "-i", "testsrc2=s=320x240:r=25:d=2",
                "-f", "lavfi", "-i", "color=black:s=320x240:r=25:d=2.5",
                "-f", "lavfi", "-i", "anullsrc=r=48000:cl=stereo:d=3", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:d=1.5",
                "-f", "lavfi", "-i", "anullsrc=r=48000:cl=stereo:d=2.5",
                "-filter_complex",
                "[0:v][1:v][2:v]concat=n=3:v=1:a=0[v];[4:a]aformat=channel_layouts=stereo[t];[3:a][t][5:a]concat=n=3:v=0:a=1[a]",
                "-map", "[v]", "-map", "[a]", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", "-movflags", "+faststart"
            ])
        let facts = try analyse(clip)
        let cli = try ffmpegFigures(clip)
        XCTAssertEqual(cli.black.count, 2, "the fixture has two black runs")
        XCTAssertEqual(cli.silence.count, 2, "the fixture has two silent runs")
        assertSame(facts.analysis.black, cli.black, accuracy: 0.001, "black")
        assertSame(facts.analysis.silence, cli.silence, accuracy: 0.001, "silence")
        XCTAssertEqual(facts.analysis.firstFrameBlack, true)
        XCTAssertEqual(facts.analysis.decodeErrors, [])
        // And the rules see them at both ends.
        let report = CreativeReport.evaluate(facts, against: .iabCTV)
        for rule in ["black_at_start", "black_at_end", "silence_at_start", "silence_at_end"] {
            XCTAssertEqual(report.results.first { $0.rule == rule }?.status, .fail, rule)
        }
        let launch = CreativeReport.evaluate(facts, against: .launchAd)
        XCTAssertEqual(launch.results.first { $0.rule == "first_frame_black" }?.status, .fail)
    }

    func testTimesCountFromTheStartOfTheFileAsTheCLIDoes() throws {
        // MPEG-TS starts its clock at about 1.4 s; reported times start at 0 all the same.
        let ts = try Fixtures.make(
            "black-silence.ts",
            [
                "-f", "lavfi", "-i", "color=black:s=160x120:r=25:d=2.5", "-f", "lavfi", "-i", "testsrc2=s=160x120:r=25:d=1",
                "-f", "lavfi", "-i", "anullsrc=r=48000:cl=stereo:d=2.5", "-f", "lavfi", "-i", "sine=sample_rate=48000:d=1",
                "-filter_complex", "[0:v][1:v]concat=n=2:v=1:a=0[v];[3:a]aformat=channel_layouts=stereo[t];[2:a][t]concat=n=2:v=0:a=1[a]",
                "-map", "[v]", "-map", "[a]", "-c:v", "libx264", "-c:a", "mp2", "-f", "mpegts"
            ])
        let facts = try analyse(ts)
        let cli = try ffmpegFigures(ts)
        XCTAssertEqual(cli.black.count, 1)
        XCTAssertEqual(cli.silence.count, 1)
        XCTAssertLessThan(cli.black.first?.start ?? 9, 0.1)
        assertSame(facts.analysis.black, cli.black, accuracy: 0.001, "black")
        assertSame(facts.analysis.silence, cli.silence, accuracy: 0.001, "silence")
    }

    func testACleanFileDecodesEveryPictureWithoutErrors() throws {
        let clip = try Fixtures.colourBars(seconds: 3)
        let a = try analyse(clip).analysis
        XCTAssertEqual(a.decodeErrors, [])
        let r = try Fixtures.run(
            "/usr/bin/ffprobe",
            [
                "-v", "error", "-count_frames", "-select_streams", "v",
                "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", clip
            ])
        XCTAssertEqual(a.videoFrames, Int(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        XCTAssertEqual(a.firstFrameBlack, false)
        XCTAssertEqual(try XCTUnwrap(a.decodedUntil), 3, accuracy: 0.05)
    }

    func testDamagedPacketsAreCountedAndListedWithTheirTimes() throws {
        let clip = try Fixtures.colourBars(seconds: 4)
        var data = try Data(contentsOf: URL(fileURLWithPath: clip))
        // Overwrite 16-byte runs across the media (after the moov box at the front).
        var rng = SplitMix(seed: 42)
        for _ in 0..<40 {
            let at = data.count / 4 + Int(rng.next() % UInt64(data.count * 3 / 4 - 32))
            for i in 0..<16 { data[at + i] = UInt8(truncatingIfNeeded: rng.next()) }
        }
        let damaged = try Fixtures.write("damaged.mp4", data)
        let a = try analyse(damaged).analysis
        XCTAssertGreaterThan(a.decodeErrors.count, 0)
        for e in a.decodeErrors {
            XCTAssertFalse(e.message.isEmpty)
            if let t = e.seconds { XCTAssertTrue((0...4.1).contains(t), "\(e)") }
        }
        XCTAssertTrue(a.decodeErrors.contains { $0.seconds != nil }, "errors carry their timestamps")
    }

    func testACutShortFileSaysSo() throws {
        let clip = try Fixtures.colourBars(seconds: 4)
        let data = try Data(contentsOf: URL(fileURLWithPath: clip))
        let cut = try Fixtures.write("cut-faststart.mp4", data.prefix(data.count / 2))
        let a = try analyse(cut).analysis
        let last = try XCTUnwrap(a.decodeErrors.last)
        XCTAssertTrue(last.message.contains("cut short"), last.message)
        XCTAssertLessThan(try XCTUnwrap(last.seconds), 3.5)

        // Without faststart, the index is at the end: cutting it leaves nothing to open.
        let slow = try Fixtures.make("bars-slow.mp4", ["-i", clip, "-c", "copy"])
        let slowData = try Data(contentsOf: URL(fileURLWithPath: slow))
        let cutSlow = try Fixtures.write("cut-slow.mp4", slowData.prefix(slowData.count / 2))
        XCTAssertThrowsError(try analyse(cutSlow)) { e in
            XCTAssertTrue((e as? MediaError)?.message.contains("no moov box") == true, "\(e)")
        }
    }

    func testGarbageIsRefusedWithAReason() throws {
        var rng = SplitMix(seed: 7)
        let noise = try Fixtures.write("noise.mp4", Data((0..<20_000).map { _ in UInt8(truncatingIfNeeded: rng.next()) }))
        XCTAssertThrowsError(try analyse(noise)) { e in XCTAssertNotNil(e as? MediaError) }
        let empty = try Fixtures.write("empty.mp4", Data())
        XCTAssertThrowsError(try analyse(empty)) { e in XCTAssertEqual((e as? MediaError)?.message, "\(empty) is empty") }
    }
}

/// A small seeded generator, so damaged fixtures are the same on every run.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E3779B97F4A7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9
        z = (z ^ (z >> 27)) &* 0x94D049BB133111EB
        return z ^ (z >> 31)
    }
}
