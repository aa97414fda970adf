import Foundation
import LaunchAdTestSupport
import XCTest

/// FFmpeg, SDL2, libcurl and libsodium are opened when a command first needs them, not at start-up
/// (Sources/CLazyLoad/lazy_load.h), read back from the dynamic loader's own log (LD_DEBUG=files).
final class LibraryLoadingTests: XCTestCase {
    /// The libraries `args` made the process open (their sonames), and the run.
    private func opened(by args: [String], environment: [String: String] = [:]) throws -> (Set<String>, Launchad.Run) {
        let run = try Launchad.run(args, environment: Launchad.headlessEnvironment(environment.merging(["LD_DEBUG": "files"]) { $1 }))
        let names = run.stderr.split(separator: "\n").compactMap { line -> String? in
            guard let start = line.range(of: "file=") else { return nil }
            return line[start.upperBound...].split(separator: " ").first.map(String.init)
        }
        return (Set(names), run)
    }

    /// A folder for LD_LIBRARY_PATH holding a file named `soname` that is not a library (a
    /// damaged install), removed after the test.
    private func brokenLibrary(_ soname: String) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("launchad-broken-\(soname)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        try Data("not a library".utf8).write(to: dir.appendingPathComponent(soname))
        return dir
    }

    private func assertOpened(
        _ set: Set<String>, _ prefixes: [String], _ message: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        for prefix in prefixes {
            XCTAssertTrue(set.contains { $0.hasPrefix(prefix) }, "\(message) did not open \(prefix)", file: file, line: line)
        }
    }

    private func assertNotOpened(
        _ set: Set<String>, _ prefixes: [String], _ message: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        for prefix in prefixes {
            XCTAssertFalse(set.contains { $0.hasPrefix(prefix) }, "\(message) opened \(prefix)", file: file, line: line)
        }
    }

    func testVersionOpensOnlyTheLibrariesItNames() throws {
        let (set, run) = try opened(by: ["--version"])
        XCTAssertEqual(run.status, 0)
        assertOpened(set, ["libavutil.so.", "libSDL2-2.0.so.", "libSDL2_ttf-2.0.so.", "libcurl.so."], "--version")
        assertNotOpened(set, ["libavformat.so.", "libavcodec.so.", "libavfilter.so."], "--version")
    }

    func testPlayingALocalFileOpensNeitherHTTPNorAnalysis() throws {
        let (set, run) = try opened(by: ["play", Fixtures.media("sample-ad.mp4"), "--max-duration", "0.3"])
        XCTAssertEqual(run.status, 0, run.stderr.split(separator: "\n").filter { !$0.contains("file=") }.joined(separator: "\n"))
        assertOpened(set, ["libavformat.so.", "libavcodec.so.", "libSDL2-2.0.so."], "play")
        assertNotOpened(set, ["libcurl.so.", "libavfilter.so."], "a local play")
    }

    func testProbeOpensFFmpegAlone() throws {
        let (set, run) = try opened(by: ["probe", Fixtures.media("sample-ad.mp4")])
        XCTAssertEqual(run.status, 0)
        assertOpened(set, ["libavformat.so."], "probe")
        assertNotOpened(set, ["libSDL2-2.0.so.", "libcurl.so.", "libavfilter.so."], "probe")
    }

    func testValidateOpensLibavfilter() throws {
        let (set, run) = try opened(by: ["validate", Fixtures.media("sample-ad.mp4")])
        XCTAssertNotEqual(run.status, 127, run.stderr.suffix(300).description)
        assertOpened(set, ["libavfilter.so."], "validate")
    }

