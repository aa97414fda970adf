import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

/// The embedding examples as their users run them (scripts/build-examples.sh builds them into
/// .build/examples): the C SDL host's and Xlib host's windows read back from Xvfb (their colour,
/// then the ad, then their colour again), the Python (ctypes) and Swift hosts headless; each one's events are the
/// command line's for the same ad.
final class EmbeddingExamplesTests: XCTestCase {
    private static let root = Fixtures.repoRoot
    private static let examples = root.appendingPathComponent(".build/examples")

    private static var built: Result<Void, Error> { ExamplesBuild.built }

    /// A red clip of 1.5 s, no sound: red is easy to find on screen.
    private func redClip() throws -> String {
        try Fixtures.make(
            "embed-red-1.5s.mp4", ["-f", "lavfi", "-i", "color=c=red:s=640x360:d=1.5:r=25", "-c:v", "libx264", "-pix_fmt", "yuv420p"])
    }

    private func commandLineEvents(_ args: [String]) throws -> [String] { try ExampleHosts.commandLineEvents(args) }

    func testTheSDLHostShowsItsGreenThenTheAdThenItsGreenAgain() throws {
        try assertWindowed("sdl-host", "green") { $0.g > 140 && $0.r < 60 }
    }

    /// The Xlib host gives launchad its window's X11 id (launchad_attach_x11); no SDL of its own.
    func testTheX11HostShowsItsBlueThenTheAdThenItsBlueAgain() throws {
        try assertWindowed("x11-host", "blue") { $0.b > 140 && $0.r < 60 && $0.g < 100 }
    }

    /// A windowed example host under Xvfb, its window read back: its own `colour`, then the
    /// ad's red, then its colour again after the end; exit 0 and the command line's events.
    private func assertWindowed(
        _ name: String, _ colourName: String, isOwn: @escaping ((r: UInt8, g: UInt8, b: UInt8)) -> Bool,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        try Self.built.get()
        let clip = try redClip()
        let (xvfb, display) = try Xvfb.start(["-screen", "0", "1280x720x24", "-nolisten", "tcp"])
        defer { xvfb.terminateIfRunning() }
        let screen = try XScreen(display)
        let host = try HostProcess(
            Self.examples.appendingPathComponent(name).path, [clip, "--transition", "none"],
            // X11 said outright: other tests of this process set SDL_VIDEODRIVER=dummy in its
            // environment, which the host would inherit and draw nowhere.
            environment: ["DISPLAY": display, "SDL_VIDEODRIVER": "x11", "SDL_AUDIODRIVER": "dummy"])
        defer { host.stop() }
        let middle = Rect(x: 600, y: 340, width: 80, height: 40)
        func colour() throws -> (r: UInt8, g: UInt8, b: UInt8) {
            let p = try screen.grab(middle)
            return p[40, 20]
        }
        func own() -> Bool { (try? colour()).map(isOwn) ?? false }
        // The host's colour before the ad's first frame.
        XCTAssertTrue(Wait.until(timeout: 10) { own() }, "\(name)'s \(colourName)", file: file, line: line)
        XCTAssertNotNil(host.waitFor("event first_frame"), host.output, file: file, line: line)
        // The colours are the test, not how soon a loaded machine's X server shows them: each wait
        // ends as soon as its colour is on screen.
        XCTAssertTrue(
            Wait.until(timeout: 20) { (try? colour()).map { $0.r > 200 && $0.g < 60 && $0.b < 60 } ?? false },
            "the ad's red in \(name)'s window", file: file, line: line)
        XCTAssertNotNil(host.waitFor("event end completed"), host.output, file: file, line: line)
        XCTAssertTrue(Wait.until(timeout: 20) { own() }, "\(name)'s \(colourName) again", file: file, line: line)
        XCTAssertEqual(host.finish(), 0, host.output, file: file, line: line)
        // The command line's events, after the embedding API's own `ready` (the hosts prepare, then present).
        XCTAssertEqual(host.lines, try ["ready"] + commandLineEvents([clip, "--transition", "none"]), file: file, line: line)
    }

    func testThePythonHostPlaysHeadlessThroughCtypes() throws {
        try Self.built.get()
        let clip = try redClip()
        let host = try HostProcess(
            "/usr/bin/python3", [Self.root.appendingPathComponent("examples/python-host/host.py").path, clip, "--transition", "none"],
            environment: [
                "SDL_AUDIODRIVER": "dummy", "SDL_VIDEODRIVER": "dummy",
                "LAUNCHAD_LIBRARY": Self.examples.appendingPathComponent("lib/liblaunchad.so.0").path
            ])
        XCTAssertEqual(host.finish(), 0, host.output)
        XCTAssertEqual(host.lines.last, "end completed")
        XCTAssertEqual(host.lines, try ["ready"] + commandLineEvents([clip, "--transition", "none"]))
    }

