import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

@testable import LaunchAdCLI

/// One `end` per run however the race between a stuck thread that wakes and the supervisor that
/// ended the run without it goes (issue 37): the events' end is a claim, and nothing follows it;
/// the app is started once and both may wait for it.
final class RunEndClaimTests: XCTestCase {
    private func lines(_ path: String) throws -> [[String: Any]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
            try XCTUnwrap(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    func testWhoeverEndsTheRunFirstWritesTheOnlyEndAndNothingFollowsIt() throws {
        for round in 0..<50 {
            let path = NSTemporaryDirectory() + "launchad-claim-\(UUID().uuidString).jsonl"
            defer { try? FileManager.default.removeItem(atPath: path) }
            let sink = try JSONLinesSink(path: path)
            sink.emit(.firstFrame(fallback: false))
            let claims = Locked<[Bool]>([])
            // The player's thread ends the ad as its session decided, while the supervisor claims
            // the end with its error: one of them writes.
            DispatchQueue.concurrentPerform(iterations: 2) { i in
                if i == 0 {
                    sink.emit(.end(RunEnd(outcome: .skipped, shownMs: 10)))
                    sink.emit(.controlError(line: "late", message: "after the end"))
                } else {
                    let now = ProcessClock.nowMs()
                    let wrote = sink.endRun(with: [
                        AdEvent(.error(PlayError(.playerStuck, "stuck")), tMs: now), AdEvent(.end(RunEnd(outcome: .error)), tMs: now)
                    ])
                    claims.withLock { $0.append(wrote) }
                }
            }
            let names = try lines(path).compactMap { $0["event"] as? String }
            XCTAssertEqual(names.filter { $0 == "end" }.count, 1, "round \(round): \(names)")
            XCTAssertEqual(names.last, "end", "round \(round): \(names)")
            XCTAssertFalse(names.contains("control_error"), "nothing after the end")
            let supervisorWon = claims.withLock { $0 } == [true]
            XCTAssertEqual(names, supervisorWon ? ["first_frame", "error", "end"] : ["first_frame", "end"], "round \(round)")
            XCTAssertEqual(sink.writtenEnd, supervisorWon ? .error : .skipped)
        }
    }

    func testTheAppStartsOnceAndEveryWaiterGetsItsStatus() throws {
        let launch = AppLaunch(["/bin/sh", "-c", "exit 42"])
        // Three threads start and wait at once: one reaps it, and the others must not get 127
        // (waitpid's ECHILD) for an app that exited 42.
        let starts = Locked(0)
        let start: @Sendable () -> AppProcess? = {
            starts.withLock { $0 += 1 }
            return try? AppProcess.spawn(launch.command)
        }
        let statuses = Locked<[Int32]>([])
        DispatchQueue.concurrentPerform(iterations: 3) { _ in
            guard let app = launch.start(start) else { return }
            statuses.withLock { $0.append(app.wait()) }
        }
        XCTAssertEqual(starts.withLock { $0 }, 1)
        XCTAssertEqual(statuses.withLock { $0 }, [42, 42, 42])
    }
}