    /// Issue 40: libsodium is mapped only by a refresh that checks a signature (`--trust-key`),
    /// never by a command that verifies nothing. (Debian's libavformat maps it too, through
    /// libzmq: a command that opens FFmpeg, `probe` or `play`, has it whatever launchad does.)
    func testLibsodiumIsOpenedOnlyToCheckASignature() throws {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("launchad-sodium-\(UUID().uuidString)")
        let state = cache.path + "-state"
        defer {
            try? FileManager.default.removeItem(at: cache)
            try? FileManager.default.removeItem(atPath: state)
        }
        let prefetch = ["prefetch", "--manifest", Fixtures.media("manifest.json"), "--cache", cache.path, "--no-progress"]
        for args in [["--version"], ["outbox", "status", "--state", state], prefetch] {
            let (set, run) = try opened(by: args)
            XCTAssertEqual(run.status, 0, args.joined(separator: " "))
            assertNotOpened(set, ["libsodium.so."], args.joined(separator: " "))
        }
        let key = "RWSD3qY3TtnFG+oVr4Swhsf5lXf73CuLghkXmMuDvDTRJVaSkxQP+gL9"
        let (set, run) = try opened(by: prefetch + ["--trust-key", key])
        XCTAssertEqual(run.status, 1, "the sample manifest is not signed")
        XCTAssertTrue(run.stdout.contains(#""reason":"unsigned""#), run.stdout)
        assertOpened(set, ["libsodium.so.23"], "prefetch --trust-key")
    }

    /// A libsodium that cannot be loaded: the refresh that needs it fails in one line (the cache
    /// kept), `manifest verify` exits 127 in one line, and what needs no signature still runs.
    func testALibsodiumThatCannotBeLoadedIsNamedInOneLine() throws {
        let dir = try brokenLibrary("libsodium.so.23")
        let env = Launchad.headlessEnvironment(["LD_LIBRARY_PATH": dir.path])
        let key = "RWSD3qY3TtnFG+oVr4Swhsf5lXf73CuLghkXmMuDvDTRJVaSkxQP+gL9"
        let manifest = ["--manifest", Fixtures.media("manifest.json"), "--cache", dir.appendingPathComponent("cache").path]
        let refresh = try Launchad.run(["prefetch"] + manifest + ["--no-progress", "--trust-key", key], environment: env)
        XCTAssertEqual(refresh.status, 1)
        XCTAssertEqual(refresh.stderr.split(separator: "\n").count, 1, refresh.stderr)
        XCTAssertTrue(refresh.stderr.hasPrefix("launchad: manifest: cannot load libsodium.so.23: "), refresh.stderr)
        let verify = try Launchad.run(["manifest", "verify", Fixtures.media("manifest.json"), "--trust-key", key], environment: env)
        XCTAssertEqual(verify.status, 127)
        XCTAssertEqual(verify.stderr.split(separator: "\n").count, 1, verify.stderr)
        XCTAssertTrue(verify.stderr.hasPrefix("launchad: cannot load libsodium.so.23: "), verify.stderr)
        let unsigned = try Launchad.run(["prefetch"] + manifest + ["--no-progress"], environment: env)
        XCTAssertEqual(unsigned.status, 0, "without a key, as before")
    }

    /// A library the package depends on but that cannot be loaded (a damaged install) is named in
    /// one line with exit status 127, as the dynamic loader would have at start-up.
    func testALibraryThatCannotBeLoadedIsNamedInOneLine() throws {
        let dir = try brokenLibrary("libcurl.so.4")
        let run = try Launchad.run(["--version"], environment: Launchad.headlessEnvironment(["LD_LIBRARY_PATH": dir.path]))
        XCTAssertEqual(run.status, 127)
        XCTAssertEqual(run.stdout, "", "nothing half-printed")
        let lines = run.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, run.stderr)
        XCTAssertTrue(lines.first?.hasPrefix("launchad: cannot load libcurl.so.4: ") ?? false, run.stderr)
        // What does not need libcurl still runs.
        let probe = try Launchad.run(
            ["probe", Fixtures.media("sample-ad.mp4")], environment: Launchad.headlessEnvironment(["LD_LIBRARY_PATH": dir.path]))
        XCTAssertEqual(probe.status, 0, probe.stderr)
    }

    /// `play` starts loading FFmpeg before main (Sources/CEarlyLoad); a libavformat that cannot
    /// be loaded is named in one line, with exit status 127, and the run ends through its normal
    /// end (its `error` and `end` events), before anything plays.
    func testPlayNamesABrokenFFmpegInOneLine() throws {
        let dir = try brokenLibrary("libavformat.so.59")
        let env = Launchad.headlessEnvironment(["LD_LIBRARY_PATH": dir.path])
        let run = try Launchad.run(["play", Fixtures.media("sample-ad.mp4"), "--max-duration", "0.3"], environment: env)
        XCTAssertEqual(run.status, 127, run.stderr)
        let lines = run.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, run.stderr)
        XCTAssertTrue(lines.first?.hasPrefix("launchad: cannot load libavformat.so.59: ") ?? false, run.stderr)
        let events = run.stdout.split(separator: "\n").compactMap { parseJSON(String($0)) as? [String: Any] }
        XCTAssertEqual(events.map { $0["event"] as? String }, ["error", "end"], run.stdout)
        XCTAssertEqual(events.first?["code"] as? String, "library_missing")
        XCTAssertEqual(events.last?["outcome"] as? String, "error")
        // launch plays no ad then, but its app starts all the same.
        let launch = try Launchad.run(
            ["launch", "--manifest", Fixtures.media("manifest.json"), "--then", "sh", "-c", "exit 7"], environment: env)
        XCTAssertEqual(launch.status, 7, launch.stderr)
        XCTAssertTrue(launch.stdout.contains(#""code":"library_missing""#), launch.stdout)
        // A command that needs no libavformat still runs.
        XCTAssertEqual(try Launchad.run(["--version"], environment: env).status, 0)
    }
}
