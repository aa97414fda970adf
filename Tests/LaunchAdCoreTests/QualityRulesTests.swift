import Foundation
import LaunchAdCore
import XCTest

/// The picture and sound quality rules on made-up filter readings: the measure, the verdict against the
/// iab-ctv limits, `skip` with a reason when there is nothing to measure, and what a spec may say.
final class QualityRulesTests: XCTestCase {
    private func result(
        _ name: String, _ facts: CreativeFacts, _ spec: Spec = .iabCTV,
        file: StaticString = #filePath, line: UInt = #line
    ) -> RuleResult {
        let r = CreativeReport.evaluate(facts, against: spec).results.first { $0.rule == name }
        XCTAssertNotNil(r, "no \(name) result", file: file, line: line)
        return r ?? RuleResult(rule: name, status: .fail, measured: .missing("none"), limit: "")
    }

    private func measured(_ r: RuleResult) -> Double? {
        if case .value(.number(let d)) = r.measured { return d }
        return nil
    }

    /// Pictures at 25 fps whose average luma follows `luma(frame)`; mid-grey chroma unless `red`.
    private func pictures(_ count: Int, red: Bool = false, luma: (Int) -> Double) -> [PictureReading] {
        (0..<count).map { i in
            let y = luma(i)
            // A saturated red picture: Y'CbCr of R'=1, G'=B'=0 scaled by how bright the frame is.
            let k = (y - 16) / (63.0 - 16)
            return red
                ? PictureReading(seconds: Double(i) / 25, luma: y, cb: 128 - 26 * k, cr: 128 + 112 * k, outOfRange: 0)
                : PictureReading(seconds: Double(i) / 25, luma: y, cb: 128, cr: 128, outOfRange: 0)
        }
    }

    func testAllRulesPassOnACleanCreativeAndNoneSkips() {
        let report = CreativeReport.evaluate(madeUpFacts(), against: .iabCTV)
        XCTAssertEqual(report.count(.skip), 0)
        XCTAssertEqual(report.status, .pass, "\(report.results.filter { $0.status != .pass })")
    }

    func testFlashesCountPairsOfLuminanceChangesInAnySecond() {
        var facts = madeUpFacts()
        // Black and white swapped every 5 pictures: 5 changes a second, 2 flashes.
        facts.analysis.signal.pictures = pictures(100) { $0 / 5 % 2 == 0 ? 16 : 235 }
        XCTAssertEqual(measured(result("flashes", facts)), 2)
        XCTAssertEqual(result("flashes", facts).status, .pass)
        // Every other picture: 25 changes a second, 12 flashes: a photosensitivity hazard.
        facts.analysis.signal.pictures = pictures(100) { $0 % 2 == 0 ? 16 : 235 }
        XCTAssertEqual(measured(result("flashes", facts)), 12)
        XCTAssertEqual(result("flashes", facts).status, .fail)
        XCTAssertEqual(result("flashes", facts, .launchAd).status, .fail, "launch-ad checks flashes too")
        // Both states brighter than 0.8 relative luminance: not a flash by the definition.
        facts.analysis.signal.pictures = pictures(100) { $0 % 2 == 0 ? 220 : 235 }
        XCTAssertEqual(measured(result("flashes", facts)), 0)
        // Changes under 10 % of the luminance range: not a flash either.
        facts.analysis.signal.pictures = pictures(100) { $0 % 2 == 0 ? 60 : 66 }
        XCTAssertEqual(measured(result("flashes", facts)), 0)
    }

    func testSaturatedRedFlashesCountEvenWhenTheLuminanceStepIsSmall() {
        var facts = madeUpFacts()
        // Dark grey to a dim saturated red and back every other picture: little luminance, much red.
        facts.analysis.signal.pictures = pictures(50, red: true) { $0 % 2 == 0 ? 16 : 63 }
        let general = FlashCounter.count(pictures(50) { $0 % 2 == 0 ? 16 : 63 }, fullRange: false)
        XCTAssertEqual(general.mostPerSecond, 0, "the same luma steps without red are under the 10 % step")
        XCTAssertEqual(measured(result("flashes", facts)), 12)
        let spans = FlashCounter.count(facts.analysis.signal.pictures, fullRange: false).spans
        XCTAssertEqual(spans.count, 1, "back-to-back flashes make one span on the timeline")
        XCTAssertEqual(spans.first?.start ?? -1, 0, accuracy: 0.001)
    }

