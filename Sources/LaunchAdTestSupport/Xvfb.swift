import Foundation

/// An Xvfb for a test: it picks a display no one uses (`-displayfd`, so two test runs at once never
/// share one) and says its number once it accepts clients, which is when this returns.
public enum Xvfb {
    public struct Failed: Error, CustomStringConvertible { public let description: String }

    /// The server and its display (":N"); `args` are Xvfb's options after the display.
    public static func start(_ args: [String]) throws -> (process: Process, display: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
        p.arguments = ["-displayfd", "1"] + args
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let said = String(decoding: Launchad.read(out.fileHandleForReading, until: "\n"), as: UTF8.self)
        guard let n = Int(said.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            p.terminateIfRunning()
            throw Failed(description: "Xvfb did not start (it said \"\(said)\")")
        }
        return (p, ":\(n)")
    }

    /// openbox on X display `display`, once it has taken over the screen (it names its check
    /// window on the root); its output is dropped.
    public static func openbox(display: String) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/openbox")
        p.arguments = ["--sm-disable"]
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = display
        p.environment = env
        // What openbox says goes to a file of its own, read back only when it did not take over.
        let said = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
            "openbox-\(getpid())-\(UUID().uuidString.prefix(8)).log")
        FileManager.default.createFile(atPath: said.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: said) }
        p.standardOutput = FileHandle.nullDevice
        p.standardError = try FileHandle(forWritingTo: said)
        try p.run()
        guard Wait.forWindowManager(display: display) else {
            let running = p.isRunning
            let root = Wait.rootProperty(display: display, "_NET_SUPPORTING_WM_CHECK")
            p.terminateIfRunning()
            let text = (try? String(contentsOf: said, encoding: .utf8)) ?? ""
            throw Failed(
                description:
                    "openbox did not take over \(display) within 30 s (still running: \(running); the root's check: \(root); it said: \(text.prefix(400)))"
            )
        }
        return p
    }
}
