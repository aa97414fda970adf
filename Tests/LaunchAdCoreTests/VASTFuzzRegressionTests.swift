import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

/// Replays what the VAST fuzz target (Fuzz/VASTFuzz.swift) found and started from: each input
/// parses or is refused with a VAST error code, and what resolves names only http(s) URIs.
final class VASTFuzzRegressionTests: XCTestCase {
    func testFuzzInputsParseOrAreRefusedWithACode() throws {
        let inputs = ManifestFuzzRegressionTests.inputs("vast")
        XCTAssertGreaterThan(inputs.count, 3, "the seeds are there")
        var parsed = 0, refused = 0
        for file in inputs {
            do {
                let doc = try VASTParser.parse(try Data(contentsOf: file), budget: VASTLimits.budget(seconds: 5))
                parsed += 1
                for ad in doc.ads {
                    var chain = VASTChain(maxWrappers: 5)
                    do {
                        _ = try chain.step(ad)
                        XCTAssertNil(VASTURIs.firstUnsafe(in: ad), "\(file.lastPathComponent): only http(s) URIs pass")
                    } catch let e as VASTError {
                        XCTAssertTrue([101, 302, 300].contains(e.code), "\(file.lastPathComponent): \(e)")
                    }
                }
            } catch let e as VASTError {
                refused += 1
                XCTAssertTrue([100, 101, 102].contains(e.code), "\(file.lastPathComponent): \(e)")
            }
        }
        XCTAssertGreaterThan(parsed, 0)
        XCTAssertGreaterThan(refused, 0, "the entity seed is refused")
    }
}
