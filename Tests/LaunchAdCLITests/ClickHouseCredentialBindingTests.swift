import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

/// Issue 42, 11: `fleet report` sent a key tied by its `url =` line to `https://ch.example.com:8443`
/// to whatever `--clickhouse` named, in clear over http, where `play` kept its records back.
/// Credentials leave `ClickHouseCredentials` only through `headers(for:)`, the one binding check,
/// and every sender takes them there.
final class ClickHouseCredentialBindingTests: FolderTestCase {
    /// A credentials file, mode 600, with `url` when given.
    func credentials(url: String?) throws -> String {
        let file = folder.appendingPathComponent("clickhouse-\(UUID().uuidString).conf")
        try "user = kiosk\nkey = the-secret-key\n\(url.map { "url = \($0)\n" } ?? "")".write(to: file, atomically: true, encoding: .utf8)
        chmod(file.path, 0o600)
        return file.path
    }

    static let bound = "https://ch.example.com:8443"

    func testFleetReportSendsBoundCredentialsOnlyToTheirServer() throws {
        let collector = try Collector(status: 200)
        collector.answer = Data(#"{"now":"1767312000","version":"x"}"#.utf8)
        let refused = "launchad: the ClickHouse credentials are for \(Self.bound), not http://127.0.0.1:\(collector.port)\n"
        // From a file and from the environment alike.
        let file = try Launchad.run([
            "fleet", "report", "--clickhouse", collector.url, "--clickhouse-credentials", try credentials(url: Self.bound)
        ])
        XCTAssertEqual(file.status, 1, file.stderr)
        XCTAssertEqual(file.stderr, refused)
        let env = Launchad.headlessEnvironment([
            "LAUNCHAD_CLICKHOUSE_USER": "kiosk", "LAUNCHAD_CLICKHOUSE_KEY": "the-secret-key", "LAUNCHAD_CLICKHOUSE_URL": Self.bound
        ])
        let fromEnvironment = try Launchad.run(["fleet", "report", "--clickhouse", collector.url], environment: env)
        XCTAssertEqual(fromEnvironment.status, 1, fromEnvironment.stderr)
        XCTAssertEqual(fromEnvironment.stderr, refused)
        XCTAssertEqual(collector.received.count, 0, "nothing sent, the key least of all")
        // Credentials that name no server go to the one the command line names.
        let anywhere = try Launchad.run([
            "fleet", "report", "--clickhouse", collector.url, "--clickhouse-credentials", try credentials(url: nil)
        ])
        XCTAssertEqual(anywhere.status, 0, anywhere.stderr)
        XCTAssertEqual(collector.received.first?.header("X-ClickHouse-Key"), "the-secret-key")
        XCTAssertEqual(Set(collector.received.map { $0.header("X-ClickHouse-User") }), ["kiosk"])
    }

    func testPlayKeepsRecordsWhoseCredentialsAreForAnotherServer() throws {
        let collector = try Collector(status: 200)
        let state = folder.appendingPathComponent("state")
        let png = try Fixtures.write("binding.png", Fixtures.solidPNG("blue"))
        let play = try Launchad.run([
            "play", png, "--duration", "0.2", "--state", state.path, "--report", collector.url, "--report-format", "clickhouse",
            "--clickhouse-credentials", try credentials(url: Self.bound), "--beacon-wait", "5"
        ])
        XCTAssertEqual(play.status, 0, play.stderr)
        let status = try Launchad.run(["outbox", "status", "--state", state.path])
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(json["pending_records"] as? Int, 1, status.stdout)
        let host = try XCTUnwrap((json["hosts"] as? [String: Any])?["127.0.0.1:\(collector.port)"] as? [String: Any])
        XCTAssertTrue(
            (host["last_problem"] as? String)?.contains("the ClickHouse credentials are for \(Self.bound), not http://127.0.0.1:") == true,
            "\(host)")
        XCTAssertEqual(collector.received.count, 0)
    }

    /// The credential headers are written in one place: no sender can build them on its own.
    func testTheCredentialHeadersAreMadeInOnePlace() throws {
        let makers = try SourceFiles.all().filter { $0.text.contains("X-ClickHouse-Key") }.map(\.path)
        XCTAssertEqual(makers, ["Sources/LaunchAdCore/Fleet/ClickHouseCredentials.swift"])
    }
}
