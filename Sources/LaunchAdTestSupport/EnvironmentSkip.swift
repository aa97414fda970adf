import XCTest

/// A skip for a fact of the machine that a CI run cannot have (no root, a GPU's /dev/dri present),
/// as opposed to something that went wrong (a compositor that timed out, a mount that failed).
/// `scripts/test.sh` accepts in CI only skips whose reason starts with "environment:", and fails
/// the run on any other skip.
public enum EnvironmentSkip {
    public static func because(_ reason: String) -> XCTSkip { XCTSkip("environment: " + reason) }

    /// Skips unless the tests run as root (CI does).
    public static func unlessRoot(_ what: String) throws {
        if geteuid() != 0 { throw because("not root: \(what) needs root") }
    }
}
