import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

@testable import LaunchAdMedia

/// Issue 29 defect 12: a clean file whose sound the analysis filters cannot take (32 channels
/// with no channel layout) failed `decode_errors` and skipped every picture rule. The pictures
/// are measured; the sound's rules say why they are not.
final class SoundLayoutTests: XCTestCase {
    override func setUp() { MediaLog.configure() }

    /// 2 s of testsrc2 with a 440 Hz tone merged into 32 channels: amerge of 32 mono inputs has
    /// no layout (ffprobe: `channels=32`, `channel_layout=unknown`).
    static func thirtyTwoChannels() throws -> String {
        let split = "[1:a]asplit=32" + (0..<32).map { "[a\($0)]" }.joined()
        let merge = (0..<32).map { "[a\($0)]" }.joined() + "amerge=inputs=32[a]"
        return try Fixtures.make(
            "thirty-two-channels.mkv",
            [
                "-f", "lavfi", "-i", "testsrc2=s=320x240:r=25:d=2", "-f", "lavfi", "-i", "sine=f=440:d=2", "-filter_complex",
                split + ";" + merge, "-map", "0:v", "-map", "[a]", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "pcm_s16le"
            ])
    }

    func testPicturesAreMeasuredWhenTheSoundCannotBe() throws {
        let file = try Self.thirtyTwoChannels()
        let facts = try CreativeAnalyzer(path: file).run()
        XCTAssertEqual(facts.probe.audio?.channels, 32)
        XCTAssertEqual(facts.analysis.decodeErrors, [], "a clean file has no decode errors")
        XCTAssertEqual(
            facts.analysis.signal.soundNotAnalysed,
            "sound not analysed: the loudness and phase filters cannot take 32 channels with this channel layout (Invalid argument)")
        XCTAssertEqual(facts.analysis.signal.pictures.count, 50, "every picture read")
        XCTAssertEqual(facts.analysis.firstFrameBlack, false)

        let results = CreativeReport.evaluate(facts, against: .launchAd).results
        func status(_ rule: RuleName) -> RuleResult.Status? { results.first { $0.rule == rule.rawValue }?.status }
        XCTAssertEqual(status(.decodeErrors), .pass)
        XCTAssertEqual(status(.firstFrameBlack), .pass)
        XCTAssertEqual(status(.flashes), .pass, "\(results)")
        let sound = CreativeReport.evaluate(facts, against: .iabCTV).results.filter {
            RuleName(rawValue: $0.rule).map(RuleName.soundRules.contains) == true
        }
        XCTAssertGreaterThanOrEqual(sound.count, 3, "the CTV profile's loudness rules")
        for rule in sound {
            XCTAssertEqual(rule.status, .skip, rule.rule)
            XCTAssertEqual(rule.measuredText, facts.analysis.signal.soundNotAnalysed, rule.rule)
        }
        let text = ValidationReport([.evaluate(facts, against: .iabCTV)]).render(.text)
        let line = text.split(separator: "\n").first { $0.contains("loudness_integrated") } ?? ""
        XCTAssertTrue(line.contains("skip") && line.contains("sound not analysed"), text)
    }

    /// A WAV of 8,000 16-bit mono samples whose header declares `rate` Hz.
    static func wav(rate: UInt32) throws -> String {
        func le(_ v: UInt32, _ n: Int) -> [UInt8] { (0..<n).map { UInt8(truncatingIfNeeded: v >> (8 * UInt32($0))) } }
        let data = [UInt8](repeating: 0x11, count: 16_000)
        var bytes = Array("RIFF".utf8) + le(UInt32(36 + data.count), 4) + Array("WAVEfmt ".utf8) + le(16, 4) + le(1, 2) + le(1, 2)
        bytes += le(rate, 4) + le(rate &* 2, 4) + le(2, 2) + le(16, 2) + Array("data".utf8) + le(UInt32(data.count), 4) + data
        return try Fixtures.write("rate-\(rate).wav", Data(bytes))
    }

    /// libavfilter's sound filters corrupted memory on a sample rate no sound has: `validate` of
    /// a WAV declaring 1 Hz or 2 GHz died with SIGSEGV (a free() of a bad pointer in the
    /// loudness chain). Such sound is not analysed, and the sound's rules say why.
    func testARateNoSoundHasIsNotGivenToTheFilters() throws {
        for rate: UInt32 in [1, 2_000_000_000] {
            let facts = try CreativeAnalyzer(path: try Self.wav(rate: rate)).run()
            XCTAssertEqual(
                facts.analysis.signal.soundNotAnalysed, "sound not analysed: its sample rate, \(rate) Hz, is outside 1000-768000 Hz")
        }
        let facts = try CreativeAnalyzer(path: try Self.wav(rate: 48_000)).run()
        XCTAssertNil(facts.analysis.signal.soundNotAnalysed, "a usual rate is analysed")
    }
}