    func testFreezeIsTheLongestFrozenRun() {
        var facts = madeUpFacts()
        facts.analysis.signal.freezes = [Interval(1, 1.3), Interval(4, 5.2)]
        XCTAssertEqual(measured(result("freeze_frames", facts)) ?? 0, 1.2, accuracy: 1e-9)
        XCTAssertEqual(result("freeze_frames", facts).status, .fail)
        XCTAssertEqual(CreativeReport.evaluate(facts, against: .iabCTV).results.count, Spec.iabCTV.rules.count)
        XCTAssertEqual(RuleName.freezeFrames.spans(facts), [Interval(1, 1.3), Interval(4, 5.2)])
    }

    func testInterlacedOrTelecinedPicturesFail() {
        var facts = madeUpFacts()
        facts.analysis.signal.fields = FieldCounts(tff: 90, progressive: 10, repeatedNeither: 100)
        XCTAssertEqual(measured(result("interlaced", facts)), 90)
        XCTAssertEqual(result("interlaced", facts).status, .fail)
        // 3:2 pulldown: two pictures in five carry a repeated field.
        facts.analysis.signal.fields = FieldCounts(progressive: 100, repeatedNeither: 60, repeatedTop: 20, repeatedBottom: 20)
        XCTAssertEqual(measured(result("interlaced", facts)), 40)
        facts.analysis.signal.fields = FieldCounts(tff: 2, progressive: 98, repeatedNeither: 100)
        XCTAssertEqual(result("interlaced", facts).status, .pass, "a stray misreading stays under 5 %")
    }

    func testLetterboxWarnsForAnyBarAndFailsOverTenPerCent() {
        var facts = madeUpFacts()
        // 1920x800 of picture in a 1920x1080 frame: bars are 25.9 % of it.
        facts.analysis.signal.active = ActivePicture(x1: 0, x2: 1919, y1: 140, y2: 939, width: 1920, height: 1080)
        XCTAssertEqual(measured(result("letterbox", facts)) ?? 0, 100 * (1 - 800.0 / 1080), accuracy: 1e-9)
        XCTAssertEqual(result("letterbox", facts).status, .fail)
        facts.analysis.signal.active = ActivePicture(x1: 0, x2: 1919, y1: 20, y2: 1059, width: 1920, height: 1080)
        XCTAssertEqual(result("letterbox", facts).status, .warn)
        XCTAssertEqual(result("letterbox", facts).limit, "at most 10 %; warns above 0 %")
        facts.analysis.signal.active = ActivePicture(x1: 1919, x2: 0, y1: 1079, y2: 0, width: 1920, height: 1080)
        XCTAssertEqual(result("letterbox", facts).status, .skip)
        XCTAssertEqual(result("letterbox", facts).measuredText, "nothing but black pictures")
    }

    func testBroadcastRangeWarnsAboveOnePerCentUnlessTaggedFullRange() {
        var facts = madeUpFacts()
        for i in facts.analysis.signal.pictures.indices { facts.analysis.signal.pictures[i].outOfRange = i % 2 == 0 ? 0.04 : 0 }
        XCTAssertEqual(measured(result("broadcast_range", facts)) ?? 0, 2, accuracy: 0.01)
        XCTAssertEqual(result("broadcast_range", facts).status, .warn)
        XCTAssertFalse(RuleName.broadcastRange.spans(facts)?.isEmpty ?? true)
        facts.probe.streams[0].colorRange = "pc"
        XCTAssertEqual(measured(result("broadcast_range", facts)), 0)
    }

    func testColourTags() {
        var facts = madeUpFacts()
        for (tags, text, status) in [
            (("bt709", "bt709", "bt709", "tv"), "bt709", RuleResult.Status.pass),
            (("unknown", "unknown", "unknown", "unknown"), "untagged", .warn),
            (("bt709", "unknown", "bt709", "tv"), "partly tagged", .warn),
            (("bt709", "bt709", "smpte170m", "tv"), "mixed: primaries bt709, transfer bt709, matrix smpte170m", .fail),
            (("bt2020", "smpte2084", "bt2020nc", "tv"), "mixed: primaries bt2020, transfer smpte2084, matrix bt2020nc", .fail),
            (("bt709", "bt709", "bt709", "pc"), "bt709 full range", .fail)
        ] as [((String, String, String, String), String, RuleResult.Status)] {
            (
                facts.probe.streams[0].colorPrimaries, facts.probe.streams[0].colorTransfer, facts.probe.streams[0].colorSpace,
                facts.probe.streams[0].colorRange
            ) = tags
            let r = result("colour_tags", facts)
            XCTAssertEqual(r.measuredText, text)
            XCTAssertEqual(r.status, status, text)
        }
    }

