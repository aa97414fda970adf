import Foundation

/// Debian's chromium, headless, in a fresh network namespace with no network at all: what the
/// HTML reports render and the DOM they build, as a person's browser would.
public enum Chromium {
    /// Runs chromium on `page` (a file); `what` is `--dump-dom` or `--screenshot=PATH`.
    public static func run(_ what: String, _ page: String, size: String) throws -> Fixtures.Result {
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("launchad-chromium-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: profile) }
        return try Fixtures.run(
            "/usr/bin/timeout",
            [
                "120", "unshare", "-n", "chromium", "--headless", "--no-sandbox", "--disable-gpu",
                "--user-data-dir=\(profile.path)", "--window-size=\(size)", what,
                URL(fileURLWithPath: page).absoluteString
            ])
    }
}
