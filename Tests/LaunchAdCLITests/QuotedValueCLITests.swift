import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

/// Review 2 of issues 40 and 42, through the binary: a 120 KB value (an argument is at most
/// 128 KiB on Linux) was echoed whole by every message that quoted it but a usage error's — a
/// `--trust-key` in `manifest_rejected` and on stderr at every refresh, `manifest verify`'s and
/// `schedule --manifest`'s file name. Each entry point that quotes a value quotes it bounded;
/// a URL that may carry credentials refuses a password of its own without printing it; a signed
/// manifest with a key given twice is refused.
final class QuotedValueCLITests: FolderTestCase {
    static let big = "/nowhere/" + String(repeating: "A", count: 120_000) + "\u{1b}[2J.pub"

    /// Each line of `text` (stderr) at most the quoted bound and a little prose; the value's end
    /// shown, its middle cut.
    func assertBounded(_ text: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(text.isEmpty, what, file: file, line: line)
        for l in text.split(separator: "\n") {
            XCTAssertLessThan(l.unicodeScalars.count, TerminalText.maxQuoted + 300, "\(what): \(l.prefix(120))", file: file, line: line)
        }
        XCTAssertFalse(text.contains("\u{1b}"), what, file: file, line: line)
    }

    func testEveryMessageQuotesAValueBounded() throws {
        let manifest = folder.appendingPathComponent("m.json")
        let png = try Fixtures.solidPNG("red")
        try png.write(to: folder.appendingPathComponent("red.png"))
        try Minisign.manifest(
            version: 1, expires: nil,
            ads: AdServer.Ad(id: "red", file: "red.png", data: png).json
        ).write(to: manifest)
        let cache = folder.appendingPathComponent("cache").path
        // --trust-key: the event and the line, at every refresh.
        let refreshed = try Launchad.run([
            "prefetch", "--manifest", manifest.path, "--cache", cache, "--size", "320x240", "--trust-key", Self.big
        ])
        XCTAssertEqual(refreshed.status, 1)
        assertBounded(refreshed.stderr, "prefetch --trust-key")
        let message = try XCTUnwrap(refreshed.events(named: "manifest_rejected").first?["message"] as? String)
        XCTAssertLessThan(message.unicodeScalars.count, TerminalText.maxQuoted + 100, String(message.prefix(120)))
        XCTAssertTrue(message.hasPrefix("--trust-key /nowhere/AAA") && message.contains("A…A"), String(message.prefix(120)))
        XCTAssertTrue(message.contains("AAA\\x1b[2J.pub: "), String(message.suffix(120)))
        // manifest verify: its file, its signature, its key.
        for args in [
            ["manifest", "verify", Self.big, "--trust-key", Self.big],
            ["manifest", "verify", manifest.path, "--signature", Self.big, "--trust-key", Self.big]
        ] {
            let run = try Launchad.run(args)
            XCTAssertEqual(run.status, 1, run.stderr)
            assertBounded(run.stderr, args[2].prefix(20) + "…")
        }
        // schedule --manifest, fleet report's credentials file, a manifest URL, an events file.
        for (args, status) in [
            (["schedule", "--manifest", Self.big], Int32(1)),
            (["fleet", "report", "--clickhouse", "http://127.0.0.1:1/", "--clickhouse-credentials", Self.big], 1),
            (
                [
                    "prefetch", "--manifest", "http://127.0.0.1:1/" + String(repeating: "B", count: 120_000), "--cache", cache, "--retries",
                    "0"
                ], 1
            ),
            (["play", "x.png", "--events", Self.big], 2)
        ] {
            let run = try Launchad.run(args)
            XCTAssertEqual(run.status, status, "\(args[0]) \(args[1]): \(run.stderr.prefix(200))")
            assertBounded(run.stderr, "\(args[0]) \(args[1])")
            for event in run.events {
                for key in ["reason", "message"] {
                    XCTAssertLessThan((event[key] as? String)?.unicodeScalars.count ?? 0, 1000, "\(args[0]): \(event)".prefix(200) + "")
                }
            }
        }
    }

    /// `--clickhouse http://admin:pw@host/` and `--report http://u:p@host/`: one usage line that
    /// never prints the password, nothing asked.
    func testAURLWithAPasswordIsRefusedWithoutPrintingIt() throws {
        let collector = try Collector(status: 200)
        let withPassword = "http://admin:hunter2@127.0.0.1:\(collector.port)/"
        let png = try Fixtures.write("userinfo.png", Fixtures.solidPNG("blue"))
        for args in [
            ["fleet", "report", "--clickhouse", withPassword], ["play", png, "--report", withPassword],
            ["play", png, "--report", withPassword, "--report-format", "clickhouse"],
            ["fleet", "report", "--clickhouse", withPassword + " x"]
        ] {
            let run = try Launchad.run(args)
            XCTAssertEqual(run.status, 2, run.stderr)
            XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
            XCTAssertTrue(run.stderr.contains("may not hold a user or password"), run.stderr)
            XCTAssertFalse(run.stderr.contains("hunter2") || run.stdout.contains("hunter2"), run.stderr)
        }
        XCTAssertEqual(collector.received.count, 0)
    }

    /// A signed manifest with `"version"` twice is `malformed` (launchad read the first, jq the
    /// last); the same document unsigned is read as before.
    func testASignedManifestWithAKeyGivenTwiceIsMalformed() throws {
        let key = try Minisign(in: folder, name: "operator")
        let file = folder.appendingPathComponent("dup.json")
        try Data(#"{"version": 1, "ads": [], "version": 9}"#.utf8).write(to: file)
        try key.sign(file.path)
        let run = try Launchad.run(["manifest", "verify", file.path, "--trust-key", key.publicKeyFile])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(
            run.stderr,
            "launchad: \(file.path) refused (malformed): the key \"version\" is given twice at the manifest's top level "
                + "(readers differ on which one counts)\n")
        let unsigned = try Launchad.run(["prefetch", "--manifest", file.path, "--cache", folder.appendingPathComponent("c").path])
        XCTAssertEqual(unsigned.status, 0, unsigned.stderr)
    }
}
