import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

@testable import LaunchAdMedia

/// The quality filters against the ffmpeg CLI running the same graph on the same file: each clip is made
/// with one defect, the analysis must read what the CLI prints (its log and `metadata=print`), and the
/// rule must catch the defect. A clean clip passes every iab-ctv rule.
final class QualityAgreementTests: XCTestCase {
    override func setUp() { MediaLog.configure() }

    /// What the CLI reports for `path` with the analysis graph: its log lines and each frame's metadata.
    private struct CLIReadings {
        var log: [String] = []
        var pictures: [[String: String]] = []
        var sound: [[String: String]] = []
    }

    private func cli(_ path: String, video: Bool = true, audio: Bool = true) throws -> CLIReadings {
        let dir = Fixtures.directory.appendingPathComponent("cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let v = dir.appendingPathComponent("v.txt").path, a = dir.appendingPathComponent("a.txt").path
        var chains: [String] = [], maps: [String] = []
        if video { chains.append("[0:v]\(AnalysisGraph.videoFilters),metadata=print:file=\(v)[vout]"); maps += ["-map", "[vout]"] }
        if audio { chains.append("[0:a]\(AnalysisGraph.audioFilters),ametadata=print:file=\(a)[aout]"); maps += ["-map", "[aout]"] }
        let r = try Fixtures.run(
            "/usr/bin/ffmpeg",
            ["-hide_banner", "-nostats", "-i", path, "-filter_complex", chains.joined(separator: ";")]
                + maps + ["-f", "null", "-"])
        XCTAssertEqual(r.status, 0, r.stderr)
        var out = CLIReadings(log: r.stderr.split(separator: "\n").map(String.init))
        out.pictures = video ? try frames(v) : []
        out.sound = audio ? try frames(a) : []
        return out
    }

    /// `metadata=print`'s file: "frame:N pts:P pts_time:T" then key=value lines.
    private func frames(_ path: String) throws -> [[String: String]] {
        var list: [[String: String]] = []
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
            if line.hasPrefix("frame:") {
                var f: [String: String] = [:]
                if let t = line.split(separator: " ").first(where: { $0.hasPrefix("pts_time:") }) { f["pts_time"] = String(t.dropFirst(9)) }
                list.append(f)
            } else if let eq = line.firstIndex(of: "="), !list.isEmpty {
                list[list.count - 1][String(line[..<eq])] = String(line[line.index(after: eq)...])
            }
        }
        return list
    }

    private func number(after key: String, in line: String) -> Double? {
        guard let r = line.range(of: key) else { return nil }
        return Double(line[r.upperBound...].trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "")
    }

