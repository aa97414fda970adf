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
