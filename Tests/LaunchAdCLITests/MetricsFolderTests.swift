import Foundation
import LaunchAdTestSupport
import XCTest

/// The package's metrics folder as its postinst makes it (packaging/debian/postinst, with the
/// sysusers.d and tmpfiles.d entries), run in a scratch root laid out as Debian 12 has it with
/// prometheus-node-exporter: /var/lib/prometheus owned by the exporter's user, its
/// node-exporter folder root's and 0755. A user of the group launchad then writes launchad.prom
/// the way `--metrics` does (a hidden temporary file renamed over it), and the exporter's folder
/// holds a link to it.
final class MetricsFolderTests: XCTestCase {
    private var root = ""
    private let exporter = "/var/lib/prometheus/node-exporter"
    private let metrics = "/var/lib/launchad/metrics"

    override func setUpWithError() throws {
        try EnvironmentSkip.unlessRoot("the postinst makes a group and a folder, then a write as nobody")
        for tool in ["/usr/bin/systemd-sysusers", "/usr/bin/systemd-tmpfiles", "/usr/bin/setpriv"]
        where !FileManager.default.isExecutableFile(atPath: tool) {
            throw XCTSkip("\(tool) is not installed")
        }
        root = NSTemporaryDirectory() + "launchad-postinst-\(UUID().uuidString)"
        let fm = FileManager.default
        for dir in ["/etc", "/usr/lib/sysusers.d", "/usr/lib/tmpfiles.d", exporter] {
            try fm.createDirectory(atPath: root + dir, withIntermediateDirectories: true)
        }
        for dir in ["", "/var", "/var/lib", "/var/lib/prometheus", exporter] { XCTAssertEqual(chmod(root + dir, 0o755), 0) }
        XCTAssertEqual(chown(root + "/var/lib/prometheus", 65534, 65534), 0, "the exporter's user owns its parent, as on Debian")
        for kind in ["sysusers", "tmpfiles"] {
            try fm.copyItem(
                atPath: Fixtures.repoRoot.appendingPathComponent("packaging/\(kind)/launchad.conf").path,
                toPath: root + "/usr/lib/\(kind).d/launchad.conf")
        }
    }

    override func tearDown() {
        if !root.isEmpty { try? FileManager.default.removeItem(atPath: root) }
    }

    private func maintainerScript(_ name: String, _ args: [String]) throws {
        let script = Fixtures.repoRoot.appendingPathComponent("packaging/debian/\(name)").path
        let out = try Fixtures.run(
            "/bin/sh", [script] + args, environment: ["DPKG_ROOT": root, "PATH": "/usr/bin:/bin:/usr/sbin:/sbin"])
        XCTAssertEqual(out.status, 0, out.stderr)
        XCTAssertEqual(out.stderr.split(separator: "\n").filter { !$0.hasPrefix("Creating group 'launchad'") }, [], "\(name) \(args)")
    }

    /// The group's id in the scratch root's /etc/group.
    private func launchadGroup() throws -> Int {
        let group = try String(contentsOfFile: root + "/etc/group", encoding: .utf8)
        let line = group.split(separator: "\n").first { $0.hasPrefix("launchad:") }
        return try XCTUnwrap(line.flatMap { Int($0.split(separator: ":")[2]) }, group)
    }

    /// What `--metrics` does, as nobody with `groups` as its supplementary groups.
    private func writeAsNobody(groups: [Int]) throws -> Fixtures.Result {
        try Fixtures.run(
            "/usr/bin/setpriv",
            [
                "--reuid=65534", "--regid=65534",
                groups.isEmpty ? "--clear-groups" : "--groups=\(groups.map(String.init).joined(separator: ","))",
                "/bin/sh", "-c",
                "printf 'launchad_build_info 1\\n' > \"$1/.launchad.prom.tmp-1\" && mv \"$1/.launchad.prom.tmp-1\" \"$1/launchad.prom\"",
                "sh", root + metrics
            ])
    }

    func testAUserOfTheGroupWritesTheFileTheExporterReads() throws {
        try maintainerScript("postinst", ["configure"])
        let gid = try launchadGroup()
        let folder = try FileManager.default.attributesOfItem(atPath: root + metrics)
        XCTAssertEqual(folder[.ownerAccountID] as? Int, 0)
        XCTAssertEqual(folder[.groupOwnerAccountID] as? Int, gid)
        XCTAssertEqual(folder[.posixPermissions] as? Int, 0o2775)
        XCTAssertEqual(
            try FileManager.default.destinationOfSymbolicLink(atPath: root + exporter + "/launchad.prom"), metrics + "/launchad.prom")
        let untouched = try FileManager.default.attributesOfItem(atPath: root + exporter)
        XCTAssertEqual(untouched[.ownerAccountID] as? Int, 0, "the exporter's folder is left as it is")
        XCTAssertEqual(untouched[.posixPermissions] as? Int, 0o755)

        let write = try writeAsNobody(groups: [gid])
        XCTAssertEqual(write.status, 0, write.stderr)
        XCTAssertEqual(try String(contentsOfFile: root + metrics + "/launchad.prom", encoding: .utf8), "launchad_build_info 1\n")
        let denied = try writeAsNobody(groups: [])
        XCTAssertNotEqual(denied.status, 0, "a user outside the group cannot")
        XCTAssertTrue(denied.stderr.contains("Permission denied"), denied.stderr)
    }

    /// The node exporter installed after launchad: its folder arrives with the trigger.
    func testTheLinkFollowsAnExporterInstalledLaterAndGoesOnPurge() throws {
        try FileManager.default.removeItem(atPath: root + exporter)
        try maintainerScript("postinst", ["configure"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: root + exporter), "no exporter folder is made")
        try FileManager.default.createDirectory(atPath: root + exporter, withIntermediateDirectories: false)
        try maintainerScript("postinst", ["triggered", exporter])
        XCTAssertEqual(
            try FileManager.default.destinationOfSymbolicLink(atPath: root + exporter + "/launchad.prom"), metrics + "/launchad.prom")
        try maintainerScript("postinst", ["configure", "0.1.0"])
        try maintainerScript("postrm", ["purge"])
        XCTAssertNil(try? FileManager.default.destinationOfSymbolicLink(atPath: root + exporter + "/launchad.prom"), "the link went")
        XCTAssertFalse(FileManager.default.fileExists(atPath: root + "/var/lib/launchad"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: root + exporter), "the exporter's folder stays")
    }
}