    func testTheSwiftHostPlaysThroughTheSwiftAPI() throws {
        try Self.built.get()
        let clip = try redClip()
        let host = try HostProcess(
            Self.examples.appendingPathComponent("swift-host").path, [clip, "--transition", "none"],
            environment: ["SDL_AUDIODRIVER": "dummy", "SDL_VIDEODRIVER": "dummy"])
        XCTAssertEqual(host.finish(), 0, host.output)
        XCTAssertEqual(host.lines, try ["ready"] + commandLineEvents([clip, "--transition", "none"]))
    }
}

/// The examples and the installed-like library, built once for the test process
/// (scripts/build-examples.sh; the library and the Swift host are built with the tests).
enum ExamplesBuild {
    static let root = Fixtures.repoRoot
    static let folder = root.appendingPathComponent(".build/examples")

    static let built: Result<Void, Error> = Result {
        let run = try Fixtures.run("/bin/bash", [root.appendingPathComponent("scripts/build-examples.sh").path, "--skip-build"])
        guard run.status == 0 else { throw FixtureError("build-examples.sh failed: \(run.stderr)") }
    }

    /// A C host of the tests' own (Tests/LaunchAdKitTests/Hosts/NAME.c), built as an application
    /// would be against the library: pkg-config launchad.
    /// `packages`: pkg-config packages it also links (egl, gl, x11).
    static func testHost(_ name: String, packages: [String] = []) throws -> String {
        try built.get()
        let source = root.appendingPathComponent("Tests/LaunchAdKitTests/Hosts/\(name).c").path
        let binary = folder.appendingPathComponent(name).path
        // Built beside and renamed into place: a host of this name may be running in another test process.
        let built = binary + ".new\(getpid())"
        let pc = folder.appendingPathComponent("pkgconfig").path
        let run = try Fixtures.run(
            "/bin/sh",
            [
                "-c",
                "gcc -std=c11 -Wall -Werror -O2 \"$1\" -o \"$2\" $(PKG_CONFIG_PATH=\"$3\" pkg-config --cflags --libs launchad $5) -Wl,-rpath,\"$4\"",
                "sh", source, built, pc, folder.appendingPathComponent("lib").path, packages.joined(separator: " ")
            ])
        guard run.status == 0 else { throw FixtureError("cannot build \(name): \(run.stderr)") }
        guard rename(built, binary) == 0 else { throw FixtureError("cannot put \(name) in place") }
        return binary
    }
}

/// An example host's process: its `event ...` lines as they come.
final class HostProcess: @unchecked Sendable {
    // unchecked Sendable: `text` is read and written under `lock` (the pipe's reader thread appends).
    private let process = Process()
    private let lock = NSCondition()
    private var text = ""
    private var exited = false

    init(_ path: String, _ args: [String], environment: [String: String]) throws {
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = args
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        out.fileHandleForReading.readabilityHandler = { [weak self] h in
            let data = h.availableData
            guard let self else { return }
            self.lock.lock()
            if data.isEmpty { self.exited = true } else { self.text += String(decoding: data, as: UTF8.self) }
            self.lock.broadcast()
            self.lock.unlock()
        }
        try process.run()
    }

    var output: String { lock.lock(); defer { lock.unlock() }; return text }

    /// The events printed, without the `event ` prefix.
    var lines: [String] {
        output.split(separator: "\n").filter { $0.hasPrefix("event ") }.map { String($0.dropFirst(6)) }
    }

    /// Waits for a line; nil when the host ended (or 20 s passed) without it.
    func waitFor(_ line: String) -> String? {
        let deadline = Date(timeIntervalSinceNow: 20)
        lock.lock()
        defer { lock.unlock() }
        while true {
            if text.split(separator: "\n").contains(where: { $0 == line }) { return line }
            if exited || !lock.wait(until: deadline) { return nil }
        }
    }

    /// The first line starting with `prefix`; nil when the host ended (or 20 s passed) without one.
    func waitFor(prefix: String) -> String? {
        let deadline = Date(timeIntervalSinceNow: 20)
        lock.lock()
        defer { lock.unlock() }
        while true {
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) { return String(line) }
            if exited || !lock.wait(until: deadline) { return nil }
        }
    }

    var pid: Int32 { process.processIdentifier }

    func signal(_ s: Int32) { if process.isRunning { kill(process.processIdentifier, s) } }

    func finish() -> Int32 {
        let deadline = Date(timeIntervalSinceNow: 30)
        lock.lock()
        // The pipe's end (the host's exit closes it) wakes the wait.
        while !exited && lock.wait(until: deadline) {}
        lock.unlock()
        process.terminateIfRunning()
        process.waitUntilExit()
        return process.terminationStatus
    }

    func stop() { process.terminateIfRunning() }
}
