import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

/// A URL named by a document from a public address may not reach internal ones (loopback, LAN,
/// link-local). Every test server here is on loopback, so the documented test seam
/// `LAUNCHAD_TEST_PUBLIC_ADDRESSES=127.0.0.2` (read by debug builds only) makes 127.0.0.2 count
/// as a public *source*: a document served from there plays the remote ad server, and
/// 127.0.0.1 (nginx, the tracker) plays the inside that it must not reach. The seam only
/// narrows: 127.0.0.2 itself stays unreachable for the URLs such a document names.
final class PrivateNetworkTests: XCTestCase {
    var nginx: Nginx!
    var state: String!
    let publicEnvironment = Launchad.headlessEnvironment(["LAUNCHAD_TEST_PUBLIC_ADDRESSES": "127.0.0.2"])

    override func setUpWithError() throws {
        nginx = try Nginx()
        state = NSTemporaryDirectory() + "launchad-ssrf-\(UUID().uuidString)"
        let clip = try Fixtures.colourBars(seconds: 1, audio: false)
        try nginx.put("ad.mp4", Data(contentsOf: URL(fileURLWithPath: clip)))
    }

    override func tearDown() {
        nginx.stop()
        try? FileManager.default.removeItem(atPath: state)
    }

    func gets(_ path: String) -> Int {
        let log = (try? String(contentsOf: nginx.prefix.appendingPathComponent("logs/access.log"), encoding: .utf8)) ?? ""
        return log.split(separator: "\n").filter { $0.contains("GET \(path)") }.count
    }

