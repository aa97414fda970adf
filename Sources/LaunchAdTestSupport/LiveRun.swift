import Foundation

/// A launchad process a test talks to while it runs: events are read as they arrive, control
/// lines are written when the test chooses.
// unchecked Sendable: `lines`, `finished` and `exited` are guarded by `lock`; the process and pipe are
// Foundation's thread-safe objects.
public final class LiveRun: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let lock = NSCondition()
    private var lines: [[String: Any]] = []
    private var finished = false
    private var exited = false
    public let started = Date()

    public init(_ args: [String], environment: [String: String]) throws {
        process.executableURL = URL(fileURLWithPath: Launchad.binary)
        process.arguments = args
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = input
        process.terminationHandler = { [weak self] _ in
            guard let self else { return }
            lock.lock(); exited = true; lock.broadcast(); lock.unlock()
        }
        try process.run()
        let reader = Thread { [self] in
            let handle = out.fileHandleForReading
            var buffer = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                while let nl = buffer.firstIndex(of: 0x0A) {
                    let line = buffer[buffer.startIndex..<nl]
                    buffer.removeSubrange(buffer.startIndex...nl)
                    if let obj = (try? JSONSerialization.jsonObject(with: line)) as? [String: Any] {
                        lock.lock(); lines.append(obj); lock.broadcast(); lock.unlock()
                    }
                }
            }
            lock.lock(); finished = true; lock.broadcast(); lock.unlock()
        }
        reader.start()
    }

    public var events: [[String: Any]] { lock.lock(); defer { lock.unlock() }; return lines }
    public func events(named name: String) -> [[String: Any]] { events.filter { $0["event"] as? String == name } }

    /// Waits for the first event called `name`; nil if the process ends or time runs out first.
    @discardableResult
    public func waitFor(_ name: String, timeout: TimeInterval = 10) -> [String: Any]? {
        let deadline = Date().addingTimeInterval(timeout)
        lock.lock(); defer { lock.unlock() }
        while true {
            if let e = lines.first(where: { $0["event"] as? String == name }) { return e }
            if finished || !lock.wait(until: deadline) { return lines.first { $0["event"] as? String == name } }
        }
    }

    public func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Waits for the process to exit (killing it after `timeout`) and returns its status.
    public func finish(timeout: TimeInterval = 20) -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        lock.lock()
        while !exited && lock.wait(until: deadline) {}
        lock.unlock()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        lock.lock()
        while !finished { _ = lock.wait(until: Date().addingTimeInterval(2)); break }
        lock.unlock()
        return process.terminationStatus
    }

    public var seconds: Double { Date().timeIntervalSince(started) }
}
