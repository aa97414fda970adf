import Foundation
import XCTest

@testable import LaunchAdCLI
@testable import LaunchAdEngine

/// Each option's default is written once in the text a reader sees (`--help`, the man page) and
/// once as the value the parser starts from; this holds them to each other: giving an option its
/// stated default explicitly must parse to exactly the command given without it.
final class HelpDefaultsTests: XCTestCase {
    /// The least each command takes to parse.
    private let base: [String: [String]] = [
        "play": ["play", "ad.mp4"], "probe": ["probe", "ad.mp4"], "validate": ["validate", "ad.mp4"],
        "snapshot": ["snapshot", "ad.mp4", "--out", "sheet.png"], "preview": ["preview", "ad.mp4", "--out", "p.png"],
        "prefetch": ["prefetch", "--manifest", "https://ads.example/m.json"],
        "outbox": ["outbox", "status"], "schedule": ["schedule", "--manifest", "m.json"],
        "fleet": ["fleet", "report", "--clickhouse", "http://127.0.0.1:8123"],
        "manifest": ["manifest", "verify", "m.json", "--trust-key", "launchad.pub"]
    ]

    /// Where giving the stated default is meant to differ from not giving it.
    private let unchecked: Set<String> = [
        // The report goes to stdout unless --out names a file: "stdout" is no file name.
        "fleet --out",
        // Unset, the screen follows --device, else `PrefetchOptions.defaultScreen` (its help reads it).
        "prefetch --size",
        // validate remembers a profile it was given: only the default's judgement gets the CTV hint.
        "validate --profile"
    ]

    /// "(default 5)", "(default launch-ad)", "(default \"Skip\")": one word stated as the default.
    private func statedDefault(_ text: String) -> String? {
        guard let r = text.range(of: #"\(default "?[^ ,;:()"]+"?\)"#, options: .regularExpression) else { return nil }
        return String(text[r].dropFirst("(default ".count).dropLast()).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
    }

    func testAStatedDefaultGivenExplicitlyChangesNothing() throws {
        var checked: [String] = []
        // launch remembers which options its command line gave, since those outrank the manifest's.
        for entry in CommandCatalog.launchad.commands where entry.page != nil && entry.name != "launch" {
            let args = try XCTUnwrap(base[entry.name], "a base command line for \(entry.name)")
            let plain = try Command.parse(args)
            for option in entry.entries {
                guard let value = statedDefault(option.text), let spelling = option.spellings.first(where: { $0.argument != nil })
                else { continue }
                // The value a placeholder names ($XDG_STATE_HOME…) or a derived one is not a word to give.
                guard !value.hasPrefix("$"), !unchecked.contains("\(entry.name) \(spelling.name)") else { continue }
                // An option that needs another first (--report-table needs --report-format clickhouse).
                guard let given = try? Command.parse(args + [spelling.name, value]) else { continue }
                XCTAssertEqual(
                    given, plain, "\(entry.name) \(spelling.name): its help says (default \(value)), its parser starts elsewhere")
                checked.append("\(entry.name) \(spelling.name)")
            }
        }
        XCTAssertGreaterThan(checked.count, 25, "the stated defaults were found: \(checked)")
    }
}
