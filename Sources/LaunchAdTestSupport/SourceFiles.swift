import Foundation

/// The project's Swift sources, for the tests that read rules off them (typed events, code shape).
public enum SourceFiles {
    /// Every `.swift` file under `Sources/`, as (path from the checkout's root, text), by path.
    public static func all() throws -> [(path: String, text: String)] {
        let root = Fixtures.repoRoot.appendingPathComponent("Sources")
        let files =
            FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        return try files.map {
            ($0.path.replacingOccurrences(of: Fixtures.repoRoot.path + "/", with: ""), try String(contentsOf: $0, encoding: .utf8))
        }.sorted { $0.path < $1.path }
    }
}
