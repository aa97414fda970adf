import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

@testable import LaunchAdKit

/// Signed manifests through the embedding library (`--trust-key=` in its argument list): the
/// library takes the command line's launch, and shows only what the command line would.
final class EmbeddedTrustTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        setenv("SDL_AUDIODRIVER", "dummy", 1)
        setenv("SDL_VIDEODRIVER", "dummy", 1)
        folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("launchad-kit-trust-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    /// Review of issue 40: an ad cached from an unsigned manifest, under the id the operator's
    /// signed manifest names (whose own creative is withheld), is not shown by a host that
    /// trusts the operator's key: `cache_miss` `unverified`, then the signed entry (not there
    /// either): no ad.
    func testAnAdCachedUnsignedIsNotShownUnderTheSameIdAsASignedOne() throws {
        let manifest = folder.appendingPathComponent("manifest.json")
        let cache = folder.appendingPathComponent("cache").path
        let planted = try Fixtures.solidPNG("red"), withheld = try Fixtures.solidPNG("blue")
        try planted.write(to: folder.appendingPathComponent("planted.png"))
        func entry(_ file: String, _ png: Data) -> String {
            #"{"id": "spring-sale", "type": "image", "duration": 0.4, "variants": [{"url": "\#(file)", "width": 320, "height": 240, "bytes": \#(png.count), "sha256": "\#(SHA256.hex(of: png))"}]}"#
        }
        try Minisign.manifest(version: nil, expires: nil, ads: entry("planted.png", planted)).write(to: manifest)
        let taken = try Launchad.run(["prefetch", "--manifest", manifest.path, "--cache", cache, "--size", "320x240"])
        XCTAssertEqual(taken.status, 0, taken.stderr)
        // The operator's signed manifest names the id; its own file is not there.
        let key = try Minisign(in: folder, name: "operator")
        try Minisign.manifest(version: 1, expires: nil, ads: entry("withheld.png", withheld)).write(to: manifest)
        try key.sign(manifest.path)
        let verified = try Launchad.run([
            "prefetch", "--manifest", manifest.path, "--cache", cache, "--size", "320x240", "--trust-key", key.publicKeyFile
        ])
        XCTAssertEqual(verified.status, 1, "verified, its creative missing: \(verified.stderr)")

        let ad = try LaunchAd(arguments: [
            "launch", "--manifest", manifest.path, "--cache", cache, "--state", folder.appendingPathComponent("state").path,
            "--trust-key=\(key.publicKeyFile)", "--transition", "none", "--wait", "2"
        ])
        XCTAssertThrowsError(try ad.prepareNow(timeout: 20)) { XCTAssertEqual($0 as? LaunchAd.PrepareError, .noAd) }
        var events: [AdEvent] = []
        ad.onEvent = { events.append($0) }
        ad.pollEvents()
        XCTAssertEqual(events.filter { $0.name == "cache_hit" }.count, 0, "\(events.map(\.name))")
        XCTAssertEqual(events.first { $0.name == "cache_miss" }?["reason"], "unverified")
        XCTAssertEqual(events.last?["outcome"], "no_ad")
    }
}
