import Foundation
import LaunchAdTestSupport
import XCTest

/// The suite says what happened (issue 37): a test the watchdog stopped is counted as failed in
/// `scripts/test.sh`'s closing line (it printed `889 passed, 0 failed` for a run it stopped), and
/// the stacks `scripts/test-watchdog.sh` prints start with the main thread (gdb's `thread apply
/// all` began with the newest thread, and the cut fell before the one that was stuck).
final class TestScriptsTests: XCTestCase {
    private let scripts = Fixtures.repoRoot.appendingPathComponent("scripts")

    func testAStoppedTestCountsAsFailedAndIsNamed() throws {
        let log = try Fixtures.write(
            "stopped-run.log",
            Data(
                """
                Test Case 'ATests.testOne' started at 2026-01-01 10:00:00.000
                Test Case 'ATests.testOne' passed (0.1 seconds)
                Test Case 'ATests.testSkipped' started at 2026-01-01 10:00:00.100
                Test Case 'ATests.testSkipped' skipped (0.0 seconds)
                Test Case 'ScreenMatrixTests.testEveryCaseUnderOpenbox' started at 2026-01-01 10:00:00.200
                test: no output for 240 s during ScreenMatrixTests.testEveryCaseUnderOpenbox: stopped

                """.utf8))
        let run = try Fixtures.run("/bin/bash", [scripts.appendingPathComponent("test-counts.sh").path, log])
        XCTAssertEqual(run.stdout, "tests: 1 passed, 1 failed, 1 skipped\n")
        XCTAssertTrue(run.stderr.contains("ScreenMatrixTests.testEveryCaseUnderOpenbox was stopped by the watchdog"), run.stderr)
        // test.sh's closing line is this script's.
        let testScript = try String(contentsOf: scripts.appendingPathComponent("test.sh"), encoding: .utf8)
        XCTAssertTrue(testScript.contains("bash scripts/test-counts.sh \"$log\""))
    }

    func testTheWatchdogsStacksStartWithTheMainThread() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/gdb") else {
            throw XCTSkip("/usr/bin/gdb is not installed (scripts/setup.sh --test installs it)")
        }
        // A hung "test binary": its main thread waits on a lock, 40 threads beside it wait too
        // (more stacks than the watchdog prints); its name ends in .xctest as the real one's does.
        let hung = Process()
        hung.executableURL = URL(fileURLWithPath: "/bin/bash")
        hung.arguments = [
            "-c",
            """
            exec -a hung.xctest /usr/bin/python3 -c 'import threading
            stop = threading.Event()
            for _ in range(40): threading.Thread(target=stop.wait).start()
            print("ready", flush=True)
            held = threading.Lock(); held.acquire(); held.acquire()
            stop.wait()'
            """
        ]
        let out = Pipe()
        hung.standardOutput = out
        try hung.run()
        defer {
            kill(hung.processIdentifier, SIGKILL)
            hung.waitUntilExit()
        }
        _ = Launchad.read(out.fileHandleForReading, until: "ready")
        let log = try Fixtures.write("hung-run.log", Data("Test Case 'HungTests.testForever' started at 2026-01-01 10:00:00.000\n".utf8))
        let watchdog = try Fixtures.run(
            "/bin/bash", [scripts.appendingPathComponent("test-watchdog.sh").path, "\(hung.processIdentifier)", log, "5"])
        let threads = watchdog.stderr.split(separator: "\n").filter { $0.hasPrefix("Thread ") }
        XCTAssertGreaterThan(threads.count, 1, watchdog.stderr)
        XCTAssertTrue(threads.first?.hasPrefix("Thread 1 ") == true, "the main thread first: \(threads.prefix(3))")
        XCTAssertTrue(watchdog.stderr.contains("the test running: HungTests.testForever"), watchdog.stderr)
        XCTAssertTrue(try String(contentsOfFile: log, encoding: .utf8).contains("during HungTests.testForever: stopped"))
    }
}
