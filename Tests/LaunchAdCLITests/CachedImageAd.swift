import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

/// A red image ad of `seconds`, cached in `folder` from a local manifest, for `launch`; the
/// manifest's path and the cache's. `state`: the refresh's state folder (else the default).
func cachedRedAd(in folder: URL, seconds: Double, size: String = "640x480", state: String? = nil) throws -> (
    manifest: String, cache: String
) {
    let png = try Fixtures.solidPNG("red", size: size)
    let (w, h) = (size.split(separator: "x")[0], size.split(separator: "x")[1])
    try png.write(to: folder.appendingPathComponent("red.png"))
    let manifest = folder.appendingPathComponent("m.json").path
    try Data(
        #"{"ads": [{"id": "red", "type": "image", "duration": \#(seconds), "variants": [{"url": "red.png", "width": \#(w), "height": \#(h), "bytes": \#(png.count), "sha256": "\#(SHA256.hex(of: png))"}]}]}"#
            .utf8
    )
    .write(to: URL(fileURLWithPath: manifest))
    let cache = folder.appendingPathComponent("cache").path
    let run = try Launchad.run(["prefetch", "--manifest", manifest, "--cache", cache] + (state.map { ["--state", $0] } ?? []))
    XCTAssertEqual(run.status, 0, run.stderr)
    return (manifest, cache)
}
