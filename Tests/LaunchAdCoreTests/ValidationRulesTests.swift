import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

/// Made-up facts for a creative; each test changes what it is about.
func madeUpFacts(
    width: Int = 1920, height: Int = 1080, duration: Double = 15.2, videoKbps: Int = 8_000,
    sampleRate: Int = 48_000, audio: Bool = true
) -> CreativeFacts {
    var v = StreamFacts(index: 0, kind: .video, codec: "h264")
    v.profile = "High"
    v.width = width
    v.height = height
    v.displayWidth = width
    v.displayHeight = height
    v.pixelFormat = "yuv420p"
    v.fieldOrder = "progressive"
    v.frameRate = 25
    v.bitRate = videoKbps * 1000
    v.durationSeconds = duration
    v.keyframeCount = Int(duration / 2) + 1
    v.keyframeIntervalMax = 2
    (v.colorPrimaries, v.colorTransfer, v.colorSpace, v.colorRange) = ("bt709", "bt709", "bt709", "tv")
    var streams = [v]
    if audio {
        var a = StreamFacts(index: 1, kind: .audio, codec: "aac")
        a.profile = "LC"
        a.channels = 2
        a.sampleRate = sampleRate
        a.durationSeconds = duration
        streams.append(a)
    }
    let probe = ProbeFacts(
        file: "ad.mp4", container: "mp4", formatName: "mov,mp4,m4a,3gp,3g2,mj2", durationSeconds: duration,
        fileSize: 3_000_000, bitRate: nil, faststart: true, streams: streams)
    var analysis = AnalysisFacts()
    analysis.videoFrames = Int(duration * 25)
    analysis.decodedUntil = duration
    analysis.firstFrameBlack = false
    if audio {
        analysis.integratedLoudness = -24.3
        analysis.loudnessRange = 4
        analysis.truePeak = -8.5
    }
    analysis.signal = cleanSignal(pictures: analysis.videoFrames, audio: audio ? duration : 0)
    return CreativeFacts(probe: probe, analysis: analysis)
}

/// What the quality filters report on a clean 1080p25 creative: steady mid-grey pictures, progressive,
/// no bars, channels in phase, no DC, peaks below full scale.
func cleanSignal(pictures: Int, audio seconds: Double) -> SignalFacts {
    var s = SignalFacts()
    s.pictures = (0..<pictures).map { PictureReading(seconds: Double($0) / 25, luma: 120, cb: 128, cr: 128, outOfRange: 0) }
    s.fields = FieldCounts(progressive: pictures, repeatedNeither: pictures)
    s.active = ActivePicture(x1: 0, x2: 1919, y1: 0, y2: 1079, width: 1920, height: 1080)
    let blocks = Int(seconds * 48_000 / 1024)
    s.phase = (0..<blocks).map { PhaseReading(seconds: Double($0) * 1024 / 48_000, duration: 1024 / 48_000, phase: 0.9) }
    if seconds > 0 {
        s.channels = Array(repeating: ChannelLevels(dcOffset: 0.0001, peakLevel: -8.5, peakCount: 2), count: 2)
        s.audioChannels = 2
    }
    return s
}

final class ValidationRulesTests: XCTestCase {
    private func result(_ name: String, _ report: CreativeReport, file: StaticString = #filePath, line: UInt = #line) -> RuleResult? {
        let r = report.results.first { $0.rule == name }
        XCTAssertNotNil(r, "no \(name) result", file: file, line: line)
        return r
    }

    func testASpecCompliantCTVCreativePassesEveryRule() {
        let report = CreativeReport.evaluate(madeUpFacts(), against: .iabCTV)
        XCTAssertEqual(report.results.map(\.rule).sorted(), Spec.iabCTV.rules.keys.map(\.rawValue).sorted())
        XCTAssertEqual(report.results.filter { $0.status != .pass }.map(\.rule), [])
        XCTAssertEqual(ValidationReport([report]).exitCode, ExitCode.success)
    }

