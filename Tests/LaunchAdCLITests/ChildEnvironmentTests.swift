import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

/// Issue 42, 12: `launch --then APP` passed `LAUNCHAD_CLICKHOUSE_USER` and `LAUNCHAD_CLICKHOUSE_KEY`
/// to the app. The programs launchad starts (the app, the link opener) take their environment
/// from `ChildEnvironment`, which keeps launchad's secrets back.
final class ChildEnvironmentTests: FolderTestCase {
    static let secrets = [
        "LAUNCHAD_CLICKHOUSE_USER": "kiosk", "LAUNCHAD_CLICKHOUSE_KEY": "the-secret-key",
        "LAUNCHAD_CLICKHOUSE_URL": "https://ch.example.com:8443", "LAUNCHAD_CLICKHOUSE_CREDENTIALS": "/etc/launchad/clickhouse"
    ]

    /// The environment launchad runs in: the secrets, and one of the user's own.
    func environment() -> [String: String] {
        var env = Launchad.headlessEnvironment(Self.secrets)
        env["KIOSK_MODE"] = "lobby"
        return env
    }

    func assertNoSecretIn(_ printed: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(printed.contains("LAUNCHAD_CLICKHOUSE") || printed.contains("the-secret-key"), printed, file: file, line: line)
        XCTAssertTrue(printed.contains("KIOSK_MODE=lobby\n"), "the user's own variables pass: \(printed)", file: file, line: line)
    }

    func testTheThenAppDoesNotGetLaunchadsSecrets() throws {
        let run = try Launchad.run(
            [
                "launch", "--manifest", "http://127.0.0.1:\(try freePort())/m.json", "--cache", folder.appendingPathComponent("cache").path,
                "--retries", "0", "--then", "env"
            ], environment: environment())
        XCTAssertEqual(run.status, 0, run.stderr)
        assertNoSecretIn(run.stdout)
    }

    func testTheLinkOpenerDoesNotGetLaunchadsSecrets() throws {
        let clip = try Fixtures.colourBars(seconds: 2, audio: false)
        let printed = folder.appendingPathComponent("env.txt").path
        let script = folder.appendingPathComponent("xdg-open").path
        try "#!/bin/sh\nenv > \(printed).part && mv \(printed).part \(printed)\n".write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        var env = environment()
        env["PATH"] = folder.path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        let run = try LiveRun(["play", clip, "--control", "stdin", "--link", "https://example.com/", "--open-links"], environment: env)
        XCTAssertNotNil(run.waitFor("first_frame"))
        run.send("click")
        XCTAssertEqual(run.finish(), 0)
        XCTAssertTrue(Wait.forFile(printed))
        assertNoSecretIn(try String(contentsOfFile: printed, encoding: .utf8))
    }
}
