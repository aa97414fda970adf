import Foundation
import LaunchAdTestSupport
import XCTest

/// Issue 42, 6: TERM, INT or HUP during `fleet report --out FILE` left a `.FILE.XXXXXX` temporary
/// file each time; review 2: so did USR1, USR2, ALRM, PIPE, XFSZ and every other signal whose
/// default action ends the process. The temporary file goes on every way out, a signal included;
/// FILE stays as it was, and the process ends by the signal, as it did.
final class ReportFileSignalTests: FolderTestCase {
    func testASignalWhileTheReportIsAskedForLeavesNoTemporaryFile() throws {
        let server = try Collector(status: 200)
        server.hang = true
        defer { server.hang = false }
        let out = folder.appendingPathComponent("fleet.txt")
        try "the previous report\n".write(to: out, atomically: true, encoding: .utf8)
        let ending: [Int32] = [
            SIGTERM, SIGINT, SIGHUP, SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE, SIGXFSZ, SIGXCPU, SIGVTALRM, SIGPROF, SIGSYS, SIGSTKFLT,
            SIGPWR, SIGIO, __libc_current_sigrtmin(), __libc_current_sigrtmax()
        ]
        // (QUIT, ABRT, SEGV, BUS, FPE, ILL and TRAP are taken too while at their default; the Swift
        // runtime's backtracer, when on, handles them first, and the report then goes on to its end.)
        for sig in ending {
            // A signal this process ignores is ignored by the report too (not at its default: left alone).
            var current = sigaction()
            sigaction(sig, nil, &current)
            if unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) { continue }
            let asked = server.received.count
            let p = Process()
            // No core file from the signals whose default dumps one.
            p.executableURL = URL(fileURLWithPath: "/bin/sh")
            p.arguments = [
                "-c", #"ulimit -c 0; exec "$0" "$@""#, Launchad.binary, "fleet", "report", "--clickhouse", server.url, "--out", out.path,
                "--timeout", "60"
            ]
            p.currentDirectoryURL = folder
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
