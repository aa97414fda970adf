import Foundation
import LaunchAdCLI
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdTestSupport
import XCTest

@testable import LaunchAdEngine

/// What a hostile manifest or server can try: paths out of the cache, other link schemes,
/// oversized files, and a certificate nobody vouches for.
final class SecurityTests: XCTestCase {
    var server: AdServer!
    /// A folder holding only the cache: anything else appearing in it escaped the cache.
    var root: URL!
    var cache: URL { root.appendingPathComponent("cache") }

    override func setUpWithError() throws {
        server = try AdServer()
        root = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("launchad-sec-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        server = nil
        try? FileManager.default.removeItem(at: root)
    }

    func image(_ colour: String) throws -> Data { try Fixtures.solidPNG(colour) }

    func prefetch(_ extra: [String] = []) throws -> Launchad.Run {
        try Launchad.run(
            [
                "prefetch", "--manifest", server.manifestURL, "--cache", cache.path, "--size", "320x240",
                "--retries", "0"
            ] + extra)
    }

    /// Every file under the cache, relative to it.
    func cacheTree() -> [String] {
        let e = FileManager.default.enumerator(atPath: cache.path)
        var files: [String] = []
        while let p = e?.nextObject() as? String {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: cache.appendingPathComponent(p).path, isDirectory: &isDir), !isDir.boolValue {
                files.append(p)
            }
        }
        return files.sorted()
    }

    /// Requests nginx logged, by path.
    func requested() -> [String] {
        let log = (try? String(contentsOf: server.nginx.prefix.appendingPathComponent("logs/access.log"), encoding: .utf8)) ?? ""
        return log.split(separator: "\n").compactMap { line in
            line.split(separator: "\"").dropFirst().first?.split(separator: " ").dropFirst().first.map(String.init)
        }
    }

