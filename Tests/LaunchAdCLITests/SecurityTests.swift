import XCTest
import Foundation
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdTestSupport

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
        try Launchad.run(["prefetch", "--manifest", server.manifestURL, "--cache", cache.path, "--size", "320x240",
                          "--retries", "0"] + extra)
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
        try server.publish([
            AdServer.Ad(id: "../../../escaped", file: "red.png", data: red),
            AdServer.Ad(id: escape, file: "\(base)/x/../blue.png", data: blue),
            AdServer.Ad(id: "..%2F..%2Fescaped", file: "\(base)/lime.png?name=../../escaped.sh", data: lime),
            AdServer.Ad(id: "a/../../../escaped.sh", file: "\(base)/%2e%2e/%2e%2e/white.png", data: white),
        ], serveFiles: false)
        let run = try prefetch()
        XCTAssertEqual(Set(run.events(named: "download").compactMap { $0["id"] as? String }),
                       ["../../../escaped", escape, "..%2F..%2Fescaped"], run.stdout + run.stderr)
        let objects = Set([red, blue, lime].map { "objects/\(SHA256.hex(of: $0)).png" })
        let tree = cacheTree()
        XCTAssertEqual(Set(tree.filter { $0.hasPrefix("objects/") }), objects, "\(tree)")
        for path in tree {
            XCTAssertTrue(["index.json", "manifest.json", "lock"].contains(path) || objects.contains(path), "unexpected file in the cache: \(path)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root.path), ["cache"], "nothing beside the cache")
        XCTAssertFalse(FileManager.default.fileExists(atPath: escape))
        // The ids stay data: the cache's index names them, and the ad plays by its id.
        let index = try String(contentsOf: cache.appendingPathComponent("index.json"), encoding: .utf8)
        XCTAssertTrue(index.contains("escaped"), index)
    }

    /// Only http and https links: anything else on the command line is a usage error, and in a
    /// manifest the ad is rejected with its reason.
    func testLinkSchemesAreLimitedToHTTP() throws {
        let clip = try Fixtures.colourBars(seconds: 1, size: "320x240", audio: false)
        for link in ["javascript:alert(1)", "file:///etc/passwd", "ftp://ads.example.com/x", "data:text/html,hi",
                     "/etc/passwd", "HTTP//missing-colon", "http://", "sh -c reboot"] {
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
        try server.publish([AdServer.Ad(id: "js", file: "red.png", data: red, extra: #""link": "javascript:alert(1)","#),
                            AdServer.Ad(id: "file", file: "red.png", data: red, extra: #""link": "file:///etc/passwd","#)])
        let run = try prefetch()
        let reasons = Dictionary(uniqueKeysWithValues: run.events(named: "rejected").compactMap { e in
            (e["id"] as? String).map { ($0, e["reason"] as? String ?? "") } })
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
        XCTAssertTrue((capped.events(named: "rejected").first { $0["id"] as? String == "big" }?["reason"] as? String ?? "")
                        .contains("over the 100000-byte limit"), capped.stdout)
        XCTAssertFalse(requested().contains("/big.png"), "never downloaded: \(requested())")

        // Declared small, served big: the download stops and nothing is kept.
        try server.publish([AdServer.Ad(id: "liar", file: "liar.png", data: big, declaredBytes: blue.count),
                            AdServer.Ad(id: "red", file: "red.png", data: red)])
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

        try server.publish([AdServer.Ad(id: "tls", file: url, data: try Data(contentsOf: URL(fileURLWithPath:
            Fixtures.colourBars(seconds: 1, size: "320x240", audio: false))), kind: "video")], serveFiles: false)
        let launch = try Launchad.run(["launch", "--manifest", server.manifestURL, "--cache", cache.path, "--size", "320x240",
                                       "--transition", "none", "--retries", "0", "--wait", "2", "--refresh-timeout", "3"])
        XCTAssertEqual(launch.status, 3, launch.stdout)
        XCTAssertEqual(launch.events(named: "first_frame").count, 0, "nothing from an untrusted server was shown")
        XCTAssertEqual(launch.events.last?["outcome"] as? String, "no_ad")
    }
}
