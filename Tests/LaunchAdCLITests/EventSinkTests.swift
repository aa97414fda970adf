import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

@testable import LaunchAdCLI
@testable import LaunchAdEngine

final class EventSinkTests: XCTestCase {
    func testRecordingSinkKeepsOrder() {
        let sink = RecordingSink()
        XCTAssertEqual(sink.events, [])
        sink.emit(AdEvent(.mute, tMs: 1))
        sink.emit(AdEvent(.unmute, tMs: 2))
        XCTAssertEqual(sink.events.map(\.name), ["mute", "unmute"])
    }

    func testRecordingSinkFromManyThreads() {
        let sink = RecordingSink()
        DispatchQueue.concurrentPerform(iterations: 500) { i in sink.emit(AdEvent(.mute, tMs: i)) }
        XCTAssertEqual(sink.events.count, 500)
        XCTAssertEqual(Set(sink.events.map(\.tMs)).count, 500)
    }

    func testTeeSendsToEverySink() {
        let a = RecordingSink(), b = RecordingSink()
        let tee = TeeSink([a, b])
        tee.emit(AdEvent(.mute, tMs: 3))
        XCTAssertEqual(a.events, [AdEvent(.mute, tMs: 3)])
        XCTAssertEqual(b.events, [AdEvent(.mute, tMs: 3)])
    }

    func testJSONLinesSinkWritesOneObjectPerLine() throws {
        let path = NSTemporaryDirectory() + "launchad-events-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "old content that must go\n".write(toFile: path, atomically: true, encoding: .utf8)
        let sink = try JSONLinesSink(path: path)
        sink.emit(AdEvent(.firstFrame(fallback: false), tMs: 80))
        sink.emit(AdEvent(.end(RunEnd(outcome: .completed, shownMs: 5000)), tMs: 5400))
        let text = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertEqual(
            text,
            """
            {"event":"first_frame","t_ms":80,"fallback":false}
            {"event":"end","t_ms":5400,"outcome":"completed","shown_ms":5000}

            """)
    }

    func testJSONLinesSinkFromManyThreadsKeepsLinesWhole() throws {
        let path = NSTemporaryDirectory() + "launchad-events-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let sink = try JSONLinesSink(path: path)
        DispatchQueue.concurrentPerform(iterations: 200) { i in
            sink.emit(AdEvent(.readError(message: String(repeating: "x", count: 300)), tMs: i))
        }
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, 200)
        for line in lines { _ = parseJSON(String(line)) }
    }

    func testJSONLinesSinkInAMissingFolderIsAUsageError() {
        XCTAssertThrowsError(try JSONLinesSink(path: "/nonexistent-launchad-dir/x/events.jsonl")) { error in
            let message = (error as? UsageError)?.message ?? ""
            XCTAssertTrue(message.contains("/nonexistent-launchad-dir/x/events.jsonl"), message)
        }
    }
}
