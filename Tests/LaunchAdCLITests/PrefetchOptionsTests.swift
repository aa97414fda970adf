import LaunchAdCore
import LaunchAdTestSupport
import XCTest

@testable import LaunchAdCLI
@testable import LaunchAdEngine

final class PrefetchOptionsTests: XCTestCase {
    func testCacheLimitForms() {
        XCTAssertEqual(PrefetchOptions.parseBytes("200MB"), 200_000_000)
        XCTAssertEqual(PrefetchOptions.parseBytes("50M"), 50_000_000)
        XCTAssertEqual(PrefetchOptions.parseBytes("1000000"), 1_000_000)
        XCTAssertEqual(PrefetchOptions.parseBytes("1.5gb"), 1_500_000_000)
        XCTAssertEqual(PrefetchOptions.parseBytes("64KiB"), 65_536)
        XCTAssertEqual(PrefetchOptions.parseBytes("2 MiB"), 2_097_152)
        for bad in ["", "MB", "-5M", "12XB", "1e9", "0.1"] { XCTAssertNil(PrefetchOptions.parseBytes(bad), bad) }
    }

    func testPrefetchParsesAndDefaults() throws {
        let o = try XCTUnwrap(
            PrefetchOptions.parse([
                "--manifest", "https://ads.example.com/m.json", "--cache=/var/cache/ads",
                "--cache-limit", "50M", "--device", "ipad", "--timeout", "9", "--retries", "0"
            ]))
        XCTAssertEqual(o.cacheLimit, 50_000_000)
        XCTAssertEqual(o.cacheDirectory(), URL(fileURLWithPath: "/var/cache/ads"))
        XCTAssertEqual(o.screen, Size(width: 1536, height: 2048))
        XCTAssertEqual(o.timeout, 9)
        XCTAssertEqual(o.retries, 0)
        XCTAssertEqual(try o.manifestURL().absoluteString, "https://ads.example.com/m.json")
        let d = try XCTUnwrap(PrefetchOptions.parse(["--manifest", "m.json"]))
        XCTAssertEqual(d.cacheLimit, 200_000_000)
        XCTAssertEqual(d.screen, Size(width: 1920, height: 1080))
        XCTAssertEqual(try d.manifestURL(cwd: "/srv/ads"), URL(fileURLWithPath: "/srv/ads/m.json"))
        XCTAssertNil(try PrefetchOptions.parse(["--help"]))
    }

    func testDefaultCacheFolder() {
        let o = PrefetchOptions()
        XCTAssertEqual(o.cacheDirectory(environment: ["XDG_CACHE_HOME": "/xdg", "HOME": "/home/k"]).path, "/xdg/launchad")
        XCTAssertEqual(
            o.cacheDirectory(environment: ["XDG_CACHE_HOME": "relative", "HOME": "/home/k"]).path, "/home/k/.cache/launchad",
            "a relative XDG_CACHE_HOME is ignored, as the XDG spec says")
        XCTAssertEqual(o.cacheDirectory(environment: ["HOME": "/home/k"]).path, "/home/k/.cache/launchad")
    }

    func testPrefetchUsageErrors() {
        let cases: [([String], String)] = [
            ([], "--manifest URL|FILE is required"),
            (["--manifest", "ftp://x/m.json"], "--manifest takes an http(s) URL or a file, not 'ftp://x/m.json'"),
            (
                ["--manifest", "http://ads.example.com/m.json"],
                "--manifest over plain http needs --allow-http (or https, or a loopback host)"
            ),
            (["--manifest", "m.json", "--retries", "99"], "--retries takes a whole number from 0 to 10, not '99'"),
            (["--manifest", "m.json", "--cache-limit", "big"], "--cache-limit takes a size like 200MB, 50M, 1GiB or 1000000, not 'big'"),
            (["--manifest", "m.json", "--size", "1x"], "--size takes WxH, not '1x'"),
            (["--manifest", "m.json", "extra"], "prefetch takes no FILE, got 'extra' (use --manifest)"),
            (["--manifest", "m.json", "--mute"], "unknown option --mute (see launchad prefetch --help)")
        ]
        for (args, message) in cases {
            XCTAssertThrowsError(try PrefetchOptions.parse(args), args.joined(separator: " ")) {
                XCTAssertEqual($0 as? UsageError, UsageError(message))
            }
        }
        XCTAssertNoThrow(try PrefetchOptions.parse(["--manifest", "http://ads.example.com/m.json", "--allow-http"]))
        XCTAssertNoThrow(try PrefetchOptions.parse(["--manifest", "http://127.0.0.1:8080/m.json"]))
    }

