import LaunchAdCore
import XCTest

@testable import LaunchAdCLI
@testable import LaunchAdEngine

/// `play --vast` and `validate --vast` on the command line.
final class VASTOptionsTests: XCTestCase {
    func usageError(_ args: [String]) -> String? {
        do { _ = try PlayOptions.parse(args); return nil } catch { return "\(error)" }
    }

    func testPlayVASTOptions() throws {
        let o = try XCTUnwrap(
            try PlayOptions.parse([
                "--vast", "https://ads.example/tag", "--vast-timeout", "2.5", "--max-wrappers", "3",
                "--max-bitrate", "4000", "--allow-http", "--skip-after", "2"
            ]))
        XCTAssertEqual(o.file, "https://ads.example/tag")
        XCTAssertEqual(o.vast.tag, "https://ads.example/tag")
        XCTAssertEqual(o.vast.timeout, 2.5)
        XCTAssertEqual(o.vast.maxWrappers, 3)
        XCTAssertEqual(o.vast.maxBitrateKbps, 4000)
        XCTAssertTrue(o.vast.allowHTTP)
        XCTAssertTrue(o.vast.skipAfterGiven)
        let plain = try XCTUnwrap(try PlayOptions.parse(["tag.xml"]))
        XCTAssertNil(plain.vast.tag)
        XCTAssertFalse(plain.vast.skipAfterGiven)
        XCTAssertEqual(plain.vast.timeout, 5)
        XCTAssertEqual(plain.vast.maxWrappers, 5)
    }

    func testBadVASTOptionsAreOneLineUsageErrors() {
        XCTAssertEqual(usageError(["--vast", "tag.xml", "ad.mp4"]), "play --vast tag.xml takes no FILE, got 'ad.mp4'")
        XCTAssertEqual(usageError(["--vast", "javascript://x"]), "--vast takes an http(s) URL or a FILE, not 'javascript://x'")
        XCTAssertNotNil(usageError(["--vast", "t.xml", "--max-wrappers", "-1"]))
        XCTAssertNotNil(usageError(["--vast", "t.xml", "--vast-timeout", "0"]))
        XCTAssertNotNil(usageError(["--vast"]))
    }

    func testValidateVAST() throws {
        let o = try XCTUnwrap(try ValidateOptions.parse(["--vast", "tag.xml", "--format", "junit", "--max-wrappers", "2"]))
        XCTAssertEqual(o.vast, "tag.xml")
        XCTAssertEqual(o.files, [])
        XCTAssertEqual(o.maxWrappers, 2)
        XCTAssertThrowsError(try ValidateOptions.parse(["--format", "json"]))
    }
}