    /// A tag from a "public" address naming an internal tracker and media file: no beacon,
    /// error included, reaches the tracker (not now, not from a later `outbox flush`), the
    /// media file is never requested, and the run ends once. `--allow-private-network` plays it.
    func testATagFromAPublicAddressCannotReachInternalOnes() throws {
        let tracker = try Collector()
        let tag = try Collector(status: 200, host: "127.0.0.2")
        tag.answer = Data(
            VASTTags.document([
                VASTTags.inlineAd(
                    id: "x", track: "\(tracker.url)/t", media: [VASTTags.mediaFile("\(nginx.base)/ad.mp4")],
                    events: ["start", "complete"], duration: "00:00:01")
            ]).utf8)
        let run = try Launchad.run(["play", "\(tag.url)/tag", "--state", state, "--transition", "none"], environment: publicEnvironment)
        XCTAssertEqual(run.status, 3, run.stdout + run.stderr)
        XCTAssertEqual(run.events(named: "end").count, 1)
        XCTAssertTrue(run.events(named: "first_frame").isEmpty)
        XCTAssertTrue(run.stdout.contains("an internal address, and was named by a document from a public address"), run.stdout)
        let flush = try Launchad.run(["outbox", "flush", "--state", state], environment: publicEnvironment)
        XCTAssertTrue(flush.stdout.contains(#""pending":0"#), flush.stdout)
        XCTAssertEqual(tracker.received.count, 0, "no beacon reached the internal tracker")
        XCTAssertEqual(gets("/ad.mp4"), 0)

        let lab = try Launchad.run(
            ["play", "\(tag.url)/tag", "--state", state, "--transition", "none", "--allow-private-network"],
            environment: publicEnvironment)
        XCTAssertEqual(lab.status, 0, lab.stdout + lab.stderr)
        XCTAssertTrue(tracker.wait(for: 3), "impression, start, complete with --allow-private-network")
    }

    /// A wrapper from a "public" address pointing inside: the inner document is never fetched.
    func testAWrapperFromAPublicAddressCannotPointInside() throws {
        try nginx.put(
            "inner.xml",
            Data(
                VASTTags.document([
                    VASTTags.inlineAd(
                        id: "in", track: "\(nginx.base)/track",
                        media: [VASTTags.mediaFile("\(nginx.base)/ad.mp4")])
                ]).utf8))
        let tag = try Collector(status: 200, host: "127.0.0.2")
        tag.answer = Data(VASTTags.document([VASTTags.wrapperAd(id: "w", track: "\(tag.url)/t", next: "\(nginx.base)/inner.xml")]).utf8)
        let run = try Launchad.run(["play", "\(tag.url)/tag", "--state", state], environment: publicEnvironment)
        XCTAssertEqual(run.status, 3, run.stdout)
        XCTAssertEqual(run.events(named: "error").first?["vast_error"] as? Int, 301, run.stdout)
        XCTAssertEqual(gets("/inner.xml"), 0)
    }

    /// A redirect is a document: a creative the user named on a "public" address that redirects
    /// to 127.0.0.1 is refused at the redirect.
    func testARedirectFromAPublicAddressCannotLeadInside() throws {
        let target = "\(nginx.base)/ad.mp4"
        let away = try ScriptedServer(host: "127.0.0.2") { fd, _ in
            _ = ScriptedServer.send(
                fd, Data("HTTP/1.1 302 Found\r\nLocation: \(target)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))
        }
        let run = try Launchad.run(["play", "http://127.0.0.2:\(away.port)/ad.mp4"], environment: publicEnvironment)
        XCTAssertEqual(run.status, 3, run.stdout)
        XCTAssertTrue(run.events(named: "first_frame").isEmpty)
        XCTAssertEqual(gets("/ad.mp4"), 0)
        XCTAssertTrue((run.events(named: "error").first?["message"] as? String ?? "").contains("internal address"), run.stdout)
    }

    /// A manifest from a "public" address naming an internal creative: rejected, not fetched.
    func testAManifestFromAPublicAddressCannotNameInternalCreatives() throws {
        let png = try Fixtures.solidPNG("red")
        try nginx.put("red.png", png)
        let manifest = try Collector(status: 200, host: "127.0.0.2")
        manifest.answer = Data(
            #"{"ads": [{"id": "r", "type": "image", "variants": [{"url": "\#(nginx.base)/red.png", "width": 320, "height": 240, "bytes": \#(png.count), "sha256": "\#(SHA256.hex(of: png))"}]}]}"#
                .utf8)
        let cache = NSTemporaryDirectory() + "launchad-ssrf-cache-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let run = try Launchad.run(
            ["prefetch", "--manifest", "\(manifest.url)/manifest.json", "--cache", cache, "--retries", "0", "--no-progress"],
            environment: publicEnvironment)
        XCTAssertEqual(run.status, 1, run.stdout)
        XCTAssertTrue(
            run.stderr.contains("launchad: r: refusing \(nginx.base)/red.png: it resolves to 127.0.0.1, an internal address"), run.stderr)
        XCTAssertEqual(gets("/red.png"), 0)
    }

    /// A cached ad from a "public" manifest: its impression, fired at `launch` from the cache
    /// and sent by a later `outbox flush`, cannot reach the internal tracker.
    func testACachedAdFromAPublicManifestFiresNoBeaconInside() throws {
        let tracker = try Collector()
        let png = try Fixtures.solidPNG("red")
        let manifest =
            #"{"ads": [{"id": "r", "type": "image", "tracking": {"impression": ["\#(tracker.url)/imp"]}, "variants": [{"url": "red.png", "width": 320, "height": 240, "bytes": \#(png.count), "sha256": "\#(SHA256.hex(of: png))"}]}]}"#
        let server = try ScriptedServer(host: "127.0.0.2") { fd, request in
            let body = request.hasPrefix("GET /red.png") ? png : Data(manifest.utf8)
            _ = ScriptedServer.send(fd, Data("HTTP/1.1 200 OK\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n".utf8) + body)
        }
        let cache = NSTemporaryDirectory() + "launchad-ssrf-cache-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let url = "http://127.0.0.2:\(server.port)/manifest.json"
        // The seam only narrows: 127.0.0.2 stays internal for connections, so the creative is cached
        // by a lab run; the index still records the manifest's public reach.
        let fetched = try Launchad.run(
            ["prefetch", "--manifest", url, "--cache", cache, "--state", state, "--no-progress", "--allow-private-network"],
            environment: publicEnvironment)
        XCTAssertEqual(fetched.status, 0, fetched.stderr)
        let run = try Launchad.run(
            [
                "launch", "--manifest", url, "--cache", cache, "--state", state, "--size", "320x240", "--transition", "none",
                "--beacon-wait", "2"
            ], environment: publicEnvironment)
        XCTAssertEqual(run.events(named: "cache_hit").count, 1, run.stdout)
        XCTAssertEqual(run.events.last?["outcome"] as? String, "completed", run.stdout)
        let flush = try Launchad.run(["outbox", "flush", "--state", state], environment: publicEnvironment)
        XCTAssertTrue(flush.stdout.contains(#""beacons":{"delivered":0,"retried":0,"expired":0,"dropped":0,"refused":1"#), flush.stdout)
        XCTAssertEqual(tracker.received.count, 0)
    }

    /// Issue 29 defect 13: the seam may not widen. Declaring 127.0.0.1 itself "public" makes
    /// the documents it serves public, and so what they name is refused: it never lets a
    /// public document's URL reach 127.0.0.1 (it did: the listed address became reachable).
    func testTheTestSeamOnlyNarrows() throws {
        let tracker = try Collector()
        let tag = try Collector(status: 200, host: "127.0.0.2")
        tag.answer = Data(
            VASTTags.document([
                VASTTags.inlineAd(id: "x", track: "\(tracker.url)/t", media: [VASTTags.mediaFile("\(nginx.base)/ad.mp4")])
            ]).utf8)
        let widened = Launchad.headlessEnvironment(["LAUNCHAD_TEST_PUBLIC_ADDRESSES": "127.0.0.2,127.0.0.1"])
        let run = try Launchad.run(["play", "\(tag.url)/tag", "--state", state, "--transition", "none"], environment: widened)
        XCTAssertEqual(run.status, 3, run.stdout + run.stderr)
        XCTAssertEqual(gets("/ad.mp4"), 0, "the media file on 127.0.0.1 was not requested")
        XCTAssertTrue(run.stdout.contains("127.0.0.1, an internal address"), run.stdout)
    }

    /// The release build does not read the seam at all: the variable is compiled only under
    /// LAUNCHAD_TEST_SEAMS, which Package.swift defines for the debug configuration alone.
    func testTheReleaseBuildDoesNotReadTheSeam() throws {
        let package = try String(contentsOf: Fixtures.repoRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        XCTAssertTrue(package.contains(#".define("LAUNCHAD_TEST_SEAMS", .when(configuration: .debug))"#))
        let policy = try String(
            contentsOf: Fixtures.repoRoot.appendingPathComponent("Sources/LaunchAdDelivery/Net/AddressPolicy.swift"), encoding: .utf8)
        let guarded = try XCTUnwrap(policy.range(of: "#if LAUNCHAD_TEST_SEAMS"))
        let end = try XCTUnwrap(policy.range(of: "#else", range: guarded.upperBound..<policy.endIndex))
        let variable = try XCTUnwrap(policy.range(of: "LAUNCHAD_TEST_PUBLIC_ADDRESSES\"]"))
        XCTAssertTrue(variable.lowerBound > guarded.upperBound && variable.upperBound < end.lowerBound, "read only inside the #if")
        let everywhere = try FetchGatewayTests.sources().filter { $0.code.contains("LAUNCHAD_TEST_PUBLIC_ADDRESSES") }.map(\.path)
        XCTAssertEqual(everywhere, ["LaunchAdDelivery/Net/AddressPolicy.swift"])
        let release = Fixtures.repoRoot.appendingPathComponent(".build/release/launchad")
        if let binary = try? Data(contentsOf: release) {
            XCTAssertNil(binary.range(of: Data("LAUNCHAD_TEST_PUBLIC_ADDRESSES".utf8)), "a release binary built here holds the name")
        }
    }
}
