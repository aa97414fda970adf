import Foundation
import LaunchAdCLI
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdTestSupport
import XCTest

@testable import LaunchAdEngine

/// `--metrics FILE`: the Prometheus textfile a fleet monitors, as promtool checks it and as a
/// real node_exporter's textfile collector serves it.
final class MetricsTests: XCTestCase {
    var folder: URL!
    var textfiles: String { folder.appendingPathComponent("textfile").path }

    override func setUpWithError() throws {
        folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("launchad-metrics-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: textfiles, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    func promtool(_ file: String) throws -> Fixtures.Result {
        try Fixtures.run("/usr/bin/promtool", ["check", "metrics"], stdin: try Data(contentsOf: URL(fileURLWithPath: file)))
    }

    /// Starts node_exporter with only its textfile collector, on a free loopback port.
    func nodeExporter() throws -> (Process, UInt16) {
        let port = try freePort()
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/prometheus-node-exporter")
        p.arguments = [
            "--collector.disable-defaults", "--collector.textfile", "--collector.textfile.directory=\(textfiles)",
            "--web.listen-address=127.0.0.1:\(port)"
        ]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        Wait.until { canConnect(port) }
        return (p, port)
    }

    func scrape(_ port: UInt16) throws -> String {
        let client = HTTPClient(connectTimeout: 5, totalTimeout: 10, allowHTTP: false)
        let response = try client.fetch(
            FetchRequest(url: URL(string: "http://127.0.0.1:\(port)/metrics")!, reach: .any, maxBytes: 1 << 22), progress: nil)
        XCTAssertEqual(response.status, 200)
        return String(decoding: response.body, as: UTF8.self)
    }

    /// Two plays: the counters carry on from the file the first left, promtool accepts the file,
    /// and node_exporter serves every line of it without a scrape error.
    func testPlaysAreCountedAndServedByNodeExporter() throws {
        let clip = try Fixtures.colourBars(seconds: 1, audio: true)
        let file = textfiles + "/launchad.prom"
        for _ in 0..<2 {
            let run = try Launchad.run([
                "play", clip, "--transition", "none", "--metrics", file, "--state", folder.appendingPathComponent("state").path
            ])
            XCTAssertEqual(run.status, 0, run.stderr)
        }
        let check = try promtool(file)
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let name = URL(fileURLWithPath: clip).lastPathComponent
        XCTAssertTrue(text.contains("launchad_plays_total{ad=\"\(name)\",outcome=\"completed\"} 2\n"), text)
        XCTAssertTrue(text.contains("launchad_frames_shown_total 50\n"), "25 pictures a play: \(text)")
        XCTAssertTrue(text.contains("launchad_build_info{version=\"\(Command.versionString)\"} 1\n"), text)
        XCTAssertTrue(text.contains("launchad_outbox_pending_items 0\n"), text)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: textfiles), ["launchad.prom"], "no temporary file left")
        XCTAssertEqual((try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int), 0o644)

