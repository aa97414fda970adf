import Foundation
import LaunchAdTestSupport
import XCTest

/// `play URL`: FFmpeg streams the creative itself, with the same trust rules as the cache.
final class PlayNetworkTests: XCTestCase {
    func testAnHTTPCreativePlaysFromTheServer() throws {
        let server = try Nginx()
        defer { server.stop() }
        let clip = try Fixtures.colourBars(seconds: 1, audio: false)
        let url = try server.put("ad.mp4", Data(contentsOf: URL(fileURLWithPath: clip)))
        let run = try Launchad.run(["play", url])
        XCTAssertEqual(run.status, 0, run.stdout)
        XCTAssertEqual(run.events(named: "end").first?["outcome"] as? String, "completed")
    }

    func testASelfSignedCertificateIsRefused() throws {
        let server = try Nginx(tls: true)
        defer { server.stop() }
        let clip = try Fixtures.colourBars(seconds: 1, audio: false)
        _ = try server.put("ad.mp4", Data(contentsOf: URL(fileURLWithPath: clip)))
        let run = try Launchad.run(["play", "https://127.0.0.1:\(server.tlsPort)/ad.mp4"])
        XCTAssertEqual(run.status, 3, run.stdout)
        XCTAssertEqual(run.events(named: "error").first?["code"] as? String, "open_failed")
        XCTAssertTrue(run.events(named: "first_frame").isEmpty, "nothing from an untrusted server reaches the screen")
    }
}

/// A streamed creative obeys the download policy byte for byte: FFmpeg reads it only through
/// launchad's HTTP client (ranges, every redirect checked), and a playlist cannot pull
/// segments from anywhere.
final class StreamPolicyTests: XCTestCase {
    var server: Nginx!
    override func setUpWithError() throws { server = try Nginx() }
    override func tearDown() { server = nil }

    func requested() -> [String] {
        let log = (try? String(contentsOf: server.prefix.appendingPathComponent("logs/access.log"), encoding: .utf8)) ?? ""
        return log.split(separator: "\n").map(String.init)
    }

    /// A loopback creative that redirects to plain http on another host is refused, as prefetch
    /// refuses the same URL.
    func testARedirectToPlainHTTPElsewhereIsRefused() throws {
        let run = try Launchad.run(["play", "\(server.base)/away/ad.mp4"])
        XCTAssertEqual(run.status, 3, run.stdout)
        let message = run.events(named: "error").first?["message"] as? String ?? ""
        XCTAssertTrue(message.contains("redirected to a refused URL: refusing plain http for ads.example.com"), message)
        XCTAssertTrue(run.events(named: "first_frame").isEmpty)
    }

    /// An HLS playlist is refused: its segment is never requested.
    func testAPlaylistIsRefused() throws {
        let clip = try Fixtures.colourBars(seconds: 1, audio: false)
        try server.put("seg.mp4", Data(contentsOf: URL(fileURLWithPath: clip)))
        let playlist = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:1\n#EXTINF:1.0,\n\(server.base)/seg.mp4\n#EXT-X-ENDLIST\n"
        let url = try server.put("ad.m3u8", Data(playlist.utf8))
        let run = try Launchad.run(["play", url])
        XCTAssertEqual(run.status, 3, run.stdout)
        XCTAssertTrue(run.events(named: "first_frame").isEmpty, run.stdout)
        XCTAssertFalse(requested().contains { $0.contains("GET /seg.mp4") }, "\(requested())")
    }

    /// A 3 MB MP4 with its index at the end plays: the demuxer's seeks become range requests,
    /// each made by launchad's client (its User-Agent in the log).
    func testASeekingStreamPlaysThroughRangeRequests() throws {
        // Noise keeps the bitrate up: about 3 MB, so the index at the end is past the first range.
        let clip = try Fixtures.make(
            "moov-at-end-noise.mp4",
            [
                "-f", "lavfi", "-i", "testsrc2=s=320x240:r=25:d=2,noise=alls=60:allf=t+u",
                "-c:v", "libx264", "-crf", "12", "-pix_fmt", "yuv420p"
            ])
        let url = try server.put("big.mp4", Data(contentsOf: URL(fileURLWithPath: clip)))
        let run = try Launchad.run(["play", url, "--transition", "none"])
        XCTAssertEqual(run.status, 0, run.stdout)
        XCTAssertEqual(run.events.last?["outcome"] as? String, "completed")
        let gets = requested().filter { $0.contains("GET /big.mp4") }
        XCTAssertGreaterThan(gets.count, 1, "more than one range: \(gets)")
        XCTAssertTrue(gets.allSatisfy { $0.contains("launchad/") && $0.contains("\" 206 ") }, "\(gets)")
    }
}
