import Foundation
import LaunchAdCLI
import LaunchAdTestSupport
import XCTest

@testable import LaunchAdEngine

final class LaunchProgressBarTests: XCTestCase {
    func testLineShowsBarPercentAndAmount() {
        XCTAssertEqual(
            ProgressBar.line(done: 1_200_000, total: 2_400_000, label: "spring-sale", unit: .bytes, width: 10),
            "spring-sale  [#####-----]  50%  1.2/2.4 MB")
        XCTAssertEqual(ProgressBar.line(done: 3, total: 3, label: "files", unit: .count, width: 4), "files  [####] 100%  3/3")
        XCTAssertEqual(
            ProgressBar.line(done: 0, total: 0, label: "x", unit: .count, width: 2), "x  [##] 100%  0/0", "nothing to do is done")
    }

    /// Drawn in place with carriage returns and ended with one newline.
    func testDrawsInPlaceAndFinishesTheLine() throws {
        let pipe = Pipe()
        let bar = ProgressBar(total: 100, unit: .count, output: pipe.fileHandleForWriting, width: 4)
        bar.update(100, label: "done")
        bar.finish()
        try pipe.fileHandleForWriting.close()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(text, "\r\u{1B}[2Kdone  [####] 100%  100/100\n")
    }

    /// prefetch draws it on stderr when asked, and never mixes it into the events on stdout.
    func testPrefetchProgressGoesToStderr() throws {
        let cache = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("launchad-bar-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let run = try Launchad.run(["prefetch", "--manifest", Fixtures.media("manifest.json"), "--cache", cache.path, "--progress"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("100%"), run.stderr)
        XCTAssertTrue(run.stderr.hasSuffix("\n"))
        XCTAssertFalse(run.stdout.contains("\r"))
        XCTAssertEqual(run.events.count, run.stdout.split(separator: "\n").count, "stdout is only JSON lines")
    }
}