    /// Ids and URLs made of traversal, absolute paths and encoded separators: the cache holds
    /// only index.json, the manifest, its lock and objects/<sha256>.<known extension>; nothing appears
    /// beside it or anywhere the ids point.
    func testIdsAndURLsNeverBecomePaths() throws {
        let red = try image("red"), blue = try image("blue"), lime = try image("lime"), white = try image("white")
        try server.nginx.put("red.png", red)
        try server.nginx.put("blue.png", blue)
        try server.nginx.put("lime.png", lime)
        try server.nginx.put("white.png", white)
        let base = server.nginx.base
        let escape = root.appendingPathComponent("escaped").path
        try server.publish(
            [
                AdServer.Ad(id: "../../../escaped", file: "red.png", data: red),
                AdServer.Ad(id: escape, file: "\(base)/x/../blue.png", data: blue),
                AdServer.Ad(id: "..%2F..%2Fescaped", file: "\(base)/lime.png?name=../../escaped.sh", data: lime),
                AdServer.Ad(id: "a/../../../escaped.sh", file: "\(base)/%2e%2e/%2e%2e/white.png", data: white)
            ], serveFiles: false)
        let run = try prefetch()
        XCTAssertEqual(
            Set(run.events(named: "download").compactMap { $0["id"] as? String }),
            ["../../../escaped", escape, "..%2F..%2Fescaped"], run.stdout + run.stderr)
        let objects = Set([red, blue, lime].map { "objects/\(SHA256.hex(of: $0)).png" })
        let tree = cacheTree()
        XCTAssertEqual(Set(tree.filter { $0.hasPrefix("objects/") }), objects, "\(tree)")
        for path in tree {
            XCTAssertTrue(
                ["index.json", "manifest.json", "lock", "CACHEDIR.TAG"].contains(path) || objects.contains(path),
                "unexpected file in the cache: \(path)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root.path), ["cache"], "nothing beside the cache")
        XCTAssertFalse(FileManager.default.fileExists(atPath: escape))
        // The ids stay data: the cache's index names them, and the ad plays by its id.
        let index = try String(contentsOf: cache.appendingPathComponent("index.json"), encoding: .utf8)
        XCTAssertTrue(index.contains("escaped"), index)
    }

    /// Only http and https links: anything else on the command line is a usage error, and in a
    /// manifest the ad is rejected with its reason.
    /// `--cache` naming a folder launchad did not make (here a repository's `.git`): one line,
    /// exit 2, and the folder is as it was; for `launch` too (no ad, the folder untouched).
    func testAFolderLaunchadDidNotMakeIsNotACache() throws {
        let git = root.appendingPathComponent("repo/.git")
        try FileManager.default.createDirectory(at: git.appendingPathComponent("objects/ab"), withIntermediateDirectories: true)
        try Data("ref: refs/heads/main\n".utf8).write(to: git.appendingPathComponent("HEAD"))
        try Data("blob".utf8).write(to: git.appendingPathComponent("objects/ab/cdef"))
        try server.publish([AdServer.Ad(id: "red", file: "red.png", data: try image("red"))])
        let message =
            "launchad: \(git.path) is not a launchad cache folder (it holds other files and no CACHEDIR.TAG); give --cache a new or empty folder\n"
        let run = try Launchad.run(["prefetch", "--manifest", server.manifestURL, "--cache", git.path])
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.stderr, message)
        let launched = try Launchad.run(["launch", "--manifest", server.manifestURL, "--cache", git.path])
        XCTAssertEqual(launched.status, 2)
        XCTAssertEqual(launched.stderr, message)
        XCTAssertEqual(launched.events.last?["reason"] as? String, "cache_refused")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: git.path).sorted(), ["HEAD", "objects"])
        XCTAssertEqual(try Data(contentsOf: git.appendingPathComponent("objects/ab/cdef")), Data("blob".utf8))
    }

    /// A host name that merely looks like loopback is refused before any DNS lookup.
    func testPlainHTTPOnlyForRealLoopback() throws {
        let run = try Launchad.run(["prefetch", "--manifest", "http://127.evil.example/m.json", "--cache", cache.path, "--retries", "0"])
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.stderr, "launchad: --manifest over plain http needs --allow-http (or https, or a loopback host)\n")
        // Named by a manifest on loopback, the same creative URL is refused with its own line.
        try server.nginx.put(
            "manifest.json",
            Data(
                #"{"ads": [{"id": "a", "type": "image", "variants": [{"url": "http://127.evil.example/a.png", "width": 1, "height": 1, "bytes": 1, "sha256": "\#(String(repeating: "0", count: 64))"}]}]}"#
                    .utf8))
        let named = try prefetch()
        XCTAssertEqual(named.status, 1)
        XCTAssertEqual(named.stderr, "launchad: a: refusing plain http for 127.evil.example (use https, or --allow-http)\n")
        // The requests name launchad and its version.
        let log = try String(contentsOf: server.nginx.prefix.appendingPathComponent("logs/access.log"), encoding: .utf8)
        XCTAssertTrue(log.contains("\"launchad/\(Command.versionString)\""), log)
    }

    /// `play` streams plain http only from loopback, unless `--allow-http` is given.
    func testPlayStreamsPlainHTTPOffLoopbackOnlyWithAllowHTTP() throws {
        let refused = try Launchad.run(["play", "http://127.evil.example/ad.mp4", "--wait", "1"])
        XCTAssertEqual(refused.status, 3)
        XCTAssertTrue(refused.stdout.contains("refusing plain http for 127.evil.example"), refused.stdout)
        // Allowed: the policy lets it through and the name simply cannot be resolved here.
        let allowed = try Launchad.run(["play", "http://127.evil.example/ad.mp4", "--wait", "1", "--allow-http"])
        XCTAssertEqual(allowed.status, 3)
        XCTAssertFalse(allowed.stdout.contains("refusing plain http"), allowed.stdout)
        XCTAssertTrue(allowed.stdout.contains("\"code\":\"open_failed\""), allowed.stdout)
    }

    /// A FIFO named as a creative in a manifest file is refused at once, not read forever.
    func testAFIFOCreativeIsRefused() throws {
        let folder = root.appendingPathComponent("ads")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(folder.appendingPathComponent("ad.png").path, 0o600), 0)
        let manifest = folder.appendingPathComponent("manifest.json")
        try Data(
            #"{"ads": [{"id": "pipe", "type": "image", "variants": [{"url": "ad.png", "width": 320, "height": 240, "bytes": 100, "sha256": "\#(String(repeating: "a", count: 64))"}]}]}"#
                .utf8
        ).write(to: manifest)
        let run = try Launchad.run(["prefetch", "--manifest", manifest.path, "--cache", cache.path, "--retries", "0"])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(
            run.stderr, "launchad: pipe: \(folder.path)/ad.png is not a regular file (a FIFO, device or folder); refusing to read it\n")
        XCTAssertLessThan(run.seconds, 10)
    }

    /// Control characters in an id (here one that would retitle the terminal and clear it) are
    /// escaped on stderr and in the progress bar, never written raw.
    func testControlCharactersInIdsAreEscapedOnTheTerminal() throws {
        let folder = root.appendingPathComponent("esc")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let manifest = folder.appendingPathComponent("manifest.json")
        try Data(#"{"ads": [{"id": "x\u001b]0;pwned\u0007\u001b[2J", "type": "gif"}]}"#.utf8).write(to: manifest)
        let run = try Launchad.run(["prefetch", "--manifest", manifest.path, "--cache", cache.path])
        XCTAssertFalse(run.stderr.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, run.stderr)
        XCTAssertTrue(run.stderr.hasPrefix(#"launchad: x\x1b]0;pwned\x07\x1b[2J: "#), run.stderr)
        let bar = ProgressBar.line(done: 1, total: 2, label: "a\u{1B}[2Jb", unit: .count, width: 4)
        XCTAssertTrue(bar.hasPrefix(#"a\x1b[2Jb  ["#), bar)
    }

    func testLinkSchemesAreLimitedToHTTP() throws {
        let clip = try Fixtures.colourBars(seconds: 1, size: "320x240", audio: false)
        for link in [
            "javascript:alert(1)", "file:///etc/passwd", "ftp://ads.example.com/x", "data:text/html,hi",
            "/etc/passwd", "HTTP//missing-colon", "http://", "sh -c reboot"
        ] {
            let run = try Launchad.run(["play", clip, "--link", link])
            XCTAssertEqual(run.status, 2, "\(link): \(run.stderr)")
            XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, "\(link): \(run.stderr)")
            XCTAssertEqual(run.events(named: "first_frame").count, 0, link)
        }
        for link in ["http://ads.example.com/x", "HTTPS://ads.example.com/landing?a=1"] {
            let run = try Launchad.run(["play", clip, "--link", link, "--transition", "none"])
            XCTAssertEqual(run.status, 0, "\(link): \(run.stderr)")
        }
        let red = try image("red")
        try server.publish([
            AdServer.Ad(id: "js", file: "red.png", data: red, extra: #""link": "javascript:alert(1)","#),
            AdServer.Ad(id: "file", file: "red.png", data: red, extra: #""link": "file:///etc/passwd","#)
        ])
        let run = try prefetch()
        let reasons = Dictionary(
            uniqueKeysWithValues: run.events(named: "rejected").compactMap { e in
                (e["id"] as? String).map { ($0, e["reason"] as? String ?? "") }
            })
        XCTAssertEqual(Set(reasons.keys), ["js", "file"], run.stdout)
        XCTAssertTrue(reasons.values.allSatisfy { $0.contains("http or https") }, "\(reasons)")
        XCTAssertEqual(cacheTree().filter { $0.hasPrefix("objects/") }, [], "rejected ads are not downloaded")
    }

    /// A creative declared over --max-creative-bytes is never asked for; one that is bigger than
    /// it declared is cut off and rejected; the manifest has its own cap.
    func testManifestAndCreativeSizesAreCapped() throws {
        let red = try image("red"), blue = try image("blue")
        try server.publish([AdServer.Ad(id: "red", file: "red.png", data: red)])
        XCTAssertEqual(try prefetch().status, 0)

        let big = Data(count: 300_000) + blue
        try server.publish([AdServer.Ad(id: "big", file: "big.png", data: big), AdServer.Ad(id: "red", file: "red.png", data: red)])
        let capped = try prefetch(["--max-creative-bytes", "100000"])
        XCTAssertEqual(capped.status, 1)
        XCTAssertTrue(
            (capped.events(named: "rejected").first { $0["id"] as? String == "big" }?["reason"] as? String ?? "")
                .contains("over the 100000-byte limit"), capped.stdout)
        XCTAssertFalse(requested().contains("/big.png"), "never downloaded: \(requested())")

        // Declared small, served big: the download stops and nothing is kept.
        try server.publish([
            AdServer.Ad(id: "liar", file: "liar.png", data: big, declaredBytes: blue.count),
            AdServer.Ad(id: "red", file: "red.png", data: red)
        ])
        let lying = try prefetch(["--max-creative-bytes", "100000"])
        XCTAssertEqual(lying.status, 1)
        XCTAssertEqual(lying.events(named: "rejected").first?["id"] as? String, "liar", lying.stdout)
        XCTAssertEqual(cacheTree().filter { $0.hasPrefix("objects/") }, ["objects/\(SHA256.hex(of: red)).png"])
        XCTAssertEqual(cacheTree().filter { $0.hasPrefix("tmp/") }, [])

        try server.nginx.put("manifest.json", Data(#"{"ads": []}"#.utf8) + Data(repeating: 0x20, count: 2_000_000))
        let huge = try prefetch()
        XCTAssertEqual(huge.status, 1)
        XCTAssertTrue(huge.stderr.contains("over the 1000000-byte limit"), huge.stderr)
        XCTAssertEqual(cacheTree().filter { $0.hasPrefix("objects/") }, ["objects/\(SHA256.hex(of: red)).png"], "the cache is as it was")
    }

    /// A creative on an https server whose certificate is self-signed is refused (the manifest
    /// itself is refused in LaunchFlowTests); a first launch does not play it from the network either.
    func testCreativesFromAnUntrustedCertificateAreRefused() throws {
        let tls = try AdServer(tls: true)
        let blue = try image("blue")
        try tls.nginx.put("blue.png", blue)
        let url = "https://127.0.0.1:\(tls.nginx.tlsPort)/blue.png"
        try server.publish([AdServer.Ad(id: "tls", file: url, data: blue)], serveFiles: false)
        let run = try prefetch()
        XCTAssertEqual(run.status, 1, run.stdout)
        let reason = run.events(named: "rejected").first?["reason"] as? String ?? ""
        XCTAssertTrue(reason.lowercased().contains("certificate"), "says the certificate is not trusted: \(reason)")
        XCTAssertEqual(cacheTree().filter { $0.hasPrefix("objects/") }, [])

        try server.publish(
            [
                AdServer.Ad(
                    id: "tls", file: url,
                    data: try Data(
                        contentsOf: URL(
                            fileURLWithPath:
                                Fixtures.colourBars(seconds: 1, size: "320x240", audio: false))), kind: "video")
            ], serveFiles: false)
        let launch = try Launchad.run([
            "launch", "--manifest", server.manifestURL, "--cache", cache.path, "--size", "320x240",
            "--transition", "none", "--retries", "0", "--wait", "2", "--refresh-timeout", "3"
        ])
        XCTAssertEqual(launch.status, 3, launch.stdout)
        XCTAssertEqual(launch.events(named: "first_frame").count, 0, "nothing from an untrusted server was shown")
        XCTAssertEqual(launch.events.last?["outcome"] as? String, "no_ad")
    }
}
