import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

/// A VAST media file larger than `--cache-limit` is refused once (`too_large`) and not fetched
/// again until the tag changes; `prefetch_done` counts the downloads that happened.
final class VASTCacheLimitTests: ServerStateTestCase {
    func prefetch(_ extra: [String] = []) throws -> Launchad.Run {
        try Launchad.run(
            [
                "prefetch", "--manifest", server.manifestURL, "--cache", cache.path, "--size", "320x240",
                "--state", state.path, "--retries", "0", "--beacon-wait", "1", "--no-progress"
            ] + extra)
    }

    func mediaGets(_ path: String) -> Int {
        let log = (try? String(contentsOf: server.nginx.prefix.appendingPathComponent("logs/access.log"), encoding: .utf8)) ?? ""
        return log.split(separator: "\n").filter { $0.contains("GET /\(path) ") }.count
    }

    func publish(tag: String, media: String) throws {
        let base = server.nginx.base
        try server.nginx.put(
            tag,
            Data(
                VASTTags.document([
                    VASTTags.inlineAd(
                        id: "v1", track: "\(base)/track", media: [VASTTags.mediaFile("\(base)/\(media)")], events: ["start"],
                        duration: "00:00:01")
                ]).utf8))
        try server.nginx.put("manifest.json", Data(#"{"ads": [{"id": "v1", "type": "vast", "vast": "\#(tag)"}]}"#.utf8))
    }

    func testAMediaFileOverTheCacheLimitIsRefusedOnceUntilTheTagChanges() throws {
        let big = try Data(
            contentsOf: URL(
                fileURLWithPath: try Fixtures.make(
                    "vast-big.mp4",
                    [
                        "-f", "lavfi", "-i", "testsrc2=s=320x240:r=25:d=2,noise=alls=60:allf=t+u", "-c:v", "libx264", "-crf", "10",
                        "-pix_fmt", "yuv420p"
                    ])))
        XCTAssertGreaterThan(big.count, 400_000)
        try server.nginx.put("big.mp4", big)
        try publish(tag: "tag.xml", media: "big.mp4")

        let first = try prefetch(["--cache-limit", "300000"])
        XCTAssertEqual(first.status, 1)
        let reason = first.events(named: "rejected").first?["reason"] as? String ?? ""
        XCTAssertTrue(reason.hasPrefix("VAST: too_large: the media file big.mp4 is larger than 300000 bytes"), first.stdout)
        XCTAssertEqual(first.events(named: "download").count, 0)
        XCTAssertEqual(first.events(named: "evicted").count, 0, "never installed, so never evicted")
        XCTAssertEqual(mediaGets("big.mp4"), 1)

        let again = try prefetch(["--cache-limit", "300000"])
        XCTAssertEqual(again.status, 1)
        XCTAssertTrue((again.events(named: "rejected").first?["reason"] as? String ?? "").contains("refused before"), again.stdout)
        XCTAssertEqual(mediaGets("big.mp4"), 1, "not fetched again for the same tag")

        // A new tag (here naming a small clip) is tried, and its download is counted.
        let small = try Data(contentsOf: URL(fileURLWithPath: try Fixtures.colourBars(seconds: 1, audio: false)))
        try server.nginx.put("small.mp4", small)
        try publish(tag: "tag2.xml", media: "small.mp4")
        let changed = try prefetch(["--cache-limit", "300000"])
        XCTAssertEqual(changed.status, 0, changed.stdout + changed.stderr)
        XCTAssertEqual(changed.events(named: "download").count, 1)
        let done = try XCTUnwrap(changed.events(named: "prefetch_done").first)
        XCTAssertEqual(done["downloads"] as? Int, 1)
        XCTAssertEqual(done["bytes"] as? Int, small.count)
    }
}
