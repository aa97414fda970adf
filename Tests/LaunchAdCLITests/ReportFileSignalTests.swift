import Foundation
import LaunchAdTestSupport
import XCTest

/// Issue 42, 6: TERM, INT or HUP during `fleet report --out FILE` left a `.FILE.XXXXXX` temporary
/// file each time. The temporary file goes on every way out, a signal included; FILE stays as it
/// was, and the process ends by the signal, as it did.
final class ReportFileSignalTests: FolderTestCase {
    func testASignalWhileTheReportIsAskedForLeavesNoTemporaryFile() throws {
        let server = try Collector(status: 200)
        server.hang = true
        defer { server.hang = false }
        let out = folder.appendingPathComponent("fleet.txt")
        try "the previous report\n".write(to: out, atomically: true, encoding: .utf8)
        for sig in [SIGTERM, SIGINT, SIGHUP] {
            let asked = server.received.count
            let p = Process()
            p.executableURL = URL(fileURLWithPath: Launchad.binary)
            p.arguments = ["fleet", "report", "--clickhouse", server.url, "--out", out.path, "--timeout", "60"]
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            // The file is made before ClickHouse is asked: the question means it exists.
            XCTAssertTrue(server.wait(for: asked + 1, timeout: 30), "\(sig): the report was not asked for")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).count, 2, "\(sig): the temporary file")
            kill(p.processIdentifier, sig)
            p.waitUntilExit()
            XCTAssertEqual(p.terminationReason, .uncaughtSignal, "\(sig)")
            XCTAssertEqual(p.terminationStatus, sig)
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["fleet.txt"], "\(sig)")
            XCTAssertEqual(try String(contentsOf: out, encoding: .utf8), "the previous report\n", "\(sig)")
        }
    }
}