    /// Every reading of ours equals the CLI's: freezes, idet's totals, cropdetect's bounds, each picture's
    /// signalstats figures, each block's phase and astats' per-channel figures.
    private func assertAgreement(_ facts: CreativeFacts, _ c: CLIReadings, file: StaticString = #filePath, line: UInt = #line) {
        let s = facts.analysis.signal
        // freezedetect logs freeze_start, then freeze_duration and freeze_end when the picture moves again.
        var starts: [Double] = [], ends: [Double] = []
        for l in c.log {
            if let v = number(after: "freeze_start:", in: l) { starts.append(v) }
            if let v = number(after: "freeze_end:", in: l) { ends.append(v) }
        }
        // A freeze still open at the end is logged with its start only.
        XCTAssertEqual(s.freezes.count, starts.count, "freezes", file: file, line: line)
        let closed = s.freezes.prefix(ends.count)
        XCTAssertEqual(closed.map(\.start), Array(starts.prefix(ends.count)), "freeze starts", file: file, line: line)
        for (x, e) in zip(closed, ends) { XCTAssertEqual(x.end, e, accuracy: 1e-6, "freeze end", file: file, line: line) }
        // idet: "Multi frame detection: TFF: n BFF: n Progressive: n Undetermined: n", "Repeated Fields: Neither: n Top: n Bottom: n".
        let multi = c.log.last { $0.contains("Multi frame detection:") }, rep = c.log.last { $0.contains("Repeated Fields:") }
        XCTAssertEqual(multi != nil && rep != nil, !c.pictures.isEmpty, "idet's totals in the CLI's log", file: file, line: line)
        if let multi, let rep {
            let f = s.fields
            XCTAssertEqual(f?.tff, number(after: "TFF:", in: multi).map { Int($0) }, "idet TFF", file: file, line: line)
            XCTAssertEqual(f?.bff, number(after: "BFF:", in: multi).map { Int($0) }, "idet BFF", file: file, line: line)
            XCTAssertEqual(
                f?.progressive, number(after: "Progressive:", in: multi).map { Int($0) }, "idet progressive", file: file, line: line)
            XCTAssertEqual(f?.repeatedTop, number(after: "Top:", in: rep).map { Int($0) }, "idet repeated top", file: file, line: line)
        }
        // cropdetect logs "x1:0 x2:319 y1:30 y2:209 w:... crop=..." for every picture.
        let crop = c.log.last { $0.contains("x1:") && $0.contains("crop=") }
        XCTAssertEqual(crop != nil, !c.pictures.isEmpty, "cropdetect's bounds in the CLI's log", file: file, line: line)
        if let crop {
            let a = s.active
            XCTAssertEqual(a?.x1, number(after: "x1:", in: crop).map { Int($0) }, "cropdetect x1", file: file, line: line)
            XCTAssertEqual(a?.x2, number(after: "x2:", in: crop).map { Int($0) }, "cropdetect x2", file: file, line: line)
            XCTAssertEqual(a?.y1, number(after: "y1:", in: crop).map { Int($0) }, "cropdetect y1", file: file, line: line)
            XCTAssertEqual(a?.y2, number(after: "y2:", in: crop).map { Int($0) }, "cropdetect y2", file: file, line: line)
        }
        XCTAssertEqual(s.pictures.count, c.pictures.count, "one reading per picture", file: file, line: line)
        for (ours, theirs) in zip(s.pictures, c.pictures) {
            XCTAssertEqual(ours.seconds, Double(theirs["pts_time"] ?? "") ?? -1, accuracy: 1e-4, file: file, line: line)
            XCTAssertEqual(ours.luma, Double(theirs["lavfi.signalstats.YAVG"] ?? "") ?? -1, accuracy: 1e-3, "YAVG", file: file, line: line)
            XCTAssertEqual(ours.cr, Double(theirs["lavfi.signalstats.VAVG"] ?? "") ?? -1, accuracy: 1e-3, "VAVG", file: file, line: line)
            XCTAssertEqual(
                ours.outOfRange, Double(theirs["lavfi.signalstats.BRNG"] ?? "") ?? -1, accuracy: 1e-6, "BRNG", file: file, line: line)
        }
        XCTAssertEqual(s.phase.count, c.sound.count, "one phase reading per block", file: file, line: line)
        for (ours, theirs) in zip(s.phase, c.sound) {
            XCTAssertEqual(
                ours.phase, Double(theirs["lavfi.aphasemeter.phase"] ?? "") ?? -9, accuracy: 1e-6, "phase", file: file, line: line)
        }
        // astats logs "Channel: N", then "DC offset: x", "Peak level dB: x", "Peak count: n" for each.
        var logged: [ChannelLevels] = []
        for l in c.log {
            if l.contains("Channel:") { logged.append(ChannelLevels(dcOffset: 0, peakLevel: 0, peakCount: 0)) }
            guard !logged.isEmpty else { continue }
            if let v = number(after: "DC offset:", in: l) { logged[logged.count - 1].dcOffset = v }
            if let v = number(after: "Peak level dB:", in: l) { logged[logged.count - 1].peakLevel = v }
            if let v = number(after: "Peak count:", in: l) { logged[logged.count - 1].peakCount = v }
        }
        XCTAssertEqual(s.channels.count, logged.count, "astats channels", file: file, line: line)
        XCTAssertEqual(logged.isEmpty, c.sound.isEmpty, "astats' figures in the CLI's log", file: file, line: line)
        for (ours, theirs) in zip(s.channels, logged) {
            XCTAssertEqual(ours.dcOffset, theirs.dcOffset, accuracy: 1e-6, "DC offset", file: file, line: line)
            XCTAssertEqual(ours.peakLevel, theirs.peakLevel, accuracy: 1e-6, "peak level", file: file, line: line)
            XCTAssertEqual(ours.peakCount, theirs.peakCount, "peak count", file: file, line: line)
        }
    }

    private func rule(_ name: String, _ facts: CreativeFacts) -> RuleResult? {
        CreativeReport.evaluate(facts, against: .iabCTV).results.first { $0.rule == name }
    }

    /// A 320x240 clip made by `video` (a filter applied to testsrc) with `audio` as its sound.
    private func clip(_ name: String, video: String, audio: String = "sine=frequency=440:sample_rate=48000:d=3", seconds: Int = 3) throws
        -> String
    {
        try Fixtures.make(
            "quality-\(name).mp4",
            [
                "-f", "lavfi", "-i", "testsrc=s=320x240:r=25:d=\(seconds)", "-f", "lavfi", "-i", audio,
                "-vf", video, "-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "25", "-c:a", "aac", "-ac", "2", "-t", "\(seconds)"
            ])
    }