    func testDurationMustBeAStandardLengthWithinASecond() {
        for (d, ok) in [(15.9, true), (14.0, true), (30.4, true), (17.0, false), (10.0, false)] {
            let r = result("duration", .evaluate(madeUpFacts(duration: d), against: .iabCTV))
            XCTAssertEqual(r?.status, ok ? .pass : .fail, "\(d) s")
            XCTAssertEqual(r?.limit, "one of 6, 15, 20, 30 s (+/-1)")
        }
        XCTAssertEqual(result("duration", .evaluate(madeUpFacts(duration: 17), against: .iabCTV))?.measuredText, "17 s")
    }

    func testFortyFourPointOneKilohertzWarnsButDoesNotFail() {
        let report = CreativeReport.evaluate(madeUpFacts(sampleRate: 44_100), against: .iabCTV)
        XCTAssertEqual(result("audio_sample_rate", report)?.status, .warn)
        XCTAssertEqual(report.status, .warn)
        XCTAssertEqual(ValidationReport([report]).exitCode, ExitCode.success)
        XCTAssertEqual(result("audio_sample_rate", .evaluate(madeUpFacts(sampleRate: 32_000), against: .iabCTV))?.status, .fail)
    }

    func testBitrateIsHeldToTheTierOfItsResolution() {
        XCTAssertEqual(result("video_bitrate_kbps", .evaluate(madeUpFacts(videoKbps: 20_000), against: .iabCTV))?.status, .pass)
        let low = result("video_bitrate_kbps", .evaluate(madeUpFacts(width: 1280, height: 720, videoKbps: 1_000), against: .iabCTV))
        XCTAssertEqual(low?.status, .fail)
        XCTAssertEqual(low?.limit, "for 1280x720: between 2500 and 15000 kbps")
        XCTAssertEqual(low?.measuredText, "1000 kbps")
        let odd = CreativeReport.evaluate(madeUpFacts(width: 800, height: 600), against: .iabCTV)
        XCTAssertEqual(result("resolution", odd)?.status, .fail)
        XCTAssertEqual(result("video_bitrate_kbps", odd)?.status, .fail)
        XCTAssertEqual(result("video_bitrate_kbps", odd)?.limit, "a tier for 3840x2160, 1920x1080, 1280x720, 960x540, 640x360")
        XCTAssertEqual(result("resolution", odd)?.limit, "one of 3840x2160, 1920x1080, 1280x720, 960x540, 640x360")
    }

    func testLoudnessTargetFollowsTheChosenStandard() {
        var facts = madeUpFacts()
        facts.analysis.integratedLoudness = -25.5
        XCTAssertEqual(result("loudness_integrated", .evaluate(facts, against: .iabCTV))?.status, .pass)
        let ebu = result("loudness_integrated", .evaluate(facts, against: Spec.iabCTV.withEBULoudness()))
        XCTAssertEqual(ebu?.status, .fail)
        XCTAssertEqual(ebu?.limit, "-23 +/-1 LUFS")
        facts.analysis.integratedLoudness = -21.9
        XCTAssertEqual(result("loudness_integrated", .evaluate(facts, against: .iabCTV))?.status, .fail)
    }

    func testTruePeakAboveMinusSixFails() {
        var facts = madeUpFacts()
        facts.analysis.truePeak = -5.2
        let r = result("true_peak", .evaluate(facts, against: .iabCTV))
        XCTAssertEqual(r?.status, .fail)
        XCTAssertEqual(r?.measuredText, "-5.2 dBTP")
        XCTAssertEqual(r?.limit, "at most -6 dBTP")
    }

    func testSilentAudioHasATruePeakOfMinusInfinity() throws {
        var facts = madeUpFacts()
        facts.analysis.truePeak = -.infinity
        let report = CreativeReport.evaluate(facts, against: .iabCTV)
        XCTAssertEqual(result("true_peak", report)?.status, .pass)
        XCTAssertEqual(result("true_peak", report)?.measuredText, "-inf dBTP")
        XCTAssertTrue(ValidationReport([report]).render(.text).contains("-inf dBTP"))
        let json = try JSONSerialization.jsonObject(with: Data(ValidationReport([report]).render(.json).utf8)) as? [String: Any]
        XCTAssertNotNil(json, "non-finite numbers are written as null, keeping the JSON valid")
    }

