import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

/// Headers and lengths from a hostile media server: a range answer is parsed without traps and
/// capped at the range asked; every request carries the one User-Agent.
final class HostileServerTests: XCTestCase {
    /// A server answering every range request with 206, `contentRange` and `body`.
    func partialServer(contentRange: String, body: Data) throws -> ScriptedServer {
        try ScriptedServer { fd, _ in
            let head =
                "HTTP/1.1 206 Partial Content\r\nContent-Type: video/mp4\r\nContent-Range: \(contentRange)\r\n"
                + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
            _ = ScriptedServer.send(fd, Data(head.utf8) + body)
        }
    }

    /// `bytes -1/100` trapped the read thread (exit 132): now each malformed or inconsistent
    /// range is a network error, the fallback shows and the run ends once.
    func testAMalformedContentRangeFallsBackInsteadOfCrashing() throws {
        let png = try Fixtures.make("range-fallback.png", ["-f", "lavfi", "-i", "color=c=blue:s=90x160", "-frames:v", "1"])
        let body = Data(repeating: 7, count: 100)
        for header in [
            "bytes -1/100", "bytes x-/5", "bytes 0-99/50", "bytes 5-104/200", "bytes 0-99999999999999999999/100", "bytes 0-9/100"
        ] {
            let server = try partialServer(contentRange: header, body: body)
            let run = try Launchad.run([
                "play", "http://127.0.0.1:\(server.port)/ad.mp4", "--fallback", png, "--duration", "1",
                "--transition", "none"
            ])
            XCTAssertEqual(run.status, 0, "\(header): \(run.stdout) \(run.stderr)")
            XCTAssertEqual(run.events(named: "fallback").count, 1, "\(header): \(run.stdout)")
            XCTAssertEqual(run.events(named: "end").count, 1, header)
            XCTAssertEqual(run.events(named: "end").first?["outcome"] as? String, "completed", header)
        }
    }

    /// A 206 promising 1 MiB but carrying 64 MB: launchad stops reading at the range it asked.
    func testARangeAnswerIsCappedAtTheRangeAsked() throws {
        let sent = SentBytes()
        let server = try ScriptedServer { fd, _ in
            let total = 64 << 20
            let head =
                "HTTP/1.1 206 Partial Content\r\nContent-Type: video/mp4\r\nContent-Range: bytes 0-1048575/\(total)\r\n"
                + "Content-Length: \(total)\r\nConnection: close\r\n\r\n"
            guard ScriptedServer.send(fd, Data(head.utf8)) else { return }
            let chunk = Data(repeating: 0, count: 64 << 10)
            for _ in 0..<(total / chunk.count) {
                guard ScriptedServer.send(fd, chunk) else { return }
                sent.add(chunk.count)
            }
        }
        let run = try Launchad.run(["play", "http://127.0.0.1:\(server.port)/ad.mp4", "--transition", "none"])
        XCTAssertEqual(run.status, 3, run.stdout)
        XCTAssertEqual(run.events(named: "end").count, 1)
        XCTAssertTrue(run.events(named: "first_frame").isEmpty)
        let message = run.events(named: "error").first?["message"] as? String ?? ""
        XCTAssertTrue(message.contains("1048576-byte limit"), message)
        // What the kernel's socket buffers took beyond the first MiB, far below the 64 MB offered.
        XCTAssertLessThan(sent.value, 24 << 20, "bytes the server got out")
    }

    /// `play URL --wait 2` against a server that takes the request and never answers: the tag
    /// sniff and the first-frame wait together fit inside the 2 s, and the fallback shows.
    func testTheTagSniffFitsInsideTheWait() throws {
        let server = try ScriptedServer { fd, _ in ScriptedServer.silentUntilClosed(fd) }
        let png = try Fixtures.make("sniff-fallback.png", ["-f", "lavfi", "-i", "color=c=green:s=90x160", "-frames:v", "1"])
        let run = try Launchad.run([
            "play", "http://127.0.0.1:\(server.port)/ad", "--wait", "2", "--fallback", png, "--duration", "1",
            "--transition", "none"
        ])
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        let fallback = try XCTUnwrap(run.events(named: "fallback").first, run.stdout)
        XCTAssertEqual(fallback["reason"] as? String, "first_frame_timeout")
        // t_ms counts from the process start; the limit holds with room for a slow machine's start-up.
        XCTAssertLessThan(try XCTUnwrap(fallback["t_ms"] as? Int), 2900, run.stdout)
        XCTAssertEqual(run.events(named: "end").count, 1)
    }

    /// Tag fetches, manifests, creatives and beacons all say `launchad/VERSION`.
    func testEveryRequestCarriesTheOneUserAgent() throws {
        let nginx = try Nginx()
        defer { nginx.stop() }
        let tracker = try Collector()
        let state = NSTemporaryDirectory() + "launchad-ua-\(UUID().uuidString)"
        let cache = NSTemporaryDirectory() + "launchad-ua-cache-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: state); try? FileManager.default.removeItem(atPath: cache) }
        let clip = try Fixtures.colourBars(seconds: 1, audio: false)
        let media = try nginx.put("ad.mp4", Data(contentsOf: URL(fileURLWithPath: clip)))
        let tag = VASTTags.document(
            version: "4.2",
            [
                VASTTags.inlineAd(
                    id: "ua", track: "\(tracker.url)/t", media: [VASTTags.mediaFile(media)],
                    events: ["start"], duration: "00:00:01")
            ])
        let tagURL = try nginx.put("tag-ua", Data(tag.utf8))
        let play = try Launchad.run(["play", tagURL, "--state", state, "--transition", "none"])
        XCTAssertEqual(play.status, 0, play.stdout + play.stderr)
        XCTAssertTrue(tracker.wait(for: 2), "impression and start arrive")

        let png = try Fixtures.solidPNG("green")
        let sha = SHA256.hex(of: png)
        try nginx.put("green.png", png)
        let manifest =
            #"{"ads": [{"id": "g", "type": "image", "variants": [{"url": "green.png", "width": 320, "height": 240, "bytes": \#(png.count), "sha256": "\#(sha)"}]}]}"#
        let manifestURL = try nginx.put("manifest.json", Data(manifest.utf8))
        let prefetch = try Launchad.run(["prefetch", "--manifest", manifestURL, "--cache", cache, "--retries", "0", "--no-progress"])
        XCTAssertEqual(prefetch.status, 0, prefetch.stderr)

        let agent = "launchad/\(LaunchAdVersion.versionString)"
        let log = (try? String(contentsOf: nginx.prefix.appendingPathComponent("logs/access.log"), encoding: .utf8)) ?? ""
        let lines = log.split(separator: "\n").map(String.init)
        for path in ["/tag-ua", "/ad.mp4", "/manifest.json", "/green.png"] {
            let hits = lines.filter { $0.contains("GET \(path) ") }
            XCTAssertFalse(hits.isEmpty, "\(path) requested: \(lines)")
            XCTAssertTrue(hits.allSatisfy { $0.hasSuffix("\"\(agent)\"") }, "\(hits)")
        }
        for request in tracker.received {
            XCTAssertTrue(
                String(decoding: request.raw, as: UTF8.self).contains("\r\nUser-Agent: \(agent)\r\n"),
                String(decoding: request.raw, as: UTF8.self))
        }
    }
}

/// A counter the server's threads add to.
final class SentBytes: @unchecked Sendable {  // `total` guarded by `lock`
    private let lock = NSLock()
    private var total = 0
    func add(_ n: Int) { lock.lock(); total += n; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return total }
}
