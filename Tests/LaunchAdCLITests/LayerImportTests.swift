import Foundation
import LaunchAdTestSupport
import XCTest

/// The layers of docs/architecture.md, read off the sources and Package.swift: arrows point down
/// only. The engine is below both front ends; the library (LaunchAdKit, LaunchAdC) imports
/// nothing of the command line's, so none of its process habits come into a host.
final class LayerImportTests: XCTestCase {
    /// Each target's project modules it may import (C modules of its own layer are listed too).
    private let allowed: [String: Set<String>] = [
        "LaunchAdCore": [],
        "LaunchAdMedia": ["LaunchAdCore", "CFFmpeg", "CLazyLoad"],
        "LaunchAdPlayer": ["LaunchAdCore", "LaunchAdMedia", "CSDL2", "CWayland", "CLazyLoad"],
        "LaunchAdDelivery": ["LaunchAdCore", "LaunchAdMedia", "CCurl", "CLazyLoad", "CSodium"],
        "LaunchAdEngine": ["LaunchAdCore", "LaunchAdMedia", "LaunchAdPlayer", "LaunchAdDelivery"],
        "LaunchAdCLI": ["LaunchAdCore", "LaunchAdMedia", "LaunchAdPlayer", "LaunchAdDelivery", "LaunchAdEngine"],
        "LaunchAdKit": ["LaunchAdCore", "LaunchAdMedia", "LaunchAdPlayer", "LaunchAdDelivery", "LaunchAdEngine"],
        "LaunchAdC": ["LaunchAdCore", "LaunchAdMedia", "LaunchAdPlayer", "LaunchAdKit", "CLaunchAd"]
    ]

    /// The project's C modules (system libraries and shims).
    private static let cModules: Set<String> = [
        "CFFmpeg", "CSDL2", "CWayland", "CCurl", "CLazyLoad", "CLaunchAd", "CSodium", "CXlib", "CEarlyLoad"
    ]

    func testEachTargetImportsOnlyTheLayersBelowIt() throws {
        var wrong: [String] = []
        for (path, text) in try SourceFiles.all() {
            let parts = path.split(separator: "/")
            guard parts.count > 2, let permitted = allowed[String(parts[1])] else { continue }
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ")
                guard let i = words.firstIndex(of: "import"), i + 1 < words.count, i <= 1 else { continue }
                let module = String(words[i + 1])
                guard module.hasPrefix("LaunchAd") || Self.cModules.contains(module) else { continue }
                if !permitted.contains(module) { wrong.append("\(path) imports \(module)") }
            }
        }
        XCTAssertEqual(wrong, [])
    }

    /// Package.swift says the same: no target of the library depends on the command line's.
    func testTheLibraryDependsOnNothingOfTheCommandLine() throws {
        let manifest = try String(contentsOf: Fixtures.repoRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        for target in ["LaunchAdEngine", "LaunchAdKit", "LaunchAdC"] {
            let declaration = try XCTUnwrap(manifest.range(of: "name: \"\(target)\""), target)
            let rest = manifest[declaration.upperBound...]
            let end = rest.range(of: "]")?.lowerBound ?? rest.endIndex
            XCTAssertFalse(rest[..<end].contains("\"LaunchAdCLI\""), "\(target) depends on LaunchAdCLI")
        }
    }
}
