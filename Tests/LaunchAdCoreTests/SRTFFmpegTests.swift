import Foundation
import LaunchAdTestSupport
import XCTest

@testable import LaunchAdCore

/// SubRip read as FFmpeg reads it. FFmpeg's FATE subtitle tests (tests/fate/subtitles.mak) run
/// its srt demuxer on samples kept outside its repository (`sub/madness.srt`,
/// `sub/ticket5032-rrn.srt`, `sub/empty-events-2167.srt`, `sub/SubRip_capability_tester.srt`);
/// the inputs here are written after what those tests' reference outputs show each sample
/// exercises, and each is read by the ffmpeg installed here (`ffmpeg -f srt -i - -f webvtt -`,
/// the same FFmpeg 5.1 the product links) and by LaunchAd: the same cues, times and text.
final class SRTFFmpegTests: XCTestCase {
    static let cases: [String: String] = [
        // sub-srt-madness-timeshift: numbers as indexes, as text, as the only text, negative,
        // a year after the last cue, blank lines anywhere, cues out of order.
        "madness": """
        1
        00:00:01,111 --> 00:00:02,222
        okay, let's make things easy

        2
        00:00:02,020 --> 00:00:02,123
        31 i'm a number but the only payload so please keep me :)

        3
        00:00:03,333 --> 00:00:04,444
        hello
        5
        don't forget me.



        4
        00:00:05,555 --> 00:00:06,666
        no.

        let's add some fun
        6
        00:00:08,888 --> 00:00:09,999
        1
        0
        next is negative, not a chapnum ;)
        -1
        5
        00:00:07,777 --> 00:00:08,888
        let's do it in reverse bc wtf not
        45 yes this is a number but i'm actually part of the sub
        7
        00:00:10,101 --> 00:00:10,123
        credits
        2015

        """,
        // sub-srt-rrn-remux (ticket 5032): lines ended by CR CR LF.
        "rrn":
            "1\r\r\n00:00:01,000 --> 00:00:04,074\r\r\nSubtitles downloaded\r\r\n\r\r\n2\r\r\n00:00:17,317 --> 00:00:19,551\r\r\nWho's it gonna\r\r\nbe?!\r\r\n",
        // sub-srt-empty-events (ticket 2167): cues without text between cues with text.
        "empty-events": """
        1
        00:00:51,940 --> 00:00:53,320
        我们期待一些事

        2
        00:00:53,320 --> 00:00:53,340

        3
        00:00:53,340 --> 00:00:56,020
        比从前更好的事

        4
        02:09:09,350 --> 02:09:10,850


        5
        02:11:34,350 --> 02:11:37,850
        （怀念我们的朋友）
        """,
        "timing-forms": """
        00:00:01,000-->00:00:02,000
        no index, no spaces
        2
        0:0:3,5 --> 0:0:4,75
        one-digit fields, short milliseconds
        3
         00:00:05.000\t-->\t00:00:06.1234 X1:10 X2:20 Y1:5 Y2:9
        dots, tabs, long milliseconds, positions
        4
        00:75:00,000 --> 00:76:00,000
        75 minutes
        5
        -00:00:10,000 --> 00:00:11,000
        a signed zero hour
        6
        00 :00:12,000 --> 00:00:13,000
        not a timing line: text of cue 5
        """,
        "junk-and-cr": "junk before the first cue\r\r1\r00:00:01,000 --> 00:00:02,000\rCR only\r2\r00:00:03,000 --> 00:00:04,000\rsecond\r",
        "nul":
            "1\n00:00:01,000 --> 00:00:02,000\nbefore\n2\n00:00:03,000 --> 00:00:04,000\nat the \0 NUL\n3\n00:00:05,000 --> 00:00:06,000\nafter\n"
    ]

    struct Cue: Equatable {
        var startMs: Int
        var endMs: Int
        var text: String
    }

