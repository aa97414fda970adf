import Foundation
import LaunchAdTestSupport
import XCTest

/// What an attached ad does when its application uses its own OpenGL context carelessly but
/// legally (Hosts/gl-careless-host.c): each case broke the GL attach's promises in a review
/// (issue 39) — the ad freed a program the application had deleted while using it, wrote into
/// and deleted objects the application made under names the ad once had, held the application's
/// thread 18 s for a 16384x16384 viewport, and with a GLX application drew into and deleted
/// objects of another context (glvnd's glXGetProcAddressARB hands out a stub for
/// eglGetCurrentContext whose answer passed for a context).
final class GLCarelessHostTests: XCTestCase {
    private func clip() throws -> String {
        try Fixtures.make(
            "careless-red-4s.mp4", ["-f", "lavfi", "-i", "color=c=red:s=640x360:d=4:r=25", "-c:v", "libx264", "-pix_fmt", "yuv420p"])
    }

    /// The host's "host ..." lines, after it ran `mode` to its end (exit 0).
    private func run(_ mode: String, environment: [String: String] = [:], file: StaticString = #filePath, line: UInt = #line) throws
        -> [String]
    {
        let host = try ExamplesBuild.testHost("gl-careless-host", packages: ["egl", "gl", "x11"])
        let env = ProcessInfo.processInfo.environment.merging(["SDL_AUDIODRIVER": "dummy"].merging(environment) { $1 }) { $1 }
        let run = try Fixtures.run(host, [mode, try clip()], environment: env)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(run.status, 0, "\(lines) \(run.stderr.prefix(2000))", file: file, line: line)
        XCTAssertTrue(lines.contains("host attach 0"), "\(lines)", file: file, line: line)
        XCTAssertTrue(lines.contains("host first frame 1"), "\(lines)", file: file, line: line)
        return lines
    }

    /// The number after `word` in the line starting with `prefix`.
    private func number(_ lines: [String], _ prefix: String, after word: String) -> Int? {
        guard let l = lines.first(where: { $0.hasPrefix(prefix) }) else { return nil }
        let words = l.split(separator: " ")
        guard let i = words.firstIndex(where: { $0 == word }), i + 1 < words.count else { return nil }
        return Int(words[i + 1])
    }

    /// glUseProgram(p); glDeleteProgram(p): p lives while it is current, and the ad's own
    /// program would free it. Nothing is drawn while it is (one render_error says why); once
    /// the application lets it go, the ad draws again.
    func testAProgramDeletedWhileInUseIsKept() throws {
        let lines = try run("delete-current-program")
        XCTAssertTrue(lines.contains("host program kept 1 errors 0 drawn 0"), "\(lines)")
        XCTAssertTrue(lines.contains { $0.hasPrefix("host warning ") && $0.contains("is deleted and still in use") }, "\(lines)")
        XCTAssertGreaterThan(number(lines, "host after drawn", after: "drawn") ?? 0, 0, "\(lines)")
        XCTAssertEqual(number(lines, "host after drawn", after: "errors"), 0, "\(lines)")
    }

    /// A compatibility context's application deletes names 1..64 and makes its own textures and
    /// buffers under them: the ad sees its objects are not its own (their sizes), makes new ones,
    /// and never writes into or deletes the application's.
    func testNamesTheApplicationMadeAgainAreNeverTheAds() throws {
        let lines = try run("reuse-names")
        XCTAssertGreaterThan(number(lines, "host drawn", after: "drawn") ?? 0, 0, "the ad went on drawing: \(lines)")
        XCTAssertEqual(number(lines, "host drawn", after: "errors"), 0, "\(lines)")
        let intact = try XCTUnwrap(number(lines, "host drawn", after: "intact"), "\(lines)")
        XCTAssertEqual(intact, number(lines, "host drawn", after: "of"), "the application's objects as it made them: \(lines)")
        XCTAssertEqual(number(lines, "host after destroy", after: "alive"), number(lines, "host after destroy", after: "of"), "\(lines)")
    }

    /// A legal 16384x16384 viewport: nothing drawn and said at once (the overlay drawn on the CPU
    /// at that size took 18 s and 2.2 GB); back at 640x360 the ad draws again.
    func testAViewportLargerThan8KIsSaidNotDrawn() throws {
        let lines = try run("huge-viewport")
        XCTAssertTrue(lines.contains { $0.hasPrefix("host huge drawn 0 errors 0") }, "\(lines)")
        XCTAssertTrue(lines.contains { $0.hasPrefix("host warning ") && $0.contains("larger than the ad draws in") }, "\(lines)")
        XCTAssertGreaterThan(number(lines, "host after drawn", after: "drawn") ?? 0, 0, "\(lines)")
    }

    /// A GLX application (GTK's and Qt's GLX paths, SDL on X11) with another of its contexts
    /// current: the ad draws nothing in it and, destroyed then, deletes none of its objects.
    func testAnotherGLXContextIsToldApart() throws {
        let (xvfb, display) = try Xvfb.start(["-screen", "0", "640x360x24", "-nolisten", "tcp"])
        defer { xvfb.terminateIfRunning() }
        let lines = try run("other-glx-context", environment: ["DISPLAY": display])
        XCTAssertTrue(lines.contains { $0.hasPrefix("host other drawn 0 errors 0 pixel ") }, "\(lines)")
        XCTAssertFalse(lines.contains { $0.hasPrefix("host other drawn") && $0.hasSuffix("ffffff") }, "\(lines)")
        XCTAssertTrue(lines.contains { $0.hasPrefix("host warning ") && $0.contains("not the one attached") }, "\(lines)")
        XCTAssertTrue(lines.contains("host other objects alive 24 of 24"), "\(lines)")
    }
}
