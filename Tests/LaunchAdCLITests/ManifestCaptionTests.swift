import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

/// A manifest ad's `captions` file is cached with its creative (by content hash, checked like
/// it) and shown by `launch` from the cache.
final class ManifestCaptionTests: XCTestCase {
    func testCaptionsAreCachedWithTheCreativeAndShown() throws {
        let server = try AdServer()
        let cache = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("launchad-cc-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let vtt = Data("WEBVTT\n\n00:00.000 --> 00:00.400\nCached words\n".utf8)
        try server.nginx.put("cc.vtt", vtt)
        let captions = #""captions": {"url": "cc.vtt", "bytes": \#(vtt.count), "sha256": "\#(SHA256.hex(of: vtt))"},"#
        try server.publish([AdServer.Ad(id: "red", file: "red.png", data: try Fixtures.solidPNG("red"), extra: captions)])
        let prefetch = try Launchad.run([
            "prefetch", "--manifest", server.manifestURL, "--cache", cache.path, "--size", "320x240", "--retries", "0"
        ])
        XCTAssertEqual(prefetch.status, 0, prefetch.stdout + prefetch.stderr)
        let objects = try FileManager.default.contentsOfDirectory(atPath: cache.appendingPathComponent("objects").path)
        XCTAssertTrue(objects.contains("\(SHA256.hex(of: vtt)).vtt"), "\(objects)")
        let run = try Launchad.run([
            "launch", "--manifest", server.manifestURL, "--cache", cache.path, "--size", "320x240",
            "--transition", "none", "--retries", "0", "--caption-mode", "on"
        ])
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertEqual(run.events(named: "cache_hit").count, 1)
        XCTAssertEqual(
            run.events(named: "captions").first?["file"] as? String, cache.appendingPathComponent("objects/\(SHA256.hex(of: vtt)).vtt").path
        )
        XCTAssertEqual(run.events(named: "caption").compactMap { $0["text"] as? String }, ["Cached words"])
    }
}
