import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

/// Issue 31's rules, read off the sources so that they cannot creep back: an event is built only
/// from a `LaunchEvent` case (AdEvent has no initialiser taking a name: the compiler holds
/// that), and no code decides by comparing an event's name string.
final class TypedRunRulesTests: XCTestCase {
    private func sources() throws -> [(path: String, text: String)] { try SourceFiles.all() }

    func testNoDecisionComparesAnEventsName() throws {
        // An event's name compared, switched on, or a field looked up by name to decide: the
        // receivers events go by in this code (event, e, ev, adEvent, the stamped event's event).
        let receiver = #"(event|e|ev|adEvent)"#
        let pattern = [
            #"\b"# + receiver + #"\.(event\.)?name\s*[!=]="#,
            #"[!=]=\s*"# + receiver + #"\.name\b"#,
            #"switch\s+"# + receiver + #"\.name\b"#,
            #"\b"# + receiver + #"\[""#
        ].joined(separator: "|")
        let rule = try NSRegularExpression(pattern: pattern)
        var found: [String] = []
        for (path, text) in try sources() where !path.hasPrefix("Sources/LaunchAdTestSupport/") {
            for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let s = String(line)
                if rule.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)) != nil { found.append("\(path):\(n + 1): \(s)") }
            }
        }
        XCTAssertEqual(found, [], "decide on LaunchEvent's cases, not on a name")
    }

    func testEveryEventKindHasItsOwnName() {
        // The golden test holds each line; here: no two cases share a name (a rename that
        // collided would be read as the other event).
        let samples: [LaunchEvent] = [
            .firstFrame(fallback: false), .quartile(25), .mute, .unmute, .waitExpired(waitedMs: 1), .error(PlayError(.notMedia, "m")),
            .end(RunEnd(outcome: .completed)), .adEnd(adID: nil, sequence: nil, end: RunEnd(outcome: .completed)),
            .cacheMiss(reason: .empty), .outboxError(reason: "r"), .outboxUnavailable(reason: "r"), .reportRefused(reason: "r"),
            .metricsUnavailable(reason: "r"),
            .audioUnavailable(message: "m"), .fontMissing(message: "m"), .logoUnavailable(message: "m"), .readError(message: "m"),
            .renderError(message: "m")
        ]
        XCTAssertEqual(Set(samples.map(\.name)).count, samples.count)
    }
}