    func testFrameRateMustBeNativeAndConstant() {
        var facts = madeUpFacts()
        for (rate, ok) in [(29.97, true), (23.976, true), (59.94, true), (27.0, false), (15.0, false)] {
            facts.probe.streams[0].frameRate = rate
            XCTAssertEqual(result("frame_rate", facts).status, ok ? .pass : .fail, "\(rate)")
        }
        facts.probe.streams[0].frameRate = 25
        facts.probe.streams[0].variableFrameRate = true
        XCTAssertEqual(result("frame_rate", facts).measuredText, "variable")
        XCTAssertEqual(result("frame_rate", facts).status, .fail)
    }

    func testKeyframesAtMostTwoSecondsApart() {
        var facts = madeUpFacts()
        facts.probe.streams[0].keyframeIntervalMax = 4.2
        XCTAssertEqual(result("keyframe_interval", facts).status, .fail)
        // One keyframe in 15.2 s: the interval is the whole video.
        facts.probe.streams[0].keyframeIntervalMax = nil
        facts.probe.streams[0].keyframeCount = 1
        XCTAssertEqual(measured(result("keyframe_interval", facts)), 15.2)
    }

    func testAudioAndVideoLengthsWithinOneFrame() {
        var facts = madeUpFacts()
        facts.probe.streams[1].durationSeconds = 15.2 + 0.03
        XCTAssertEqual(measured(result("av_duration_match", facts)) ?? 0, 0.75, accuracy: 1e-6)
        XCTAssertEqual(result("av_duration_match", facts).status, .pass)
        facts.probe.streams[1].durationSeconds = 15.2 - 0.1
        XCTAssertEqual(measured(result("av_duration_match", facts)) ?? 0, 2.5, accuracy: 1e-6)
        XCTAssertEqual(result("av_duration_match", facts).status, .fail)
        XCTAssertEqual(RuleName.avDurationMatch.spans(facts)?.first?.duration ?? 0, 0.1, accuracy: 1e-6)
    }

    func testBitrateFloorIsChosenByTheShortSide() {
        // A portrait 1080x1920 creative is held to the 1080p floor; 1440x1080 too; 800x450 to the 360p one.
        for (w, h, kbps, status, tier) in [
            (1080, 1920, 4_000, RuleResult.Status.fail, "1080x1920 (tier 1920x1080)"),
            (1440, 1080, 6_000, .pass, "1440x1080 (tier 1920x1080)"),
            (800, 450, 700, .pass, "800x450 (tier 640x360)"),
            (320, 240, 500, .fail, "320x240 (tier 640x360)"),
            (1920, 1080, 5_000, .pass, "1920x1080")
        ] {
            let r = result("video_bitrate_floor", madeUpFacts(width: w, height: h, videoKbps: kbps))
            XCTAssertEqual(r.status, status, "\(w)x\(h)")
            XCTAssertTrue(r.limit.hasPrefix("for \(tier): at least"), r.limit)
        }
    }

    func testPhaseDCOffsetAndClipping() {
        var facts = madeUpFacts()
        for i in facts.analysis.signal.phase.indices where i % 10 == 0 { facts.analysis.signal.phase[i].phase = -0.9 }
        XCTAssertEqual(measured(result("audio_phase", facts)) ?? 0, 10, accuracy: 0.2)
        XCTAssertEqual(result("audio_phase", facts).status, .fail)
        facts.analysis.signal.channels[1].dcOffset = -0.02
        XCTAssertEqual(measured(result("dc_offset", facts)) ?? 0, 2, accuracy: 1e-9)
        XCTAssertEqual(result("dc_offset", facts).status, .warn)
        XCTAssertEqual(result("audio_clipping", facts).status, .pass, "a peak below full scale clips nothing")
        facts.analysis.signal.channels[0] = ChannelLevels(dcOffset: 0, peakLevel: 0, peakCount: 37)
        XCTAssertEqual(measured(result("audio_clipping", facts)), 37)
        XCTAssertEqual(result("audio_clipping", facts).status, .fail)
    }

