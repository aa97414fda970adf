import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

/// Issue 29, class fix 3: one escaper per output protocol (`OutputProtocol`, all in
/// Sources/LaunchAdCore/Output), and the writers of each protocol read off the sources so that a
/// new one cannot print text from a file or a server raw.
final class OutputEscapingTests: XCTestCase {
    /// Swift files under Sources/ (the test support aside), comment lines dropped.
    static func sources() throws -> [(path: String, code: String)] {
        try FetchGatewayTests.sources().filter { !$0.path.hasPrefix("LaunchAdTestSupport/") }
    }

    func testEachProtocolHasItsOneEscaperInOnePlace() throws {
        let all = try Self.sources()
        for p in OutputProtocol.allCases {
            let file = "LaunchAdCore/Output/\(p.escaper).swift"
            let text = try XCTUnwrap(all.first { $0.path == file }?.code, "\(p): \(file)")
            XCTAssertTrue(text.contains("enum \(p.escaper)") || text.contains("struct \(p.escaper)"), file)
        }
        // The escapes themselves are spelled only by their escaper: no second, hand-rolled one.
        let spellings = [
            "&amp;": "LaunchAdCore/Output/MarkupText.swift", "&lt;": "LaunchAdCore/Output/MarkupText.swift",
            #"return "\\u""#: "LaunchAdCore/Output/JSONText.swift", #"with: "\\\"""#: nil
        ]
        for (spelling, owner) in spellings {
            XCTAssertEqual(all.filter { $0.code.contains(spelling) }.map(\.path), owner.map { [$0] } ?? [], spelling)
        }
    }

    /// stderr is written only as `TerminalText.line`, and stdout's human-readable lines escape
    /// what they interpolate; no C stdio writer goes around them.
    func testTerminalWritersGoThroughTheTerminalEscaper() throws {
        var raw: [String] = []
        for (path, code) in try Self.sources() {
            // A call broken after its parenthesis is read as one line.
            let joined = code.replacingOccurrences(
                of: #"standardError\.write\(\s*\n\s*"#, with: "standardError.write(", options: .regularExpression)
            for line in joined.split(separator: "\n").map(String.init) {
                if line.contains("standardError.write("), !line.contains("standardError.write(TerminalText.line(") {
                    raw.append("\(path): \(line)")
                }
                if line.contains("print("), line.contains("\\("), !line.contains("TerminalText.escaped(") { raw.append("\(path): \(line)") }
                if line.contains("fputs(") || line.contains("fprintf(") || line.contains("FileHandle(fileDescriptor: 2") {
                    raw.append("\(path): \(line)")
                }
            }
        }
        XCTAssertEqual(raw, [], "text for the terminal goes through TerminalText")
    }

    /// A file name carrying terminal controls reaches stderr as one escaped line (probe's error
    /// printed the name raw: a title change and a screen clear reached the terminal).
    func testAFileNameWithTerminalControlsIsOneEscapedStderrLine() throws {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("escaping-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let name = folder.appendingPathComponent("ad\u{1B}]0;pwned\u{07}\u{1B}[2J\nsecond.mp4").path
        try Data("not media".utf8).write(to: URL(fileURLWithPath: name))
        let run = try Launchad.run(["probe", name])
        XCTAssertNotEqual(run.status, 0)
        XCTAssertFalse(run.stderr.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, run.stderr)
        XCTAssertEqual(run.stderr.filter { $0 == "\n" }.count, 1, run.stderr)
        XCTAssertTrue(run.stderr.contains(#"ad\x1b]0;pwned\x07\x1b[2J\nsecond.mp4"#), run.stderr)
        // Escaped text is not escaped twice.
        XCTAssertEqual(TerminalText.line(TerminalText.escaped("a\u{1B}b")), Data("launchad: a\\x1bb\n".utf8))
    }

    /// A tag's text may hold the Unicode controls that reorder a line on a terminal shaping
    /// bidirectional text (an override, U+202E) or break it (U+2028): `validate`'s text report
    /// printed them raw. They are escaped like C0 and C1 controls; other text stays as it is.
    func testBidirectionalOverridesAndLineSeparatorsAreEscaped() throws {
        XCTAssertEqual(
            TerminalText.escaped("pass\u{202E}liaf\u{2066}\u{2069}\u{200F}\u{2028}\u{2029} é 中 👍"),
            #"pass\u{202e}liaf\u{2066}\u{2069}\u{200f}\u{2028}\u{2029} é 中 👍"#)
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("bidi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let tag = folder.appendingPathComponent("tag.xml")
        // A <Duration> that is not a time is quoted in the report.
        let ad = VASTTags.inlineAd(
            id: "b", track: "https://t.example/t", media: [VASTTags.mediaFile("https://cdn.example/a.mp4")],
            duration: "00:00:05 \u{202E}\u{2028}liaf")
        try Data(VASTTags.document([ad]).utf8).write(to: tag)
        let run = try Launchad.run(["validate", "--vast", tag.path])
        XCTAssertTrue(run.stdout.contains("liaf"), run.stdout)
        XCTAssertFalse(run.stdout.unicodeScalars.contains { $0.value == 0x202E || $0.value == 0x2028 }, run.stdout)
    }

    /// Prometheus: an ad id made to close its label and start a sample of its own stays one
    /// label value; promtool reads the file, and the next run carries the same counter on.
    func testAMetricsLabelCannotAddASample() throws {
        let hostile = "x\"} 1\nlaunchad_plays_total{ad=\"y\\\",outcome=\"completed\"} 99\r\u{1B}[2J"
        var metrics = FleetMetrics(version: "1\n2", now: Date(timeIntervalSince1970: 1_800_000_000))
        var run = PlayMetrics(adID: hostile)
        run.observe(AdEvent(.end(RunEnd(outcome: .completed)), tMs: 10))
        metrics.run = run
        let first = metrics.text(previous: nil)
        let samples = first.split(separator: "\n").filter { $0.hasPrefix("launchad_plays_total") }
        XCTAssertEqual(samples.count, 1, first)
        XCTAssertEqual(
            String(samples[0]),
            #"launchad_plays_total{ad="x\"} 1\nlaunchad_plays_total{ad=\"y\\\",outcome=\"completed\"} 99"#
                + "\r\u{1B}[2J\",outcome=\"completed\"} 1")
        let second = metrics.text(previous: first)
        XCTAssertTrue(second.contains("\"completed\"} 2\n"), second)
        XCTAssertFalse(second.contains("} 99\n"), second)
        let check = try Fixtures.run("/usr/bin/promtool", ["check", "metrics"], stdin: Data(second.utf8))
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
        XCTAssertEqual(PrometheusText.labelValue("a\\b\"c\nd"), #"a\\b\"c\nd"#)
        // Labels are built only by PrometheusText: no interpolated label in the metrics code.
        for (path, code) in try Self.sources() where path.contains("/Metrics/") {
            XCTAssertFalse(code.contains("=\\\"\\("), path)
        }
    }

    /// JSON: every string the escaper writes reads back as itself.
    func testJSONStringsReadBackAsThemselves() throws {
        for s in ["a\"b\\c", "\u{0}\u{1F}\u{7F}\u{1B}[2J", "line\nline\r\t", "\u{2028}\u{2029}", "é😀", ""] {
            let text = JSONText.quoted(s)
            XCTAssertFalse(text.unicodeScalars.contains { $0.value < 0x20 }, text)
            let back = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) as? String
            XCTAssertEqual(back, s)
        }
    }
}
