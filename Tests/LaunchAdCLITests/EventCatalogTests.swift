import Foundation
import LaunchAdTestSupport
import XCTest

@testable import LaunchAdCLI
@testable import LaunchAdEngine

/// launchad-events(7) lists every kind of event there is, each with its fields: the kinds of the
/// golden lines of `EventGoldenTests`, which hold every kind's line byte for byte (a new kind gets
/// its golden line there, so it must get its entry here), and at least the fields those lines have.
final class EventCatalogTests: XCTestCase {
    /// Each kind's fields (the keys after event and t_ms) in the golden test's lines.
    private func goldenFields() throws -> [String: Set<String>] {
        let source = try String(
            contentsOf: Fixtures.repoRoot.appendingPathComponent("Tests/LaunchAdCoreTests/EventGoldenTests.swift"), encoding: .utf8)
        var kinds: [String: Set<String>] = [:]
        for part in source.components(separatedBy: "#\"").dropFirst() {
            guard let end = part.range(of: "\"#") else { continue }
            let line = String(part[..<end.lowerBound])
            guard line.hasPrefix("{\"event\":"),
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let name = object["event"] as? String
            else { continue }
            kinds[name, default: []].formUnion(object.keys.filter { $0 != "event" && $0 != "t_ms" })
        }
        return kinds
    }

    func testEveryKindWithEveryField() throws {
        let golden = try goldenFields()
        XCTAssertGreaterThan(golden.count, 40, "the golden lines were read")
        let entries = EventCatalog.entries
        XCTAssertEqual(Set(entries.map(\.name)), Set(golden.keys), "launchad-events(7) lists the kinds the golden test writes")
        XCTAssertEqual(entries.count, Set(entries.map(\.name)).count, "each kind once")
        for entry in entries {
            XCTAssertEqual(Set(entry.samples.map(\.name)), [entry.name], "one kind per entry")
            XCTAssertTrue(Set(entry.fields).isSuperset(of: golden[entry.name] ?? []), "\(entry.name): \(entry.fields)")
            XCTAssertFalse(entry.summary.isEmpty, entry.name)
            XCTAssertTrue(
                FileManager.default.fileExists(atPath: Fixtures.repoRoot.appendingPathComponent("docs/\(entry.page).md").path),
                "\(entry.name) points at docs/\(entry.page).md")
        }
    }

    func testThePageNamesEachKindOutcomeAndErrorCode() throws {
        let run = try Launchad.run(["help", "--man", "events"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.hasPrefix(".TH LAUNCHAD-EVENTS 7 "), String(run.stdout.prefix(60)))
        for entry in EventCatalog.entries {
            let name = entry.name.replacingOccurrences(of: "-", with: "\\-")
            XCTAssertTrue(run.stdout.contains("\\fB\(name)\\fR\n"), entry.name)
        }
        for word in [
            "completed", "ended_by_host", "no_ad", "timeout", "file_not_found", "media_stalled", "vast_303", "shown_ms, frames_shown"
        ] {
            XCTAssertTrue(run.stdout.contains(word), word)
        }
    }
}