        let (exporter, port) = try nodeExporter()
        defer { exporter.terminateIfRunning(); exporter.waitUntilExit() }
        let scraped = try scrape(port)
        XCTAssertTrue(scraped.contains("launchad_plays_total{ad=\"\(name)\",outcome=\"completed\"} 2"), scraped)
        XCTAssertTrue(scraped.contains("launchad_first_frame_seconds "), scraped)
        XCTAssertTrue(scraped.contains("node_textfile_scrape_error 0"), scraped)
    }

    /// A launch from a local manifest that names the metrics file: the cache and the last refresh
    /// are there too, and the ad's id labels its play. An ad cached ahead of its start (2100) is
    /// not counted as ready.
    func testALocalManifestNamesTheMetricsFileForLaunch() throws {
        let png = try Fixtures.solidPNG("red")
        try png.write(to: folder.appendingPathComponent("red.png"))
        let later = try Fixtures.solidPNG("blue")
        try later.write(to: folder.appendingPathComponent("blue.png"))
        let file = textfiles + "/kiosk.prom"
        let manifest = folder.appendingPathComponent("m.json").path
        try Data(
            #"{"metrics": "\#(file)", "ads": [{"id": "spring", "type": "image", "duration": 0.3, "variants": [{"url": "red.png", "width": 320, "height": 240, "bytes": \#(png.count), "sha256": "\#(SHA256.hex(of: png))"}]}, {"id": "next-century", "type": "image", "start": "2100-01-01T00:00:00Z", "variants": [{"url": "blue.png", "width": 320, "height": 240, "bytes": \#(later.count), "sha256": "\#(SHA256.hex(of: later))"}]}]}"#
                .utf8
        )
        .write(to: URL(fileURLWithPath: manifest))
        let cache = folder.appendingPathComponent("cache").path
        XCTAssertEqual(try Launchad.run(["prefetch", "--manifest", manifest, "--cache", cache]).status, 0)
        // The refresh itself leaves the cache's gauges, no play yet.
        let refreshed = try String(contentsOfFile: file, encoding: .utf8)
        XCTAssertTrue(refreshed.contains("launchad_cache_ads 1\n"), refreshed)
        XCTAssertFalse(refreshed.contains("launchad_plays_total"), refreshed)
        let run = try Launchad.run([
            "launch", "--manifest", manifest, "--cache", cache, "--size", "320x240", "--transition", "none",
            "--state", folder.appendingPathComponent("state").path
        ])
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        XCTAssertTrue(text.contains("launchad_plays_total{ad=\"spring\",outcome=\"completed\"} 1\n"), text)
        XCTAssertTrue(text.contains("launchad_cache_ads 1\n"), text)
        XCTAssertTrue(text.contains("launchad_cache_bytes \(png.count + later.count)\n"), "both are cached: \(text)")
        XCTAssertTrue(text.contains("launchad_prefetch_last_success_timestamp_seconds "), text)
        XCTAssertTrue(text.contains("launchad_prefetch_last_success_age_seconds "), text)
        XCTAssertEqual(try promtool(file).status, 0)
    }

    /// Issue 29 defect 15: a --metrics path whose folder is missing was exit 2 before anything
    /// played, and `launch` never started its app (a restart loop on a blank screen under
    /// `Restart=always`). Now it is one `metrics_unavailable` event and one line on stderr; the
    /// ad plays, the refresh runs and the app starts.
    func testAnUnwritableMetricsPathIsOneEventAndTheRunGoesOn() throws {
        let clip = try Fixtures.colourBars(seconds: 1, audio: false)
        let manifest = folder.appendingPathComponent("m.json").path
        try Data(#"{"ads": []}"#.utf8).write(to: URL(fileURLWithPath: manifest))
        let started = folder.appendingPathComponent("app-started").path
        let cache = folder.appendingPathComponent("cache").path
        let state = ["--state", folder.appendingPathComponent("state").path]
        let metrics = ["--metrics", "/nonexistent-launchad-dir/x.prom"]
        let line =
            "launchad: metrics_unavailable: --metrics: cannot write /nonexistent-launchad-dir/x.prom: the folder /nonexistent-launchad-dir does not exist\n"
        let commands: [(args: [String], status: Int32, outcome: String)] = [
            (["play", clip, "--transition", "none"] + state + metrics, 0, "completed"),
            (
                ["launch", "--manifest", manifest, "--cache", cache] + state + metrics + [
                    "--then", "sh", "-c", "echo yes > \(started); exit 7"
                ], 7, "no_ad"
            ),
            (["prefetch", "--manifest", manifest, "--cache", cache] + state + metrics, 0, "completed")
        ]
        for c in commands {
            let run = try Launchad.run(c.args)
            XCTAssertEqual(run.status, c.status, "\(c.args[0]): \(run.stderr)")
            XCTAssertEqual(run.stderr, line, c.args[0])
            let problem = run.events(named: "metrics_unavailable")
            XCTAssertEqual(problem.count, 1, c.args[0])
            XCTAssertEqual(
                problem.first?["reason"] as? String,
                "--metrics: cannot write /nonexistent-launchad-dir/x.prom: the folder /nonexistent-launchad-dir does not exist")
            XCTAssertEqual(run.events.last?["event"] as? String, "end", c.args[0])
            XCTAssertEqual(run.events.last?["outcome"] as? String, c.outcome, c.args[0])
        }
        XCTAssertEqual(try String(contentsOfFile: started, encoding: .utf8), "yes\n", "launch started its app")
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/nonexistent-launchad-dir"))
    }

    /// The previous file is read back only when it is a regular file this user owns, not
    /// through a symlink, and at most 1 MB: a link to another file is neither read nor written
    /// through (the counters start again, one line says why), and the file it named is untouched.
    func testThePreviousFileIsNeitherFollowedNorReadWhole() throws {
        let clip = try Fixtures.colourBars(seconds: 1, audio: false)
        let name = URL(fileURLWithPath: clip).lastPathComponent
        let elsewhere = folder.appendingPathComponent("elsewhere.prom").path
        let planted = "launchad_plays_total{ad=\"\(name)\",outcome=\"completed\"} 41\n"
        try Data(planted.utf8).write(to: URL(fileURLWithPath: elsewhere))
        let file = textfiles + "/launchad.prom"
        XCTAssertEqual(symlink(elsewhere, file), 0)
        let run = try Launchad.run([
            "play", clip, "--transition", "none", "--metrics", file, "--state", folder.appendingPathComponent("state").path
        ])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(
            run.stderr,
            "launchad: metrics: \(file) not read back (it is a symlink; launchad will not follow it); its counters start again\n")
        XCTAssertEqual(try String(contentsOfFile: elsewhere, encoding: .utf8), planted, "the link's target untouched")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        XCTAssertTrue(text.contains("launchad_plays_total{ad=\"\(name)\",outcome=\"completed\"} 1\n"), text)
        var st = stat()
        XCTAssertEqual(lstat(file, &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFREG, "the link replaced by launchad's own file")

        // Too large, another user's, a FIFO: refused with the reason, never read (a FIFO would block).
        let big = textfiles + "/big.prom"
        try Data(count: MetricsFile.maxPreviousBytes + 1).write(to: URL(fileURLWithPath: big))
        XCTAssertThrowsError(try MetricsFile(path: big).previous()) {
            XCTAssertTrue("\($0)".contains("it has 1048577 bytes, over the 1048576-byte limit"), "\($0)")
        }
        let fifo = textfiles + "/fifo.prom"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        XCTAssertThrowsError(try MetricsFile(path: fifo).previous()) {
            XCTAssertTrue("\($0)".contains("it is not a regular file"), "\($0)")
        }
        if geteuid() == 0 {
            let theirs = textfiles + "/theirs.prom"
            try Data(planted.utf8).write(to: URL(fileURLWithPath: theirs))
            XCTAssertEqual(chown(theirs, 65534, 65534), 0)
            XCTAssertThrowsError(try MetricsFile(path: theirs).previous()) {
                XCTAssertTrue("\($0)".contains("it belongs to another user (uid 65534)"), "\($0)")
            }
        }
        XCTAssertNil(try MetricsFile(path: textfiles + "/none.prom").previous())
        XCTAssertEqual(try MetricsFile(path: elsewhere).previous(), planted)
    }

    /// A FIFO or a device at the metrics path is not replaced: as root, `--metrics /dev/null`
    /// made the system's /dev/null a regular file. Refused at start (one `metrics_unavailable`
    /// and one stderr line, as a missing folder) and at the write; the node stays what it was.
    func testAFIFOOrADeviceAtThePathIsNeverReplaced() throws {
        var nodes = [textfiles + "/fifo.prom"]
        XCTAssertEqual(mkfifo(nodes[0], 0o600), 0)
        if geteuid() == 0 {
            nodes.append(textfiles + "/null.prom")
            XCTAssertEqual(mknod(nodes[1], S_IFCHR | 0o666, dev_t(1 << 8 | 3)), 0, "a copy of /dev/null (major 1, minor 3)")
        }
        for node in nodes {
            var before = stat()
            XCTAssertEqual(lstat(node, &before), 0)
            XCTAssertThrowsError(try MetricsFile(path: node).checkWritable()) {
                XCTAssertTrue("\($0)".contains("is not a regular file (a FIFO, device or socket); launchad will not replace it"), "\($0)")
            }
            XCTAssertThrowsError(try MetricsFile(path: node).write("launchad_up 1\n"))
            let run = try Launchad.run([
                "play", try Fixtures.write("metrics-node.png", Fixtures.solidPNG("red")), "--duration", "0.2", "--transition", "none",
                "--metrics", node, "--state", folder.appendingPathComponent("state").path
            ])
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertTrue(run.stdout.contains(#""event":"metrics_unavailable""#), run.stdout)
            XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
            var after = stat()
            XCTAssertEqual(lstat(node, &after), 0)
            XCTAssertEqual(after.st_mode, before.st_mode, "\(node) was replaced")
            XCTAssertEqual(after.st_ino, before.st_ino, "\(node) was replaced")
        }
    }
}
