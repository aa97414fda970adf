import Foundation

/// Runs the built `launchad` binary as a user would, for end-to-end tests.
public enum Launchad {
    /// The binary next to the test bundle in the build folder.
    public static let binary: String = {
        var dir = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("launchad").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir.deleteLastPathComponent()
        }
        return Fixtures.repoRoot.appendingPathComponent(".build/debug/launchad").path
    }()

    /// The environment for headless runs: dummy video and audio drivers, no display.
    public static func headlessEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["SDL_VIDEODRIVER"] = "dummy"
        env["SDL_AUDIODRIVER"] = "dummy"
        env.removeValue(forKey: "DISPLAY")
        env.removeValue(forKey: "WAYLAND_DISPLAY")
        for (k, v) in extra { env[k] = v }
        return env
    }

    public struct Run: Sendable {
        public let status: Int32
        public let stdout: String
        public let stderr: String
        public let seconds: Double
        public init(status: Int32, stdout: String, stderr: String, seconds: Double) {
            self.status = status; self.stdout = stdout; self.stderr = stderr; self.seconds = seconds
        }
        /// The JSON-lines events on stdout, decoded.
        public var events: [[String: Any]] {
            stdout.split(separator: "\n").compactMap {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
            }
        }
        public func events(named name: String) -> [[String: Any]] { events.filter { $0["event"] as? String == name } }
    }

    /// Reads `handle` until what was read contains `text` (or the writer closes it); returns what was read.
    public static func read(_ handle: FileHandle, until text: String) -> Data {
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains(text) {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            seen.append(chunk)
        }
        return seen
    }

    public static func run(_ args: [String], environment: [String: String]? = nil, stdin: Data? = nil) throws -> Run {
        let start = Date()
        let r = try Fixtures.run(binary, args, environment: environment ?? headlessEnvironment(), stdin: stdin)
        return Run(status: r.status, stdout: r.stdout, stderr: r.stderr, seconds: Date().timeIntervalSince(start))
    }
}
