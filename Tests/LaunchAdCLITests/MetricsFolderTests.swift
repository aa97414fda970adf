import Foundation
import LaunchAdTestSupport
import XCTest

/// The package's tmpfiles.d entry (packaging/tmpfiles/launchad.conf) as systemd-tmpfiles applies
/// it at install: Debian's node-exporter textfile folder, root's and 0755, becomes writable by a
/// user of the entry's group, who can then put launchad.prom there the way `--metrics` does (a
/// hidden temporary file renamed over it). Applied in a scratch root; the group is `nogroup`
/// here, since `launchad` exists only where the package made it.
final class MetricsFolderTests: XCTestCase {
    private var root = ""
    private let folder = "/var/lib/prometheus/node-exporter"

    override func setUpWithError() throws {
        try EnvironmentSkip.unlessRoot("systemd-tmpfiles setting an ACL, then a write as nobody")
        for tool in ["/usr/bin/systemd-tmpfiles", "/usr/bin/setpriv"] where !FileManager.default.isExecutableFile(atPath: tool) {
            throw XCTSkip("\(tool) is not installed")
        }
        root = NSTemporaryDirectory() + "launchad-tmpfiles-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root + "/usr/lib/tmpfiles.d", withIntermediateDirectories: true)
        XCTAssertEqual(chmod(root, 0o755), 0, "nobody may walk into the scratch root")
    }

    override func tearDown() {
        if !root.isEmpty { try? FileManager.default.removeItem(atPath: root) }
    }

    /// Applies the shipped entry (its group renamed to `group`) in the scratch root.
    private func applyEntry(group: String) throws {
        let shipped = try String(
            contentsOf: Fixtures.repoRoot.appendingPathComponent("packaging/tmpfiles/launchad.conf"), encoding: .utf8)
        XCTAssertTrue(shipped.contains("group:launchad:rwx"), shipped)
        let entry = shipped.replacingOccurrences(of: "group:launchad:", with: "group:\(group):")
        try Data(entry.utf8).write(to: URL(fileURLWithPath: root + "/usr/lib/tmpfiles.d/launchad.conf"))
        let out = try Fixtures.run("/usr/bin/systemd-tmpfiles", ["--create", "--root=\(root)", "launchad.conf"])
        XCTAssertEqual(out.status, 0, out.stderr)
        XCTAssertEqual(out.stderr, "", "the entry applies without a complaint")
    }

    /// What `--metrics` does, as nobody (group nogroup): a temporary file, renamed into place.
    private func writeAsNobody() throws -> Fixtures.Result {
        let dir = root + folder
        return try Fixtures.run(
            "/usr/bin/setpriv",
            [
                "--reuid=65534", "--regid=65534", "--clear-groups", "/bin/sh", "-c",
                "printf 'launchad_build_info 1\\n' > \"$1/.launchad.prom.tmp-1\" && mv \"$1/.launchad.prom.tmp-1\" \"$1/launchad.prom\"",
                "sh", dir
            ])
    }

    func testTheGroupMayWriteTheMetricsFile() throws {
        try applyEntry(group: "nogroup")
        let attributes = try FileManager.default.attributesOfItem(atPath: root + folder)
        XCTAssertEqual(attributes[.ownerAccountID] as? Int, 0, "still root's")
        XCTAssertEqual(attributes[.posixPermissions] as? Int, 0o775, "the ACL's mask shows as the group bits")
        let write = try writeAsNobody()
        XCTAssertEqual(write.status, 0, write.stderr)
        XCTAssertEqual(try String(contentsOfFile: root + folder + "/launchad.prom", encoding: .utf8), "launchad_build_info 1\n")
    }

    func testAFolderThatIsThereKeepsItsOwners() throws {
        try FileManager.default.createDirectory(atPath: root + "/var/lib/prometheus", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            atPath: root + folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o750])
        XCTAssertEqual(chown(root + folder, 0, 65534), 0)
        try applyEntry(group: "nogroup")
        let attributes = try FileManager.default.attributesOfItem(atPath: root + folder)
        XCTAssertEqual(attributes[.groupOwnerAccountID] as? Int, 65534, "the entry does not take the folder over")
        XCTAssertEqual(attributes[.ownerAccountID] as? Int, 0)
        XCTAssertEqual(try writeAsNobody().status, 0)
    }

    /// Without the entry's group the folder is what Debian ships: nobody cannot write there.
    func testAnotherGroupStillCannotWrite() throws {
        try applyEntry(group: "root")
        let write = try writeAsNobody()
        XCTAssertNotEqual(write.status, 0)
        XCTAssertTrue(write.stderr.contains("Permission denied"), write.stderr)
    }
}
