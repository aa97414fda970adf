import Foundation
import LaunchAdTestSupport
import XCTest

/// The shipped kiosk launch (packaging/libexec/kiosk-launch) as the cage and weston units run it:
/// /etc/default/launchad's LAUNCHAD_OPTIONS and KIOSK_APP become words at spaces and nothing
/// else, whatever files the working folder holds. launchad is replaced by a probe that writes
/// the arguments it was given, one per line.
final class KioskLaunchScriptTests: XCTestCase {
    private var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "launchad-kiosk-launch-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/cwd", withIntermediateDirectories: true)
        // What a glob would pick up: `*` matches both, `?.png` the second.
        for name in ["ad.mp4", "x.png"] { try Data().write(to: URL(fileURLWithPath: "\(dir)/cwd/\(name)")) }
        let script = try String(contentsOf: Fixtures.repoRoot.appendingPathComponent("packaging/libexec/kiosk-launch"), encoding: .utf8)
        XCTAssertTrue(script.contains("exec /usr/bin/launchad launch "), "the script starts the installed launchad")
        try write(dir + "/kiosk-launch", script.replacingOccurrences(of: "/usr/bin/launchad", with: dir + "/probe"))
        try write(dir + "/probe", "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > \"\(dir)/argv\"\n")
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: dir)
    }

    private func write(_ path: String, _ text: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(chmod(path, 0o755), 0)
    }

    /// Runs the script in the folder with the files, with `settings` as its environment.
    private func launch(_ settings: [String: String]) throws -> (Fixtures.Result, [String]?) {
        var env = settings
        env["PATH"] = "/usr/bin:/bin"
        let run = try Fixtures.run(
            "/bin/sh", ["-c", "cd \"$1\" && exec /bin/sh \"$2\"", "sh", dir + "/cwd", dir + "/kiosk-launch"], environment: env)
        let argv = try? String(contentsOfFile: dir + "/argv", encoding: .utf8)
        return (run, argv.map { $0.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) })
    }

    func testOptionsAndTheAppAreSplitAtSpacesAndNeverGlobbed() throws {
        let (run, argv) = try launch([
            "LAUNCHAD_MANIFEST": "https://ads.example.com/m.json",
            "LAUNCHAD_OPTIONS": "--rotate 90  --logo ?.png",
            "KIOSK_APP": "/usr/bin/kiosk-app --match * --name [a]d.mp4"
        ])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(
            argv,
            [
                "launch", "--manifest", "https://ads.example.com/m.json", "--fullscreen", "--rotate", "90", "--logo", "?.png",
                "--then", "/usr/bin/kiosk-app", "--match", "*", "--name", "[a]d.mp4"
            ])
    }

    func testAManifestWithSpacesStaysOneWordAndOptionsMayBeEmpty() throws {
        let (run, argv) = try launch([
            "LAUNCHAD_MANIFEST": "/srv/ads/my ads.json", "LAUNCHAD_OPTIONS": "", "KIOSK_APP": "/usr/bin/kiosk-app"
        ])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(argv, ["launch", "--manifest", "/srv/ads/my ads.json", "--fullscreen", "--then", "/usr/bin/kiosk-app"])
    }

    /// Issue 40: LAUNCHAD_TRUST (the keys, shared with the prefetch timer) reaches launch as
    /// its words, before the other options.
    func testTheTrustedKeysReachLaunch() throws {
        let (run, argv) = try launch([
            "LAUNCHAD_MANIFEST": "https://ads.example.com/m.json", "KIOSK_APP": "/usr/bin/kiosk-app",
            "LAUNCHAD_TRUST": "--trust-key=/etc/launchad/minisign.pub --trust-key=/etc/launchad/next.pub", "LAUNCHAD_OPTIONS": "--mute"
        ])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(
            argv,
            [
                "launch", "--manifest", "https://ads.example.com/m.json", "--fullscreen", "--trust-key=/etc/launchad/minisign.pub",
                "--trust-key=/etc/launchad/next.pub", "--mute", "--then", "/usr/bin/kiosk-app"
            ])
    }

    func testAMissingSettingNamesTheFileAndStartsNothing() throws {
        let (run, argv) = try launch(["LAUNCHAD_MANIFEST": "https://ads.example.com/m.json"])
        XCTAssertNotEqual(run.status, 0)
        XCTAssertTrue(run.stderr.contains("KIOSK_APP: set KIOSK_APP in /etc/default/launchad"), run.stderr)
        XCTAssertNil(argv, "launchad was not started")
    }
}