    func testACleanClipPassesEveryRuleAndAgreesWithTheCLI() throws {
        let path = try Fixtures.cleanCTVClip()
        let facts = try CreativeAnalyzer(path: path).run()
        assertAgreement(facts, try cli(path))
        let report = CreativeReport.evaluate(facts, against: .iabCTV)
        XCTAssertEqual(report.results.filter { $0.status != .pass }.map { "\($0.rule): \($0.measuredText)" }, [])
        XCTAssertEqual(report.results.count, Spec.iabCTV.rules.count)
    }

    func testAFrozenPictureIsFoundWhereTheCLIFindsIt() throws {
        // Picture 25 held for 30 more pictures: 1.24 s frozen from 1 s on.
        let path = try clip("freeze", video: "loop=loop=30:size=1:start=25,setpts=N/25/TB", seconds: 4)
        let facts = try CreativeAnalyzer(path: path).run()
        assertAgreement(facts, try cli(path))
        let longest = try XCTUnwrap(facts.analysis.signal.freezes.map(\.duration).max())
        XCTAssertEqual(longest, 1.24, accuracy: 0.05)
        XCTAssertEqual(rule("freeze_frames", facts)?.status, .fail)
    }

    func testFlashingPicturesFailAndTheirReadingsMatchTheCLI() throws {
        // Black and white swapped every other picture for 3 s: 12 flashes a second.
        let path = try clip("flashes", video: "format=yuv420p,geq=lum='if(mod(floor(N/2),2),235,16)':cb=128:cr=128")
        let facts = try CreativeAnalyzer(path: path).run()
        let c = try cli(path)
        assertAgreement(facts, c)
        // The count from the CLI's own per-picture figures is the same.
        let theirs = c.pictures.map {
            PictureReading(
                seconds: Double($0["pts_time"] ?? "") ?? 0, luma: Double($0["lavfi.signalstats.YAVG"] ?? "") ?? 0,
                cb: Double($0["lavfi.signalstats.UAVG"] ?? "") ?? 0, cr: Double($0["lavfi.signalstats.VAVG"] ?? "") ?? 0,
                outOfRange: 0)
        }
        let measured = FlashCounter.count(facts.analysis.signal.pictures, fullRange: false).mostPerSecond
        XCTAssertEqual(measured, FlashCounter.count(theirs, fullRange: false).mostPerSecond)
        XCTAssertEqual(measured, 6, "a change every 2 pictures at 25 fps: 12.5 changes, 6 flashes a second")
        XCTAssertEqual(rule("flashes", facts)?.status, .fail)
    }

    func testInterlacedPicturesAreCountedAsIdetCountsThem() throws {
        // 50 progressive pictures a second woven into 25 interlaced ones.
        let path = try Fixtures.make(
            "quality-interlaced.mp4",
            [
                "-f", "lavfi", "-i", "testsrc=s=320x240:r=50:d=3", "-f", "lavfi", "-i", "sine=sample_rate=48000:d=3",
                "-vf", "tinterlace=mode=interleave_top,setfield=tff", "-c:v", "libx264", "-flags", "+ildct+ilme", "-pix_fmt", "yuv420p",
                "-c:a", "aac", "-ac", "2"
            ])
        let facts = try CreativeAnalyzer(path: path).run()
        assertAgreement(facts, try cli(path))
        XCTAssertGreaterThan(try XCTUnwrap(facts.analysis.signal.fields?.interlacedPercent), 50)
        XCTAssertEqual(rule("interlaced", facts)?.status, .fail)
    }

    func testLetterboxBarsAreMeasuredAsCropdetectBoundsThem() throws {
        // A 320x180 picture in a 320x240 frame: 25 % bars.
        let path = try clip("letterbox", video: "scale=320:180,pad=320:240:0:30:black")
        let facts = try CreativeAnalyzer(path: path).run()
        assertAgreement(facts, try cli(path))
        let r = try XCTUnwrap(rule("letterbox", facts))
        guard case .value(.number(let bars)) = r.measured else { return XCTFail("\(r)") }
        XCTAssertEqual(bars, 25, accuracy: 1)
        XCTAssertEqual(r.status, .fail)
    }

    func testFullRangePixelsInATVRangeVideoAreOutOfRange() throws {
        let path = try clip("range", video: "scale=out_range=full,format=yuv420p,setrange=tv")
        let facts = try CreativeAnalyzer(path: path).run()
        assertAgreement(facts, try cli(path))
        let r = try XCTUnwrap(rule("broadcast_range", facts))
        guard case .value(.number(let share)) = r.measured else { return XCTFail("\(r)") }
        XCTAssertGreaterThan(share, 1)
        XCTAssertEqual(r.status, .warn)
    }

