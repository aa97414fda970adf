import Foundation

/// The environment of the programs launchad starts (the `--then` app, the link opener):
/// launchad's own as it was given, without the variables launchad set for itself at start and
/// without the secrets meant for launchad alone.
public enum ChildEnvironment {
    private static let own = Locked<Set<String>>([])

    /// `name` was set by launchad for itself (before main): its children do not get it.
    public static func markOwn(_ name: String) { own.withLock { _ = $0.insert(name) } }

    /// Variables that carry secrets meant for launchad (`LAUNCHAD_CLICKHOUSE_USER`, `_KEY`, the
    /// `_URL` they are for, the `_CREDENTIALS` file): every variable with this prefix stays with
    /// launchad, so an app started with `--then` cannot read the screen's ClickHouse key.
    public static let secretPrefix = "LAUNCHAD_CLICKHOUSE_"

    /// Whether `name` is launchad's alone.
    public static func isSecret(_ name: String) -> Bool { name.hasPrefix(secretPrefix) }

    /// The environment a child gets, as a dictionary (for Foundation's `Process`).
    public static var variables: [String: String] {
        let dropped = own.withLock { $0 }
        return ProcessInfo.processInfo.environment.filter { !dropped.contains($0.key) && !isSecret($0.key) }
    }

    /// Runs `body` with the child's environment as a C array of "NAME=value" strings (for
    /// posix_spawn), freed afterwards.
    public static func withCArray<Result>(_ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) throws -> Result) rethrows -> Result
    {
        var array: [UnsafeMutablePointer<CChar>?] = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for p in array { free(p) } }
        return try array.withUnsafeMutableBufferPointer { try body($0.baseAddress!) }
    }
}
