import Foundation
import LaunchAdCore

/// A launchad process a test talks to while it runs: events are read as they arrive, control
/// lines are written when the test chooses.
public final class LiveRun: Sendable {
    private let process = Process()
    private let input = Pipe()
    private struct State: Sendable {
        /// Each event line as it came (parsed when read: JSON objects are not Sendable).
        var lines: [Data] = []
        var finished = false
        var exited = false
        var startUptime = 0.0
    }
    private let state = Locked(State())
    public let started = Date()

    public init(_ args: [String], environment: [String: String]) throws {
        process.executableURL = URL(fileURLWithPath: Launchad.binary)
        process.arguments = args
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = input
        process.terminationHandler = { [state] _ in state.change { $0.exited = true } }
        try process.run()
        let startUptime = ProcessClock.startUptime(ofProcess: process.processIdentifier) ?? ProcessClock.uptimeSeconds()
        state.change { $0.startUptime = startUptime }
        let reader = Thread { [state] in
            let handle = out.fileHandleForReading
            var buffer = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                while let nl = buffer.firstIndex(of: 0x0A) {
                    let line = buffer[buffer.startIndex..<nl]
                    buffer.removeSubrange(buffer.startIndex...nl)
                    if Self.object(line) != nil { state.change { $0.lines.append(Data(line)) } }
                }
            }
            state.change { $0.finished = true }
        }
        reader.start()
    }

    private static func object(_ line: Data) -> [String: Any]? { (try? JSONSerialization.jsonObject(with: line)) as? [String: Any] }

    /// When the process started in `ProcessClock.uptimeSeconds()`: the zero of its events' `t_ms`.
    public var startUptime: Double { state.withLock { $0.startUptime } }

    /// The launchad process's id.
    public var pid: Int32 { process.processIdentifier }

    public var events: [[String: Any]] { state.withLock { $0.lines }.compactMap(Self.object) }
    public func events(named name: String) -> [[String: Any]] { events.filter { $0["event"] as? String == name } }

    /// Waits for the first event called `name`; nil if the process ends or time runs out first.
    @discardableResult
    public func waitFor(_ name: String, timeout: TimeInterval = 10) -> [String: Any]? {
        func first(_ s: State) -> [String: Any]? { s.lines.lazy.compactMap(Self.object).first { $0["event"] as? String == name } }
        return state.wait(
            until: { first($0) != nil || $0.finished }, deadline: Date().addingTimeInterval(timeout),
            then: { s, _ in
                first(s)
            })
    }

    public func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Waits for the process to exit (ending it after `timeout`: SIGTERM, and SIGKILL 3 s later
    /// for one that does not answer it, so that a hang fails the test instead of holding it) and
    /// returns its status.
    public func finish(timeout: TimeInterval = 20) -> Int32 {
        state.wait(until: { $0.exited }, deadline: Date().addingTimeInterval(timeout))
        process.terminateIfRunning()
        if !state.wait(until: { $0.exited }, deadline: Date().addingTimeInterval(3)) { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        // The reader gets the last lines (it ends at the pipe's end, which a grandchild may hold).
        state.wait(until: { $0.finished }, deadline: Date().addingTimeInterval(2))
        return process.terminationStatus
    }

    public var seconds: Double { Date().timeIntervalSince(started) }
}