    func testLaunchTakesPlayOptionsAndTheRestAfterThen() throws {
        let o = try XCTUnwrap(
            LaunchOptions.parse([
                "--manifest", "m.json", "--size", "720x1280", "--mute", "--wait", "1.5",
                "--cache-limit", "1GiB", "--then", "kiosk-app", "--mute", "-h"
            ]))
        XCTAssertEqual(o.then, ["kiosk-app", "--mute", "-h"])
        XCTAssertTrue(o.play.muted)
        XCTAssertEqual(o.play.wait, 1.5)
        XCTAssertEqual(o.screen, Size(width: 720, height: 1280))
        XCTAssertEqual(o.cache.cacheLimit, 1_073_741_824)
        XCTAssertEqual(o.refreshTimeout, 30)
        XCTAssertEqual(
            try Command.parse(["launch", "--manifest", "m.json"]), .launch(try XCTUnwrap(LaunchOptions.parse(["--manifest", "m.json"]))))
        XCTAssertEqual(try Command.parse(["prefetch", "--help"]), .help(PrefetchOptions.help))
        XCTAssertEqual(try Command.parse(["help", "launch"]), .help(LaunchOptions.help))
        for (args, message) in [
            (["--manifest", "m.json", "--then"], "--then needs a command"),
            (["--manifest", "m.json", "app"], "launch takes no FILE, got 'app' (use --manifest, and --then CMD for the app)"),
            (["--then", "app"], "--manifest URL|FILE is required")
        ] {
            XCTAssertThrowsError(try LaunchOptions.parse(args)) { XCTAssertEqual($0 as? UsageError, UsageError(message)) }
        }
    }
}

/// Issue 40: `--trust-key` is one of the shared options, so prefetch, launch and the embedding
/// API's arguments (RunRequest) take it alike; repeatable; kept as given (the run reads files).
final class TrustKeyOptionTests: XCTestCase {
    let key = "RWSD3qY3TtnFG+oVr4Swhsf5lXf73CuLghkXmMuDvDTRJVaSkxQP+gL9"

    func testEveryFrontEndTakesTrustedKeys() throws {
        let args = ["--manifest", "https://ads.example.com/m.json", "--trust-key", key, "--trust-key=/etc/launchad/next.pub"]
        XCTAssertEqual(try XCTUnwrap(PrefetchOptions.parse(args)).trustKeys, [key, "/etc/launchad/next.pub"])
        XCTAssertEqual(try XCTUnwrap(LaunchOptions.parse(args)).cache.trustKeys, [key, "/etc/launchad/next.pub"])
        guard case .launch(let o)? = try RunRequest.parse(["launch"] + args) else { return XCTFail("not a launch") }
        XCTAssertEqual(o.cache.trustKeys, [key, "/etc/launchad/next.pub"])
        guard case .manifest(let m) = try Command.parse(["manifest", "verify", "m.json", "--trust-key", key]) else { return XCTFail() }
        XCTAssertEqual(m.trustKeys, [key])
        XCTAssertEqual(m.file, "m.json")
        XCTAssertEqual(try XCTUnwrap(PrefetchOptions.parse(["--manifest", "m.json"])).trustKeys, [], "none: signing off")
    }

    /// The keys' files are read when the run starts, not by the parser; a value that is a key's
    /// text is a key, anything else a file.
    func testTheRunReadsTheKeys() throws {
        var o = PrefetchOptions()
        o.manifest = "https://ads.example.com/m.json"
        XCTAssertNil(try o.prefetchConfig(screen: o.screen).trust)
        o.trustKeys = [key, "/nonexistent/next.pub"]
        let trust = try XCTUnwrap(try o.prefetchConfig(screen: o.screen).trust)
        XCTAssertEqual(trust.ids, ["1BC5D94E37A6DE83"])
        XCTAssertEqual(trust.problems, ["--trust-key /nonexistent/next.pub: neither a public key nor a file (no such file)"])
    }

    func testUsageErrors() {
        let cases: [([String], String)] = [
            (["prefetch", "--manifest", "m.json", "--trust-key"], "--trust-key needs a value"),
            (["prefetch", "--manifest", "m.json", "--trust-key="], "--trust-key needs a public key or a .pub file"),
            (["manifest", "verify", "m.json"], "manifest verify needs --trust-key KEY|FILE"),
            (["manifest", "m.json", "--trust-key", key], "manifest takes verify FILE, not 'm.json'"),
            (["manifest", "verify", "--trust-key", key], "manifest takes verify FILE, not 'verify'"),
            (["manifest", "sign", "m.json", "--trust-key", key], "manifest takes verify FILE, not 'sign m.json'"),
            (["manifest", "verify", "m.json", "--trust-key", key, "--cache", "c"], "unknown option --cache (see launchad manifest --help)")
        ]
        for (args, message) in cases {
            XCTAssertThrowsError(try Command.parse(args), "\(args)") { XCTAssertEqual(($0 as? UsageError)?.message, message) }
        }
    }
}