    func testBlackAndSilenceCountOnlyAtTheEdges() {
        var facts = madeUpFacts(duration: 15)
        facts.analysis.black = [Interval(6, 8.5)]
        facts.analysis.silence = [Interval(12.5, 15)]
        let report = CreativeReport.evaluate(facts, against: .iabCTV)
        XCTAssertEqual(result("black_at_start", report)?.status, .pass)
        XCTAssertEqual(result("black_at_end", report)?.status, .pass)
        XCTAssertEqual(result("silence_at_start", report)?.status, .pass)
        XCTAssertEqual(result("silence_at_end", report)?.status, .fail)
        XCTAssertEqual(result("silence_at_end", report)?.measuredText, "2.5 s")
        facts.analysis.black = [Interval(0, 2.04)]
        XCTAssertEqual(result("black_at_start", .evaluate(facts, against: .iabCTV))?.measuredText, "2.04 s")
    }

    func testMissingAudioFailsTheAudioRulesWithTheReason() {
        let report = CreativeReport.evaluate(madeUpFacts(audio: false), against: .iabCTV)
        for rule in ["audio_codec", "audio_channels", "loudness_integrated", "true_peak", "silence_at_start"] {
            XCTAssertEqual(result(rule, report)?.status, .fail, rule)
            XCTAssertEqual(result(rule, report)?.measured, .missing("no audio stream"), rule)
        }
    }

    func testLaunchAdProfile() {
        var facts = madeUpFacts(width: 720, height: 1280, duration: 6)
        XCTAssertEqual(CreativeReport.evaluate(facts, against: .launchAd).status, .pass)
        facts.probe.durationSeconds = 12
        facts.probe.faststart = false
        facts.probe.fileSize = 7_500_000
        facts.analysis.firstFrameBlack = true
        facts.analysis.decodeErrors = [DecodeIssue(seconds: 2.5, stream: 0, message: "Invalid data found when processing input")]
        let report = CreativeReport.evaluate(facts, against: .launchAd)
        XCTAssertEqual(
            report.results.filter { $0.status == .fail }.map(\.rule),
            ["file_size_mb", "faststart", "duration", "decode_errors", "first_frame_black"])
        XCTAssertEqual(result("file_size_mb", report)?.measuredText, "7.5 MB")
        XCTAssertEqual(ValidationReport([report]).exitCode, ExitCode.failure)
        let landscape = CreativeReport.evaluate(madeUpFacts(duration: 6), against: .launchAd)
        XCTAssertEqual(result("orientation", landscape)?.measuredText, "landscape")
        XCTAssertEqual(result("orientation", landscape)?.status, .fail)
    }

    func testAppOpenSizes() {
        for (w, h, ok) in [(320, 480, true), (1080, 1920, true), (240, 400, false), (1440, 2560, false), (1080, 1080, false)] {
            let report = CreativeReport.evaluate(madeUpFacts(width: w, height: h, duration: 5), against: .appOpen)
            XCTAssertEqual(report.status == .pass, ok, "\(w)x\(h): \(report.results.filter { $0.status != .pass })")
        }
        XCTAssertEqual(CreativeReport.evaluate(madeUpFacts(width: 320, height: 480, duration: 5.5), against: .appOpen).status, .fail)
    }

    func testAnUnreadableFileIsOneFailingRuleWithTheReason() {
        let report = CreativeReport.unreadable(file: "x.mp4", spec: "launch-ad", reason: "x.mp4 is empty")
        XCTAssertEqual(report.status, .fail)
        XCTAssertEqual(report.results.map(\.measuredText), ["x.mp4 is empty"])
        XCTAssertEqual(ValidationReport([report]).exitCode, ExitCode.failure)
    }

    func testAStillImagePassesTheRulesAboutTime() {
        var facts = madeUpFacts(width: 720, height: 1280, audio: false)
        facts.probe.stillImage = true
        facts.probe.durationSeconds = nil
        facts.probe.faststart = nil
        facts.probe.fileSize = 3_104
        let report = CreativeReport.evaluate(facts, against: .launchAd)
        XCTAssertEqual(report.status, .pass, "\(report.results)")
        XCTAssertEqual(result("duration", report)?.measuredText, "not applicable to a still image")
        XCTAssertEqual(result("file_size_mb", report)?.measuredText, "0.0031 MB")
        facts.probe.stillImage = false
        XCTAssertEqual(result("duration", .evaluate(facts, against: .launchAd))?.status, .fail)
    }
}
