import LaunchAdCore
import LaunchAdTestSupport
import XCTest

@testable import LaunchAdCLI
@testable import LaunchAdEngine

final class ValidationOptionsTests: XCTestCase {
    private func usageError(_ args: [String], file: StaticString = #filePath, line: UInt = #line) -> String {
        oneLineError(UsageError.self, \.message, file: file, line: line) { _ = try Command.parse(args) }
    }

    func testValidate() throws {
        guard
            case .validate(let o) = try Command.parse([
                "validate", "a.mp4", "b.mp4", "--profile", "iab-ctv", "--format=junit",
                "--loudness", "ebu", "--output", "r.xml"
            ])
        else { return XCTFail() }
        XCTAssertEqual(o.files, ["a.mp4", "b.mp4"])
        XCTAssertEqual(o.profile, "iab-ctv")
        XCTAssertEqual(o.format, .junit)
        XCTAssertEqual(o.loudness, .ebu)
        XCTAssertEqual(o.output, "r.xml")
        guard case .validate(let d) = try Command.parse(["validate", "a.mp4"]) else { return XCTFail() }
        XCTAssertEqual(d.profile, "launch-ad")
        XCTAssertEqual(d.format, .text)
        XCTAssertNil(d.jobs, "one job per core unless told")
        guard case .validate(let j) = try Command.parse(["validate", "a.mp4", "--jobs", "3"]) else { return XCTFail() }
        XCTAssertEqual(j.jobs, 3)
        XCTAssertTrue(usageError(["validate", "a.mp4", "--jobs", "0"]).contains("--jobs"))
        XCTAssertEqual(usageError(["validate"]), "validate needs at least one FILE (or --vast URL|FILE)")
        XCTAssertEqual(
            usageError(["validate", "a.mp4", "--profile", "tv"]), "--profile takes one of iab-ctv, launch-ad, app-open, not 'tv'")
        XCTAssertEqual(usageError(["validate", "a.mp4", "--format", "xml"]), "--format takes one of text, json, junit, html, not 'xml'")
        guard case .validate(let h) = try Command.parse(["validate", "a.mp4", "--format", "html"]) else { return XCTFail() }
        XCTAssertEqual(h.format, .html)
        XCTAssertEqual(
            usageError(["validate", "a.mp4", "--profile", "iab-ctv", "--spec", "s.json"]), "--profile and --spec cannot be used together")
        XCTAssertTrue(usageError(["validate", "a.mp4", "--strict"]).contains("unknown option --strict"))
        guard case .help(let help) = try Command.parse(["validate", "--help"]) else { return XCTFail() }
        XCTAssertTrue(help.contains("--profile NAME"))
    }

    func testProbe() throws {
        XCTAssertEqual(try Command.parse(["probe", "a.mp4"]), .probe(ProbeOptions(file: "a.mp4")))
        XCTAssertEqual(usageError(["probe"]), "probe needs a FILE")
        XCTAssertEqual(usageError(["probe", "a", "b"]), "probe takes one FILE, got 2")
    }

    func testSnapshot() throws {
        guard case .snapshot(let o) = try Command.parse(["snapshot", "a.mp4", "--out", "s.png", "--count", "6", "--width", "200"]) else {
            return XCTFail()
        }
        XCTAssertEqual(o.count, 6)
        XCTAssertEqual(o.tileWidth, 200)
        XCTAssertEqual(o.gridColumns, 3)
        XCTAssertEqual(o.gridRows, 2)
        guard case .snapshot(let one) = try Command.parse(["snapshot", "a.mp4", "--out", "f.png", "--at", "2.5"]) else { return XCTFail() }
        XCTAssertEqual(one.at, 2.5)
        XCTAssertEqual(usageError(["snapshot", "a.mp4"]), "snapshot needs --out FILE.png")
        XCTAssertEqual(
            usageError(["snapshot", "a.mp4", "--out", "s.png", "--count", "0"]), "--count takes a whole number from 1 to 100, not '0'")
        XCTAssertEqual(
            usageError(["snapshot", "a.mp4", "--out", "s.png", "--count", "3", "--at", "1"]), "--count and --at cannot be used together")
        XCTAssertEqual(usageError(["snapshot", "a.mp4", "--out", "s.png", "--at", "-1"]), "--at takes a number from 0 to 86400, not '-1'")
    }
}