    /// FFmpeg's cues for `input`, read back from the WebVTT it writes (its `<b>`, `<i>`, `<u>` removed).
    func ffmpeg(_ input: String) throws -> [Cue] {
        let r = try Fixtures.run(
            "/usr/bin/ffmpeg", ["-v", "error", "-f", "srt", "-i", "pipe:0", "-f", "webvtt", "-"], stdin: Data(input.utf8))
        var cues: [Cue] = []
        for block in r.stdout.components(separatedBy: "\n\n").dropFirst() where !block.isEmpty {
            var lines = block.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let timing = Array(lines.removeFirst().unicodeScalars)
            let (start, end) = try XCTUnwrap(WebVTTTimings.read(timing[...]), block)
            var text = lines.joined(separator: "\n").trimmingCharacters(in: .newlines)
            for tag in ["<b>", "</b>", "<i>", "</i>", "<u>", "</u>"] { text = text.replacingOccurrences(of: tag, with: "") }
            cues.append(Cue(startMs: start, endMs: end, text: text))
        }
        return cues
    }

    func launchAd(_ input: String) throws -> [Cue] {
        try CaptionFormat.parse(Data(input.utf8), budget: .testMinute).track.cues.map {
            Cue(startMs: $0.startMs, endMs: $0.endMs, text: $0.text)
        }
    }

    func testTheCuesFFmpegReads() throws {
        for (name, input) in Self.cases.sorted(by: { $0.key < $1.key }) {
            let theirs = try ffmpeg(input)
            XCTAssertFalse(theirs.isEmpty, "\(name): ffmpeg read no cue")
            XCTAssertEqual(try launchAd(input), theirs, name)
        }
    }

    /// What those cases are, in plain words (so a change in FFmpeg would be seen, not followed).
    func testWhatThoseCasesAre() throws {
        let madness = try launchAd(Self.cases["madness"]!)
        XCTAssertEqual(madness.count, 7)
        XCTAssertEqual(madness[1].text, "31 i'm a number but the only payload so please keep me :)")
        XCTAssertEqual(madness[2].text, "hello\n5\ndon't forget me.")
        XCTAssertEqual(madness[5].text, "1\n0\nnext is negative, not a chapnum ;)\n-1")
        XCTAssertEqual(madness.last?.text, "credits\n2015")
        XCTAssertEqual(try launchAd(Self.cases["empty-events"]!).map(\.startMs), [51940, 53340, 7_894_350])
        let forms = try launchAd(Self.cases["timing-forms"]!)
        XCTAssertEqual(forms.map(\.startMs), [1000, 3005, 5000, 10000, 4_500_000])
        XCTAssertEqual(forms.map(\.endMs), [2000, 4075, 7234, 11000, 4_560_000])
        XCTAssertEqual(try launchAd(Self.cases["nul"]!).map(\.text), ["before"], "a NUL ends the file at the start of its line")
    }

    /// Where LaunchAd deliberately differs from FFmpeg 5.1.
    func testDeliberateDifferences() throws {
        // A cue that ends before it starts: FFmpeg shows it until the next cue starts, or for
        // 1,193 hours when it is the last (its negative duration read as unsigned); LaunchAd
        // skips it and says so.
        let backwards = "1\n00:00:02,000 --> 00:00:01,000\nbackwards\n2\n00:00:03,000 --> 00:00:04,000\nfine\n"
        XCTAssertEqual(try ffmpeg(backwards).first, Cue(startMs: 2000, endMs: 3000, text: "backwards"))
        XCTAssertEqual(try ffmpeg("1\n00:00:02,000 --> 00:00:01,000\nlast\n").first?.endMs, 2000 + 4_294_967_296 - 1000)
        let p = try CaptionFormat.parse(Data(backwards.utf8), budget: .testMinute)
        XCTAssertEqual(p.track.cues.map(\.text), ["fine"])
        XCTAssertEqual(p.firstProblem, "cue 1: it ends (1000 ms) before it starts (2000 ms)")
        // Markup: every tag and `{...}` closed on its line removed, entities decoded (FFmpeg's
        // subrip decoder keeps `&amp;` and unknown tags such as `<c.x>` as text).
        let markup = "1\n00:00:01,000 --> 00:00:02,000\n<b>bold</b> <c.x>c</c> {comment}{\\an8}&amp; x < 5 {open\n"
        XCTAssertEqual(try launchAd(markup).map(\.text), ["bold c & x < 5 {open"])
    }
}
