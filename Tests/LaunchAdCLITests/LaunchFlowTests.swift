import Foundation
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdTestSupport
import XCTest

/// `launchad launch` and `prefetch` as a user runs them, against a real nginx on loopback:
/// what the event stream says, what is on disk, the exit status.
final class LaunchFlowTests: XCTestCase {
    var server: AdServer!
    var cache: URL!

    override func setUpWithError() throws {
        server = try AdServer()
        cache = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("launchad-cache-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws {
        server = nil
        try? FileManager.default.removeItem(at: cache)
    }

    func image(_ colour: String) throws -> Data { try Fixtures.solidPNG(colour) }

    func launch(_ extra: [String] = [], manifest: String? = nil) throws -> Launchad.Run {
        try Launchad.run(
            [
                "launch", "--manifest", manifest ?? server.manifestURL, "--cache", cache.path, "--size", "320x240",
                "--transition", "none", "--retries", "0", "--connect-timeout", "2"
            ] + extra)
    }

    func prefetch(_ extra: [String] = []) throws -> Launchad.Run {
        try Launchad.run(
            [
                "prefetch", "--manifest", server.manifestURL, "--cache", cache.path, "--size", "320x240",
                "--retries", "0"
            ] + extra)
    }

    func names(_ run: Launchad.Run) -> [String] { run.events.compactMap { $0["event"] as? String } }
    func cachedFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: cache.appendingPathComponent("objects").path)) ?? []).sorted()
    }
    func file(_ data: Data, _ ext: String = "png") -> String { "\(SHA256.hex(of: data)).\(ext)" }

    /// A SIGTERM to the launcher while the app runs reaches the app.
    func testSignalsArePassedToTheApp() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Launchad.binary)
        let started = cache.path + "-app-started"
        defer { try? FileManager.default.removeItem(atPath: started) }
        p.arguments = [
            "launch", "--manifest", "http://127.0.0.1:\(try freePort())/m.json", "--cache", cache.path, "--retries", "0",
            "--then", "sh", "-c", "trap 'exit 42' TERM; touch \(started); while :; do sleep 0.05; done"
        ]
        p.environment = Launchad.headlessEnvironment()
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        XCTAssertTrue(Wait.forFile(started), "the app started")
        p.terminateIfRunning()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 42, "the app trapped the TERM it was passed and its status came back")
    }

    /// --cache-limit: past it, the least recently shown file goes.
    func testCacheLimitEvictsTheLeastRecentlyShown() throws {
        let red = try image("red"), blue = try image("blue")
        try server.publish([
            AdServer.Ad(id: "red", file: "red.png", data: red, extra: #""priority": 2,"#),
            AdServer.Ad(id: "blue", file: "blue.png", data: blue, extra: #""priority": 1,"#)
        ])
        XCTAssertEqual(try prefetch().status, 0)
        XCTAssertEqual(cachedFiles().count, 2)
        let shown = try launch()
        XCTAssertEqual(shown.events(named: "cache_hit").first?["id"] as? String, "red")
        let limit = String(max(red.count, blue.count) + 10)
        let run = try prefetch(["--cache-limit", limit])
        XCTAssertEqual(run.events(named: "evicted").map { $0["id"] as? String }, ["blue"])
        XCTAssertEqual(run.events(named: "evicted").first?["reason"] as? String, "cache_limit")
        XCTAssertEqual(cachedFiles(), [file(red)])
    }

    /// TLS certificates are verified: a self-signed server is refused and the cache kept.
    func testAnUntrustedCertificateIsRefused() throws {
        let red = try image("red")
        try server.publish([AdServer.Ad(id: "ad", file: "ad.png", data: red)])
        XCTAssertEqual(try prefetch().status, 0)
        let tlsServer = try AdServer(tls: true)
        try tlsServer.publish([AdServer.Ad(id: "other", file: "other.png", data: try image("blue"))])
        let run = try Launchad.run([
            "prefetch", "--manifest", "https://127.0.0.1:\(tlsServer.nginx.tlsPort)/manifest.json",
            "--cache", cache.path, "--retries", "0"
        ])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.events(named: "rejected").first?["id"] as? String, "manifest")
        XCTAssertTrue(run.stderr.hasPrefix("launchad: manifest: https://127.0.0.1:\(tlsServer.nginx.tlsPort)/manifest.json: "), run.stderr)
        XCTAssertTrue(run.stderr.contains("certificate"), run.stderr)
        XCTAssertEqual(cachedFiles(), [file(red)])
    }

    /// Every run ends with exactly one `end`, and it is the last event.
    func assertEnds(_ run: Launchad.Run, _ outcome: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(run.events(named: "end").count, 1, run.stdout + run.stderr, file: file, line: line)
        XCTAssertEqual(run.events.last?["event"] as? String, "end", run.stdout, file: file, line: line)
        XCTAssertEqual(run.events.last?["outcome"] as? String, outcome, run.stdout + run.stderr, file: file, line: line)
        let times = run.events.compactMap { $0["t_ms"] as? Int }
        XCTAssertEqual(times, times.sorted(), "t_ms only goes forward: \(run.stdout)", file: file, line: line)
    }

    /// Eight bytes overwritten in the cached creative (same size): `prefetch` re-hashes, drops and
    /// fetches it again; `launch` never shows the damaged file (it streams the ad meanwhile), and
    /// the launch after shows the repaired copy from the cache.
    func testADamagedCachedCreativeIsNoticedAndFetchedAgain() throws {
        let red = try image("red")
        try server.publish([AdServer.Ad(id: "red", file: "red.png", data: red)])
        XCTAssertEqual(try prefetch().status, 0)
        let stored = cache.appendingPathComponent("objects/" + file(red))
        func damage() throws {
            let h = try FileHandle(forWritingTo: stored)
            try h.seek(toOffset: 100)
            try h.write(contentsOf: Data(repeating: 0xEE, count: 8))
            try h.close()
            // Written after it was verified, as its time says (a clock's granularity must not hide it).
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(2)], ofItemAtPath: stored.path)
        }
        try damage()
        let refreshed = try prefetch()
        XCTAssertEqual(refreshed.events(named: "evicted").first?["reason"] as? String, "damaged", refreshed.stdout)
        XCTAssertEqual(refreshed.events(named: "download").count, 1)
        XCTAssertEqual(try Data(contentsOf: stored), red)

        try damage()
        let launched = try launch()
        XCTAssertEqual(launched.events(named: "cache_hit").count, 0, "the damaged file is not shown: \(launched.stdout)")
        XCTAssertEqual(launched.events(named: "stream").first?["id"] as? String, "red")
        assertEnds(launched, "completed")
        XCTAssertEqual(try Data(contentsOf: stored), red, "the refresh put the right bytes back")
        XCTAssertEqual(try launch().events(named: "cache_hit").first?["id"] as? String, "red")
    }

    /// The refresh outlasts the ad (a new creative trickles in at 2 kB/s): `end` is still the
    /// last line and no time goes back; launch returns when the refresh is over. `prefetch`'s
    /// stream ends with its own `end`.
    func testTimesOnlyGoForwardWhenTheRefreshOutlastsTheAd() throws {
        let red = try image("red")
        try server.publish([AdServer.Ad(id: "red", file: "red.png", data: red)])
        let fetched = try prefetch()
        XCTAssertEqual(fetched.events.last?["event"] as? String, "end")
        XCTAssertEqual(fetched.events.last?["outcome"] as? String, "completed")
        let slow = Data(repeating: 7, count: 5000)
        try server.publish([
            AdServer.Ad(id: "red", file: "red.png", data: red),
            AdServer.Ad(id: "slow", file: "slow/ad.png", data: slow, extra: #""priority": 1, "start": 4102444800,"#)
        ])
        let run = try launch()
        assertEnds(run, "completed")
        let done = try XCTUnwrap(run.events(named: "prefetch_done").first?["t_ms"] as? Int)
        let end = try XCTUnwrap(run.events.last?["t_ms"] as? Int)
        XCTAssertGreaterThanOrEqual(end, done)
        XCTAssertEqual(run.events(named: "download").first?["id"] as? String, "slow", "the refresh took its time: \(run.stdout)")
    }

    /// The first launch plays the network video while caching it; the second plays it from the
    /// cache and asks the server only whether the manifest changed.
    func testFirstLaunchStreamsAndCachesSecondLaunchUsesTheCache() throws {
        let video = try Data(contentsOf: URL(fileURLWithPath: Fixtures.colourBars(seconds: 2, size: "320x240", audio: false)))
        try server.publish([AdServer.Ad(id: "sale", file: "sale.mp4", data: video, kind: "video", extra: #""priority": 3,"#)])

        let first = try launch()
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(first.events(named: "cache_miss").first?["reason"] as? String, "empty")
        XCTAssertEqual(first.events(named: "stream").first?["url"] as? String, "\(server.nginx.base)/sale.mp4")
        XCTAssertEqual(first.events(named: "download").first?["id"] as? String, "sale")
        XCTAssertEqual(first.events(named: "download").first?["bytes"] as? Int, video.count)
        XCTAssertEqual(first.events(named: "prefetch_done").first?["ok"] as? Bool, true)
        XCTAssertEqual(first.events(named: "first_frame").count, 1, "played on the first launch, not only the next")
        // The manifest's duration (1 s) cuts the 2 s video: capped, not completed.
        assertEnds(first, "capped")
        XCTAssertEqual(cachedFiles(), [file(video, "mp4")])
        XCTAssertEqual(try Data(contentsOf: cache.appendingPathComponent("objects/" + file(video, "mp4"))), video)

        let second = try launch()
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(second.events(named: "cache_hit").first?["id"] as? String, "sale")
        XCTAssertEqual(second.events(named: "not_modified").first?["id"] as? String, "manifest")
        XCTAssertEqual(second.events(named: "download").count, 0)
        XCTAssertEqual(second.events(named: "stream").count, 0)
        assertEnds(second, "capped")
        let index = try JSONSerialization.jsonObject(with: Data(contentsOf: cache.appendingPathComponent("index.json"))) as? [String: Any]
        let files = index?["files"] as? [String: [String: Any]]
        XCTAssertNotNil(files?[SHA256.hex(of: video)]?["last_shown"], "the launch recorded when it showed the ad")
    }

    /// The server is unreachable (a black hole that never answers): the cached ad is on screen
    /// long before the refresh gives up.
    func testServerDownAtLaunchTheCachedAdIsShownWithoutDelay() throws {
        let red = try image("red")
        try server.publish([AdServer.Ad(id: "red", file: "red.png", data: red)])
        XCTAssertEqual(try prefetch().status, 0)
        server.nginx.stop()
        let hole = try blackHole()
        let run = try launch(["--connect-timeout", "3", "--timeout", "3"], manifest: "http://127.0.0.1:\(hole.port)/manifest.json")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.events(named: "cache_hit").first?["id"] as? String, "red")
        let shownAt = try XCTUnwrap(run.events(named: "first_frame").first?["t_ms"] as? Int)
        let gaveUpAt = try XCTUnwrap(run.events(named: "prefetch_done").first?["t_ms"] as? Int)
        XCTAssertLessThan(shownAt, gaveUpAt, "the ad did not wait for the network")
        XCTAssertEqual(run.events(named: "rejected").first?["id"] as? String, "manifest")
        assertEnds(run, "completed")
        XCTAssertEqual(cachedFiles(), [file(red)])

        // Connection refused: the same, and the cache is untouched.
        let refused = try launch(manifest: "http://127.0.0.1:\(try freePort())/manifest.json")
        XCTAssertEqual(refused.events(named: "cache_hit").first?["id"] as? String, "red")
        assertEnds(refused, "completed")
        XCTAssertEqual(cachedFiles(), [file(red)])
    }

    func testAChangedCreativeReplacesTheCachedOne() throws {
        let red = try image("red"), blue = try image("blue")
        try server.publish([AdServer.Ad(id: "ad", file: "ad.png", data: red)])
        XCTAssertEqual(try prefetch().status, 0)
        try server.publish([AdServer.Ad(id: "ad", file: "ad.png", data: blue)])
        let run = try prefetch()
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.events(named: "download").first?["sha256"] as? String, SHA256.hex(of: blue))
        XCTAssertEqual(run.events(named: "evicted").first?["reason"] as? String, "replaced")
        XCTAssertEqual(cachedFiles(), [file(blue)])
        let shown = try launch()
        XCTAssertEqual(shown.events(named: "cache_hit").first?["sha256"] as? String, SHA256.hex(of: blue))
        assertEnds(shown, "completed")
        let shownMs = try XCTUnwrap(shown.events(named: "end").first?["shown_ms"] as? Int)
        XCTAssertTrue((300...1500).contains(shownMs), "the manifest's 0.4 s duration, not play's 5 s default: \(shownMs)")
    }

    /// Expired and hidden ads are deleted; with nothing left, launch ends at once with no_ad,
    /// and `--then` still starts the app, whose status is the launcher's.
    func testExpiredAndHiddenAdsAreRemoved() throws {
        let red = try image("red"), blue = try image("blue")
        try server.publish([AdServer.Ad(id: "old", file: "old.png", data: red), AdServer.Ad(id: "off", file: "off.png", data: blue)])
        XCTAssertEqual(try prefetch().status, 0)
        XCTAssertEqual(cachedFiles().count, 2)
        try server.publish([
            AdServer.Ad(id: "old", file: "old.png", data: red, extra: #""end": "2020-01-01T00:00:00Z","#),
            AdServer.Ad(id: "off", file: "off.png", data: blue, extra: #""show": false,"#)
        ])
        let run = try prefetch()
        let reasons = Dictionary(uniqueKeysWithValues: run.events(named: "evicted").map { ($0["id"] as! String, $0["reason"] as! String) })
        XCTAssertEqual(reasons, ["old": "expired", "off": "hidden"])
        XCTAssertEqual(cachedFiles(), [])

        let none = try launch(["--then", "sh", "-c", "echo app-started >&2; exit 7"])
        XCTAssertEqual(none.status, 7, "the app's exit status")
        XCTAssertTrue(none.stderr.contains("app-started"))
        assertEnds(none, "no_ad")
        XCTAssertEqual(none.events(named: "end").first?["reason"] as? String, "nothing_scheduled")
        let alone = try launch()
        XCTAssertEqual(alone.status, 3)
        assertEnds(alone, "no_ad")
        let missing = try launch(["--then", "/nonexistent/kiosk-app"])
        XCTAssertEqual(missing.status, 127, "as a shell reports a missing command")
        assertEnds(missing, "no_ad")
    }

    /// Each way a refresh can fail: rejected with its reason, exit 1 for prefetch, and the ad
    /// cached before is intact and still plays.
    func testFailedRefreshesKeepThePreviousAd() throws {
        let red = try image("red"), blue = try image("blue")
        try server.publish([AdServer.Ad(id: "ad", file: "ad.png", data: red)])
        XCTAssertEqual(try prefetch().status, 0)
        let truncating = try RawServer.truncating(promised: blue.count, sent: blue.prefix(100))
        let unsized = try RawServer.unsized(blue + blue)
        let cases: [(String, [AdServer.Ad], [String], String)] = [
            (
                "checksum", [AdServer.Ad(id: "ad", file: "ad2.png", data: blue, declaredSha: SHA256.hex(of: red + blue))], [],
                "sha256 mismatch: the file is not the one the manifest describes"
            ),
            ("404", [AdServer.Ad(id: "ad", file: "missing.png", data: blue)], [], "HTTP 404 for \(server.nginx.base)/missing.png"),
            ("500", [AdServer.Ad(id: "ad", file: "500/ad.png", data: blue)], [], "HTTP 500 for \(server.nginx.base)/500/ad.png"),
            ("slow", [AdServer.Ad(id: "ad", file: "slow/ad.png", data: blue + Data(count: 40_000))], ["--timeout", "1"], "timed out"),
            ("truncated", [AdServer.Ad(id: "ad", file: "http://127.0.0.1:\(truncating.port)/ad.png", data: blue)], [], "truncated"),
            (
                "unsized, too long", [AdServer.Ad(id: "ad", file: "http://127.0.0.1:\(unsized.port)/ad.png", data: blue)], [],
                "ad.png is over the \(blue.count + 1)-byte limit"
            ),
            (
                "short file", [AdServer.Ad(id: "ad", file: "short.png", data: blue, declaredBytes: blue.count + 10)], [],
                "size mismatch: got \(blue.count) bytes, the manifest says \(blue.count + 10)"
            )
        ]
        for (name, ads, options, reason) in cases {
            try server.publish(ads, serveFiles: name != "404")
            let run = try prefetch(options)
            XCTAssertEqual(run.status, 1, name)
            let rejected = run.events(named: "rejected").first
            XCTAssertEqual(rejected?["id"] as? String, "ad", "\(name): \(run.stdout)")
            XCTAssertTrue((rejected?["reason"] as? String ?? "").contains(reason), "\(name): \(rejected ?? [:])")
            XCTAssertTrue(run.stderr.contains("launchad: ad: "), "one line on stderr: \(run.stderr)")
            XCTAssertEqual(cachedFiles(), [file(red)], name)
            XCTAssertEqual(try Data(contentsOf: cache.appendingPathComponent("objects/" + file(red))), red, name)
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: cache.appendingPathComponent("tmp").path), [], name)
        }
        let shown = try launch(["--timeout", "1"])
        XCTAssertEqual(shown.events(named: "cache_hit").first?["sha256"] as? String, SHA256.hex(of: red))
        assertEnds(shown, "completed")
    }

    func testManifestFailuresLeaveTheCacheAsItWas() throws {
        let red = try image("red")
        try server.publish([AdServer.Ad(id: "ad", file: "ad.png", data: red)])
        XCTAssertEqual(try prefetch().status, 0)
        var index = try Data(contentsOf: cache.appendingPathComponent("index.json"))
        for (url, reason) in [("\(server.nginx.base)/500/manifest.json", "HTTP 500"), ("\(server.nginx.base)/nope.json", "HTTP 404")] {
            let run = try Launchad.run(["prefetch", "--manifest", url, "--cache", cache.path, "--retries", "0"])
            XCTAssertEqual(run.status, 1)
            XCTAssertTrue(run.stderr.hasPrefix("launchad: manifest: \(reason)"), run.stderr)
            XCTAssertEqual(try Data(contentsOf: cache.appendingPathComponent("index.json")), index)
            let shown = try launch(manifest: url)
            XCTAssertEqual(shown.events(named: "cache_hit").first?["id"] as? String, "ad")
            assertEnds(shown, "completed")
            index = try Data(contentsOf: cache.appendingPathComponent("index.json"))  // now with the ad's last_shown
        }
        try server.nginx.put("manifest.json", Data("{\"ads\": ".utf8))
        let broken = try prefetch()
        XCTAssertEqual(broken.status, 1)
        XCTAssertEqual(broken.stderr, "launchad: manifest: manifest is not valid JSON\n")
        XCTAssertEqual(try Data(contentsOf: cache.appendingPathComponent("index.json")), index)
    }

    /// Empty cache and no server: no_ad at once, exit 3.
    func testNoCacheAndNoServerEndsQuicklyWithNoAd() throws {
        let run = try launch(manifest: "http://127.0.0.1:\(try freePort())/manifest.json")
        XCTAssertEqual(run.status, 3, run.stderr)
        XCTAssertEqual(run.events(named: "cache_miss").first?["reason"] as? String, "empty")
        assertEnds(run, "no_ad")
        XCTAssertEqual(run.events(named: "end").first?["reason"] as? String, "no_manifest")
        // --wait (3 s) from the launch's start, on its own clock: not the process's slow start on a loaded machine.
        let began = try XCTUnwrap(run.events(named: "prefetch_start").first?["t_ms"] as? Int, run.stdout)
        let ended = try XCTUnwrap(run.events(named: "end").first?["t_ms"] as? Int, run.stdout)
        XCTAssertLessThan(ended - began, 3000, "it did not wait out --wait for a refused connection")
    }

    func testBadCommandLinesAreOneLineUsageErrors() throws {
        for (args, message) in [
            (["prefetch"], "launchad: --manifest URL|FILE is required\n"),
            (
                ["prefetch", "--manifest", "m.json", "--cache-limit", "lots"],
                "launchad: --cache-limit takes a size like 200MB, 50M, 1GiB or 1000000, not 'lots'\n"
            ),
            (
                ["launch", "--manifest", "http://ads.example.com/m.json"],
                "launchad: --manifest over plain http needs --allow-http (or https, or a loopback host)\n"
            ),
            (["launch", "--manifest", "m.json", "--then"], "launchad: --then needs a command\n")
        ] {
            let run = try Launchad.run(args)
            XCTAssertEqual(run.status, 2, args.joined(separator: " "))
            XCTAssertEqual(run.stderr, message)
        }
    }

    /// First launch, the manifest arrives but the creative does not start within --wait: no_ad.
    func testFirstLaunchWithALateCreativeEndsWithNoAd() throws {
        let hole = try blackHole()
        let video = try Data(contentsOf: URL(fileURLWithPath: Fixtures.colourBars(seconds: 2, size: "320x240", audio: false)))
        try server.publish([AdServer.Ad(id: "late", file: "http://127.0.0.1:\(hole.port)/late.mp4", data: video, kind: "video")])
        let run = try launch(["--wait", "1", "--timeout", "2", "--refresh-timeout", "1"])
        XCTAssertEqual(run.status, 3, run.stderr)
        XCTAssertEqual(run.events(named: "stream").first?["id"] as? String, "late")
        assertEnds(run, "no_ad")
        XCTAssertEqual(run.events(named: "end").first?["reason"] as? String, "creative_late")
        // The download had its --timeout (2 s) from the fetch's start; the end is not held past it.
        // From the fetch's start: a process under ThreadSanitizer takes half a second to get there.
        let fetched = try XCTUnwrap(run.events(named: "prefetch_start").first?["t_ms"] as? Int)
        let ended = try XCTUnwrap(run.events(named: "end").first?["t_ms"] as? Int)
        XCTAssertLessThan(ended - fetched, 2000 + 500, "the ad's end came about --timeout after the fetch began")
        XCTAssertEqual(cachedFiles(), [])
    }

    func testRedirectsAreFollowedUpToALimit() throws {
        let red = try image("red")
        try server.nginx.put("red.png", red)
        try server.publish([AdServer.Ad(id: "hop", file: "hop/red.png", data: red)], serveFiles: false)
        XCTAssertEqual(try prefetch().status, 0)
        XCTAssertEqual(cachedFiles(), [file(red)])
        try server.publish([AdServer.Ad(id: "loop", file: "loop/red.png", data: red + red)], serveFiles: false)
        let run = try prefetch()
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(
            run.events(named: "rejected").first?["reason"] as? String, "more than 5 redirects for \(server.nginx.base)/loop/red.png")
        try server.publish([AdServer.Ad(id: "away", file: "away/red.png", data: red + red)], serveFiles: false)
        let away = try prefetch()
        XCTAssertEqual(
            away.events(named: "rejected").first?["reason"] as? String,
            "redirected to a refused URL: refusing plain http for ads.example.com (use https, or --allow-http)")
    }

    func testAnOversizedManifestIsRefused() throws {
        try server.nginx.put("manifest.json", Data(#"{"ads": []}"#.utf8) + Data(repeating: 0x20, count: 1_000_001))
        let run = try prefetch()
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.stderr, "launchad: manifest: manifest.json is 1000012 bytes, over the 1000000-byte limit\n")
    }

    /// Two refreshes at once, and one killed in the middle of a download: the cache stays
    /// consistent and the next refresh is not stuck behind a dead lock holder.
    func testConcurrentAndKilledRefreshesLeaveAConsistentCache() throws {
        let red = try image("red"), blue = try image("blue")
        try server.publish([AdServer.Ad(id: "a", file: "a.png", data: red), AdServer.Ad(id: "b", file: "b.png", data: blue)])
        let statuses = Locked<[Int32]>([])
        let args = ["prefetch", "--manifest", server.manifestURL, "--cache", cache.path, "--size", "320x240", "--retries", "0"]
        DispatchQueue.concurrentPerform(iterations: 3) { _ in
            let status = (try? Launchad.run(args).status) ?? -1
            statuses.withLock { $0.append(status) }
        }
        XCTAssertEqual(statuses.withLock { $0 }, [0, 0, 0])
        XCTAssertEqual(cachedFiles(), [file(red), file(blue)].sorted())

        try server.publish([
            AdServer.Ad(id: "a", file: "a.png", data: red),
            AdServer.Ad(id: "b", file: "slow/b.png", data: blue + Data(count: 200_000))
        ])
        let victim = Process()
        victim.executableURL = URL(fileURLWithPath: Launchad.binary)
        victim.arguments = ["prefetch", "--manifest", server.manifestURL, "--cache", cache.path, "--size", "320x240"]
        victim.standardOutput = FileHandle.nullDevice
        try victim.run()
        let tmp = cache.appendingPathComponent("tmp").path
        Wait.until { !((try? FileManager.default.contentsOfDirectory(atPath: tmp)) ?? []).isEmpty }
        kill(victim.processIdentifier, SIGKILL)
        victim.waitUntilExit()
        XCTAssertEqual(cachedFiles(), [file(red), file(blue)].sorted(), "the killed refresh installed nothing half-done")

        try server.publish([AdServer.Ad(id: "a", file: "a.png", data: red)])
        let after = try prefetch()
        XCTAssertEqual(after.status, 0, after.stderr)
        XCTAssertEqual(cachedFiles(), [file(red)])
        let shown = try launch()
        XCTAssertEqual(shown.events(named: "cache_hit").first?["id"] as? String, "a")
    }

    /// A listening socket that never accepts: connections hang like a dead server's.
    func blackHole() throws -> (fd: Int32, port: UInt16) {
        let s = try listeningSocket(backlog: 0)
        addTeardownBlock { close(s.fd) }
        return s
    }
}

/// The example manifest in Media/ (a file manifest, relative file URLs) works as shipped.
final class LaunchMediaManifestTests: XCTestCase {
    func testMediaManifestPrefetchesAndLaunches() throws {
        let cache = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("launchad-media-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let manifest = Fixtures.media("manifest.json")
        let fetched = try Launchad.run(["prefetch", "--manifest", manifest, "--cache", cache.path, "--device", "android-hd"])
        XCTAssertEqual(fetched.status, 0, fetched.stderr)
        XCTAssertEqual(fetched.events(named: "download").count, 2, "the video and its fallback; the image ad shares the fallback's file")
        let run = try Launchad.run([
            "launch", "--manifest", manifest, "--cache", cache.path, "--device", "android-hd",
            "--max-duration", "1", "--transition", "none", "--then", "sh", "-c", "exit 5"
        ])
        XCTAssertEqual(run.status, 5, "the app's status, not the ad's: \(run.stderr)")
        XCTAssertEqual(run.events(named: "cache_hit").first?["id"] as? String, "spring-sale")
        XCTAssertEqual(run.events.last?["event"] as? String, "end")
        XCTAssertEqual(run.events.last?["outcome"] as? String, "capped", "a 1 s cap of the sample ad")
    }
}