    func testOppositeChannelsDCAndClippingMatchTheCLI() throws {
        // Right channel the left one upside down; a 5 % DC offset on the left.
        let phase = try clip("phase", video: "null", audio: "aevalsrc=0.05+0.3*sin(2*PI*440*t)|-0.3*sin(2*PI*440*t):s=48000:d=3")
        let facts = try CreativeAnalyzer(path: phase).run()
        assertAgreement(facts, try cli(phase))
        XCTAssertEqual(rule("audio_phase", facts)?.status, .fail)
        XCTAssertEqual(rule("dc_offset", facts)?.status, .warn)
        // A sine driven past full scale into 16-bit PCM: flat tops at 0 dBFS.
        let loud = try Fixtures.make(
            "quality-clipped.wav",
            [
                "-f", "lavfi", "-i", "aevalsrc=1.6*sin(2*PI*440*t)|1.6*sin(2*PI*440*t):s=48000:d=2", "-c:a", "pcm_s16le"
            ])
        let clipped = try CreativeAnalyzer(path: loud).run()
        assertAgreement(clipped, try cli(loud, video: false))
        let r = try XCTUnwrap(rule("audio_clipping", clipped))
        guard case .value(.number(let samples)) = r.measured else { return XCTFail("\(r)") }
        XCTAssertGreaterThan(samples, 1000)
        XCTAssertEqual(r.status, .fail)
    }

    /// The rules read from the container rather than the filters agree with ffprobe on the same file.
    func testGOPLengthsColourTagsAndStreamLengthsMatchFFprobe() throws {
        // A keyframe every 4 s, no colour tags, 3.5 s of sound under 3 s of pictures, 30000/1001 fps.
        let path = try Fixtures.make(
            "quality-stream-facts.mp4",
            [
                "-f", "lavfi", "-i", "testsrc=s=320x240:r=30000/1001:d=9", "-f", "lavfi", "-i", "sine=sample_rate=48000:d=9.5",
                "-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "120", "-keyint_min", "120", "-sc_threshold", "0", "-c:a", "aac", "-ac", "2"
            ])
        let facts = try CreativeAnalyzer(path: path).run()
        func probe(_ stream: String, _ entries: String) throws -> [String] {
            try Fixtures.run(
                "/usr/bin/ffprobe", ["-v", "error", "-select_streams", stream, "-show_entries", entries, "-of", "csv=p=0", path]
            )
            .stdout.split(separator: "\n").map { String($0).trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        // Keyframes: the packets ffprobe flags K.
        let keys = try probe("v", "packet=pts_time,flags").filter { $0.contains("K") }.compactMap { Double($0.split(separator: ",")[0]) }
            .sorted()
        let gap = zip(keys.dropFirst(), keys).map { $0 - $1 }.max()
        XCTAssertEqual(try XCTUnwrap(facts.probe.video?.keyframeIntervalMax), try XCTUnwrap(gap), accuracy: 1e-6)
        XCTAssertEqual(rule("keyframe_interval", facts)?.status, .fail)
        // Stream lengths.
        let vd = try XCTUnwrap(Double(try probe("v", "stream=duration").first ?? ""))
        let ad = try XCTUnwrap(Double(try probe("a", "stream=duration").first ?? ""))
        XCTAssertEqual(try XCTUnwrap(facts.probe.video?.durationSeconds), vd, accuracy: 1e-6)
        XCTAssertEqual(try XCTUnwrap(facts.probe.audio?.durationSeconds), ad, accuracy: 1e-6)
        let r = try XCTUnwrap(rule("av_duration_match", facts))
        guard case .value(.number(let frames)) = r.measured else { return XCTFail("\(r)") }
        XCTAssertEqual(frames, abs(ad - vd) * 30000 / 1001, accuracy: 1e-3)
        XCTAssertEqual(r.status, .fail)
        // Frame rate and colour tags.
        XCTAssertEqual(try XCTUnwrap(facts.probe.video?.frameRate), 30000.0 / 1001, accuracy: 1e-6)
        XCTAssertEqual(rule("frame_rate", facts)?.status, .pass)
        XCTAssertEqual(try probe("v", "stream=color_primaries").first, facts.probe.video?.colorPrimaries)
        XCTAssertEqual(rule("colour_tags", facts)?.measuredText, "untagged")
        XCTAssertEqual(rule("colour_tags", facts)?.status, .warn)
    }
}
