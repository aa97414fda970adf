import Foundation
import LaunchAdTestSupport
import XCTest

/// The seam that blocks the player's thread for the deadline tests (`LAUNCHAD_TEST_BLOCK_PLAYER`)
/// exists in debug builds only, like the reach seam: read only under `LAUNCHAD_TEST_SEAMS`, which
/// Package.swift defines for the player's debug configuration, and named nowhere else.
final class PlayerTestSeamTests: XCTestCase {
    func testTheBlockingSeamIsReadByDebugBuildsOnly() throws {
        let package = try String(contentsOf: Fixtures.repoRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let player = try XCTUnwrap(package.range(of: #"name: "LaunchAdPlayer", dependencies:"#), "the player's target")
        let define = try XCTUnwrap(
            package.range(of: #".define("LAUNCHAD_TEST_SEAMS", .when(configuration: .debug))"#, range: player.upperBound..<package.endIndex)
        )
        XCTAssertNil(package.range(of: ".target(", range: player.upperBound..<define.lowerBound), "defined on the player's own target")

        let seam = try String(
            contentsOf: Fixtures.repoRoot.appendingPathComponent("Sources/LaunchAdPlayer/Loop/PlayerTestSeam.swift"), encoding: .utf8)
        let guarded = try XCTUnwrap(seam.range(of: "#if LAUNCHAD_TEST_SEAMS"))
        let other = try XCTUnwrap(seam.range(of: "#else", range: guarded.upperBound..<seam.endIndex))
        let read = try XCTUnwrap(seam.range(of: #"environment["LAUNCHAD_TEST_BLOCK_PLAYER"]"#))
        XCTAssertTrue(read.lowerBound > guarded.upperBound && read.upperBound < other.lowerBound, "read only inside the #if")
        let everywhere = try SourceFiles.all().filter { $0.text.contains("LAUNCHAD_TEST_BLOCK_PLAYER") }.map(\.path)
        XCTAssertEqual(everywhere, ["Sources/LaunchAdPlayer/Loop/PlayerTestSeam.swift"])
        let release = Fixtures.repoRoot.appendingPathComponent(".build/release/launchad")
        if let binary = try? Data(contentsOf: release) {
            XCTAssertNil(binary.range(of: Data("LAUNCHAD_TEST_BLOCK_PLAYER".utf8)), "a release binary built here holds the name")
        }
    }
}