    func testNothingToMeasureIsASkipWithTheReasonNeverAFail() {
        // No video at all.
        let audioOnly = CreativeFacts(
            probe: ProbeFacts(
                file: "a.m4a", container: "mp4", formatName: "mov", durationSeconds: 6, fileSize: 1,
                bitRate: nil, faststart: true, streams: [madeUpFacts().probe.streams[1]]),
            analysis: madeUpFacts().analysis)
        for rule in [
            "freeze_frames", "flashes", "interlaced", "letterbox", "broadcast_range", "colour_tags", "keyframe_interval",
            "frame_rate", "av_duration_match", "video_bitrate_floor"
        ] {
            let r = result(rule, audioOnly)
            XCTAssertEqual(r.status, .skip, rule)
            XCTAssertEqual(r.measuredText, "no video stream", rule)
        }
        // One picture.
        var one = madeUpFacts()
        one.analysis.videoFrames = 1
        for rule in ["freeze_frames", "flashes", "interlaced", "letterbox", "broadcast_range", "frame_rate", "keyframe_interval"] {
            XCTAssertEqual(result(rule, one).status, .skip, rule)
            XCTAssertEqual(result(rule, one).measuredText, "only 1 picture: too few to analyse", rule)
        }
        // Pictures too large to analyse.
        var huge = madeUpFacts(width: 7680, height: 4320)
        huge.analysis.signal.picturesNotAnalysed = "7680x4320 is larger than 4096x2304: pictures not analysed"
        XCTAssertEqual(result("letterbox", huge).status, .skip)
        XCTAssertEqual(result("letterbox", huge).measuredText, huge.analysis.signal.picturesNotAnalysed)
        // No sound, and mono sound.
        let silent = madeUpFacts(audio: false)
        for rule in ["audio_phase", "dc_offset", "audio_clipping", "av_duration_match"] {
            XCTAssertEqual(result(rule, silent).status, .skip, rule)
            XCTAssertEqual(result(rule, silent).measuredText, "no audio stream", rule)
        }
        var mono = madeUpFacts()
        mono.analysis.signal.audioChannels = 1
        XCTAssertEqual(result("audio_phase", mono).measuredText, "mono: no phase between channels")
        // Skips do not decide the verdict.
        XCTAssertEqual(CreativeReport.evaluate(silent, against: .iabCTV).count(.skip), 4)
        XCTAssertEqual(CreativeReport.evaluate(mono, against: .iabCTV).status, .pass)
    }

    func testSpecLimitsForTheNewRulesAreCheckedAndNamed() throws {
        let spec = try Spec.parse(
            Data(#"{"rules": {"letterbox": {"max": 5, "warn_above": 1}, "colour_tags": {"allowed": ["bt709", "bt2020"]}}}"#.utf8),
            defaultName: "s")
        XCTAssertEqual(spec.rules[.letterbox], Limit(max: 5, warnAbove: 1))
        for (json, text) in [
            (#"{"rules": {"flashes": {"max": "three"}}}"#, "rules.flashes.max"),
            (#"{"rules": {"flashes": {"maximum": 3}}}"#, "rules.flashes: unknown limit 'maximum'"),
            (#"{"rules": {"colour_tags": {"max": 3}}}"#, "rules.colour_tags: 'max' needs a number, but colour_tags measures words"),
            (#"{"rules": {"letterbox": {"min": 10, "max": 5}}}"#, "rules.letterbox: 'min' 10 is above 'max' 5"),
            (#"{"rules": {"dc_offset": {"allowed": ["none"]}}}"#, "rules.dc_offset: 'none' is not a value dc_offset can measure"),
            (
                #"{"rules": {"freeze_frames": {"by_resolution": {"1920x1080": {"max": 1}}}}}"#,
                "rules.freeze_frames: 'by_resolution' is only for"
            ),
            (
                #"{"rules": {"video_bitrate_floor": {"by_resolution": {"big": {"min": 1}}}}}"#,
                "'by_resolution' key 'big' is not WIDTHxHEIGHT"
            ),
            (#"{"rules": {"flash": {"max": 3}}}"#, "unknown rule 'flash'")
        ] {
            XCTAssertThrowsError(try Spec.parse(Data(json.utf8), defaultName: "s"), json) { e in
                XCTAssertTrue((e as? SpecError)?.message.contains(text) == true, "\(e) for \(json)")
            }
        }
        // The built-in profiles hold themselves to the same checks.
        for name in Spec.profileNames {
            for (rule, limit) in Spec.profile(named: name)!.rules { XCTAssertNoThrow(try limit.check(for: rule), "\(name) \(rule)") }
        }
    }
}
