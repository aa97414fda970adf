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

    /// An Xvfb (`args` after the display) with openbox managing it, once openbox has taken over
    /// the screen. When it does not within 15 s, what each side said and who listens on the
    /// display's sockets go to stderr (the run's log) and both are started once more: the
    /// screen is the test's setting, not what it tests, and a server another process took
    /// from under it ("openbox did not take over :0", xprop unable to open :0, seen under three
    /// shards) is not the product's failure. Both failing throws, with both diagnoses.
    public static func withOpenbox(_ args: [String]) throws -> (xvfb: Process, display: String, openbox: Process) {
        var diagnoses: [String] = []
        for attempt in 1...2 {
            let (xvfb, display) = try start(args)
            do {
                return (xvfb, display, try openbox(display: display, timeout: 15))
            } catch {
                let diagnosis = "attempt \(attempt): \(error); Xvfb still running: \(xvfb.isRunning); \(listeners(display))"
                xvfb.terminateIfRunning()
                xvfb.waitUntilExit()
                FileHandle.standardError.write(Data("Xvfb.withOpenbox: \(diagnosis)\n".utf8))
                diagnoses.append(diagnosis)
            }
        }
        throw Failed(description: diagnoses.joined(separator: " | "))
    }

    /// Who listens on display `display`'s X11 sockets (ss), and the lock files: for a diagnosis.
    private static func listeners(_ display: String) -> String {
        let n = display.dropFirst()
        let ss = (try? Fixtures.run("/usr/bin/ss", ["-xlp"]))?.stdout ?? ""
        let lines = ss.split(separator: "\n").filter { $0.contains("X11-unix/X\(n) ") || $0.hasSuffix("X11-unix/X\(n)") }
        let lock = (try? String(contentsOfFile: "/tmp/.X\(n)-lock", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        let who = lines.isEmpty ? "nobody" : lines.joined(separator: "; ")
        return "listening on X\(n): \(who); /tmp/.X\(n)-lock names pid \(lock ?? "none")"
    }

    /// openbox on X display `display`, once it has taken over the screen (it names its check
    /// window on the root); its output is dropped.
    public static func openbox(display: String, timeout: TimeInterval = 30) throws -> Process {
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
        guard Wait.forWindowManager(display: display, timeout: timeout) else {
            let running = p.isRunning
            // How it ended, when it did: a signal's number says something killed it.
            let ended = running ? "" : ", ended by \(p.terminationReason == .uncaughtSignal ? "signal" : "exit") \(p.terminationStatus)"
            let root = Wait.rootProperty(display: display, "_NET_SUPPORTING_WM_CHECK")
            p.terminateIfRunning()
            let text = (try? String(contentsOf: said, encoding: .utf8)) ?? ""
            throw Failed(
                description:
                    "openbox did not take over \(display) within \(Int(timeout)) s (still running: \(running)\(ended); the root's check: \(root); it said: \(text.prefix(400)))"
            )
        }
        return p
    }
}
