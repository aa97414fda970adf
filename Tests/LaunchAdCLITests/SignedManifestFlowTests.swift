import Foundation
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdTestSupport
import XCTest

/// Issue 40 as an operator and a screen see it: manifests signed with the real `minisign`,
/// served by nginx, refreshed by `launchad prefetch --trust-key` and shown by `launchad launch`.
/// Every refusal is one `manifest_rejected`, one line on stderr and a counter in the metrics
/// file, and the next launch still shows the last verified ad.
final class SignedManifestFlowTests: XCTestCase {
    var server: AdServer!
    var cache: URL!
    var keys: URL!
    var operatorKey: Minisign!
    var metrics: String { keys.appendingPathComponent("launchad.prom").path }

    override func setUpWithError() throws {
        server = try AdServer()
        let tmp = URL(fileURLWithPath: NSTemporaryDirectory())
        cache = tmp.appendingPathComponent("launchad-signed-cache-\(UUID().uuidString)")
        keys = tmp.appendingPathComponent("launchad-signed-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: keys, withIntermediateDirectories: true)
        operatorKey = try Minisign(in: keys, name: "operator")
    }

    override func tearDownWithError() throws {
        server = nil
        try? FileManager.default.removeItem(at: cache)
        try? FileManager.default.removeItem(at: keys)
    }

    var signatureFile: URL { server.nginx.www.appendingPathComponent("manifest.json.minisig") }

    /// Serves `ads` in a manifest with `version` and `expires`, signed by `key` (nil: no
    /// .minisig at all), then `tamper`ed.
    func publish(
        version: Int = 1, expires: String = "2099-01-01T00:00:00Z", _ ads: [AdServer.Ad], key: Minisign?,
        tamper: (inout Data) -> Void = { _ in }
    ) throws {
        for ad in ads { try server.nginx.put(ad.file, ad.data) }
        var document = Minisign.manifest(version: version, expires: expires, ads: ads.map(\.json).joined(separator: ","))
        let signed = keys.appendingPathComponent("manifest.json")
        try document.write(to: signed)
        try? FileManager.default.removeItem(at: signatureFile)
        if let key { try server.nginx.put("manifest.json.minisig", try Data(contentsOf: URL(fileURLWithPath: try key.sign(signed.path)))) }
        tamper(&document)
        try server.nginx.put("manifest.json", document)
    }

    func prefetch(_ trust: [String]? = nil) throws -> Launchad.Run {
        try Launchad.run(
            [
                "prefetch", "--manifest", server.manifestURL, "--cache", cache.path, "--size", "320x240", "--retries", "0", "--metrics",
                metrics
            ]
                + (trust ?? [operatorKey.publicKeyFile]).flatMap { ["--trust-key", $0] })
    }

    func launch(_ trust: [String]? = nil) throws -> Launchad.Run {
        try Launchad.run(
            [
                "launch", "--manifest", server.manifestURL, "--cache", cache.path, "--size", "320x240", "--transition", "none",
                "--retries", "0", "--metrics", metrics
            ] + (trust ?? [operatorKey.publicKeyFile]).flatMap { ["--trust-key", $0] })
    }

    func refusals(_ run: Launchad.Run) -> [String] { run.events(named: "manifest_rejected").compactMap { $0["reason"] as? String } }
    func shown(_ run: Launchad.Run) -> String? { run.events(named: "cache_hit").first?["id"] as? String }

    /// The counter of `reason` in the metrics file.
    func counted(_ reason: String) throws -> Int? {
        let text = try String(contentsOfFile: metrics, encoding: .utf8)
        let series = #"launchad_manifest_rejected_total{reason="\#(reason)"} "#
        return text.split(separator: "\n").first { $0.hasPrefix(series) }.flatMap { Int($0.dropFirst(series.count)) }
    }

    func testEachRefusalKeepsTheLastVerifiedAdPlaying() throws {
        let red = AdServer.Ad(id: "red", file: "red.png", data: try Fixtures.solidPNG("red"))
        let blue = AdServer.Ad(id: "blue", file: "blue.png", data: try Fixtures.solidPNG("blue"))
        try publish(version: 5, [red], key: operatorKey)
        let first = try prefetch()
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(refusals(first), [])
        XCTAssertEqual(shown(try launch()), "red")
        let stranger = try Minisign(in: keys, name: "stranger")
        let cases: [(String, () throws -> Void)] = [
            ("bad_signature", { try self.publish(version: 6, [blue], key: self.operatorKey) { $0[$0.startIndex + 30] ^= 0x04 } }),
            ("unknown_key", { try self.publish(version: 6, [blue], key: stranger) }),
            ("rollback", { try self.publish(version: 4, [blue], key: self.operatorKey) }),
            ("expired", { try self.publish(version: 6, expires: "2020-01-01T00:00:00Z", [blue], key: self.operatorKey) }),
            ("unsigned", { try self.publish(version: 6, [blue], key: nil) }),
            (
                "malformed",
                {
                    try self.publish(version: 6, [blue], key: self.operatorKey)
                    try self.server.nginx.put("manifest.json.minisig", Data(repeating: 0x41, count: 10_000_000))
                }
            ),
            (
                "malformed",
                {
                    try self.publish(version: 6, [blue], key: self.operatorKey)
                    try self.server.nginx.put("manifest.json.minisig", Data("untrusted comment: x\n<html>hello</html>\n".utf8))
                }
            )
        ]
        for (reason, make) in cases {
            try make()
            let run = try prefetch()
            XCTAssertEqual(run.status, 1, "\(reason): \(run.stderr)")
            XCTAssertEqual(refusals(run), [reason])
            let lines = run.stderr.split(separator: "\n")
            XCTAssertEqual(lines.count, 1, run.stderr)
            XCTAssertTrue(lines.first?.hasPrefix("launchad: manifest \(server.manifestURL) refused (\(reason)): ") == true, run.stderr)
            XCTAssertEqual(run.events(named: "download").count, 0, "\(reason): nothing it names is fetched")
            let next = try launch()
            XCTAssertEqual(shown(next), "red", "\(reason): the previous verified ad plays: \(next.stdout)")
            XCTAssertEqual(next.events.last?["outcome"] as? String, "completed", next.stdout)
            XCTAssertEqual(refusals(next), [reason], "the launch's own refresh refuses it too")
            XCTAssertTrue(next.stderr.contains("launchad: manifest \(server.manifestURL) refused (\(reason)): "), next.stderr)
        }
        XCTAssertEqual(try counted("bad_signature"), 2)
        XCTAssertEqual(try counted("malformed"), 4)
        XCTAssertEqual(try counted("unsigned"), 2)
        let text = try String(contentsOfFile: metrics, encoding: .utf8)
        XCTAssertTrue(text.contains("\nlaunchad_manifest_version 5\n"), text)
    }

    /// The stated choice: the only verified manifest expired (its server went quiet, or keeps
    /// sending the old one): the screen keeps showing its ad, says so with every refresh, and the
    /// metrics carry the expiry for an alert.
    func testWhenTheOnlyVerifiedManifestExpiresTheScreenKeepsItsAd() throws {
        let red = AdServer.Ad(id: "red", file: "red.png", data: try Fixtures.solidPNG("red"))
        let expires = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 86_400).rounded(.down))
        try publish(version: 1, expires: MacroExpander.timestamp(expires), [red], key: operatorKey)
        // Taken two days ago, when it was fresh.
        let config = PrefetchConfig(
            manifestURL: URL(string: server.manifestURL)!, screen: Size(width: 320, height: 240),
            trust: TrustedKeyFiles.read([operatorKey.publicKeyFile]))
        let taken = Prefetcher(
            store: try CacheStore(directory: cache), fetcher: HTTPClient(connectTimeout: 2, totalTimeout: 5), sink: RecordingSink(),
            config: config, now: { expires.addingTimeInterval(-86_400) }
        ).run()
        XCTAssertTrue(taken.ok)
        let run = try launch()
        XCTAssertEqual(shown(run), "red", run.stdout)
        XCTAssertEqual(refusals(run), ["expired"])
        XCTAssertEqual(run.events.last?["outcome"] as? String, "completed")
        let text = try String(contentsOfFile: metrics, encoding: .utf8)
        XCTAssertTrue(text.contains("launchad_manifest_expires_timestamp_seconds \(Int(expires.timeIntervalSince1970.rounded()))\n"), text)
    }

    /// A cache filled before the screen trusted a key (or by a key it no longer trusts) is not
    /// shown: the launch plays the verified manifest's ad from the network, or none.
    func testLaunchShowsOnlyWhatATrustedKeySigned() throws {
        let red = AdServer.Ad(id: "red", file: "red.png", data: try Fixtures.solidPNG("red"))
        let blue = AdServer.Ad(id: "blue", file: "blue.png", data: try Fixtures.solidPNG("blue"))
        try publish([blue], key: nil)
        XCTAssertEqual(try prefetch([]).status, 0, "no --trust-key: taken unsigned, as before")
        try publish(version: 2, [red], key: operatorKey)
        let first = try launch()
        XCTAssertEqual(first.events(named: "cache_miss").first?["reason"] as? String, "unverified", first.stdout)
        XCTAssertEqual(first.events(named: "stream").first?["id"] as? String, "red", first.stdout)
        XCTAssertEqual(shown(try launch()), "red")
        let stranger = try Minisign(in: keys, name: "stranger")
        let retired = try launch([stranger.publicKeyFile])
        XCTAssertEqual(retired.events(named: "cache_miss").first?["reason"] as? String, "unverified")
        XCTAssertEqual(refusals(retired), ["unknown_key"])
        XCTAssertEqual(retired.events.last?["outcome"] as? String, "no_ad")
        XCTAssertEqual(retired.status, 3)
    }

    /// Review of issue 40: a record the cache kept from an older or unsigned manifest is never
    /// shown with --trust-key, nor its tracking fired, even when the verified manifest names the
    /// same id: its creative was withheld (a 404), its entry refused by the parser, or, after a
    /// rotation, the new key's manifest lists the id with no variants. What shows instead is
    /// another ad of the verified manifest, or the verified entry from the network (or none).
    func testARecordNoTrustedKeySignedNowIsNeverShown() throws {
        let state = keys.appendingPathComponent("state").path
        let tracked = #""tracking": {"impression": ["\#(server.nginx.base)/track/unsigned"]},"#
        let planted = AdServer.Ad(id: "spring-sale", file: "planted.png", data: try Fixtures.solidPNG("red"), extra: tracked)
        let other = AdServer.Ad(id: "other", file: "other.png", data: try Fixtures.solidPNG("blue"))
        func launch(_ key: Minisign) throws -> Launchad.Run {
            try Launchad.run([
                "launch", "--manifest", server.manifestURL, "--cache", cache.path, "--state", state, "--size", "320x240",
                "--transition", "none", "--retries", "0", "--beacon-wait", "5", "--trust-key", key.publicKeyFile
            ])
        }
        // Before the screen trusted a key: whatever the server said, cached unsigned.
        try publish([planted], key: nil)
        XCTAssertEqual(try prefetch([]).status, 0)
        // 1. The operator's v1 names the id, but its creative is withheld.
        let withheld = AdServer.Ad(id: "spring-sale", file: "withheld.png", data: try Fixtures.solidPNG("green"))
        try publish(version: 1, [withheld], key: operatorKey)
        try FileManager.default.removeItem(at: server.nginx.www.appendingPathComponent("withheld.png"))
        XCTAssertEqual(try prefetch().status, 1, "the creative is not there")
        let first = try launch(operatorKey)
        XCTAssertEqual(shown(first), nil, first.stdout)
        XCTAssertEqual(first.events(named: "cache_miss").first?["reason"] as? String, "unverified", first.stdout)
        XCTAssertEqual(first.events(named: "stream").first?["id"] as? String, "spring-sale", "the verified entry, from the network")
        XCTAssertNotEqual(first.events.last?["outcome"] as? String, "completed", first.stdout)
        XCTAssertEqual(first.events(named: "first_frame").count, 0, "nothing of the planted ad on screen: \(first.stdout)")
        // 2. v2 refuses the id's entry (no variants) and lists another ad: that one plays.
        try server.nginx.put(
            "manifest.json",
            Minisign.manifest(
                version: 2, expires: nil, ads: #"{"id": "spring-sale", "type": "image", "variants": []}, "# + other.json))
        try server.nginx.put(other.file, other.data)
        try operatorKey.sign(server.nginx.www.appendingPathComponent("manifest.json").path)
        XCTAssertEqual(try prefetch().status, 0)
        let second = try launch(operatorKey)
        XCTAssertEqual(shown(second), "other", second.stdout)
        XCTAssertEqual(second.events.last?["outcome"] as? String, "completed")
        // 3. Rotation: v3, by the new key alone, lists only the refused entry: nothing to show.
        let next = try Minisign(in: keys, name: "next")
        try server.nginx.put(
            "manifest.json", Minisign.manifest(version: 3, expires: nil, ads: #"{"id": "spring-sale", "type": "video", "variants": []}"#))
        try next.sign(server.nginx.www.appendingPathComponent("manifest.json").path)
        XCTAssertEqual(try prefetch([next.publicKeyFile]).status, 0)
        let third = try launch(next)
        XCTAssertEqual(shown(third), nil, third.stdout)
        XCTAssertEqual(third.events(named: "cache_miss").first?["reason"] as? String, "unverified")
        XCTAssertEqual(third.events.last?["outcome"] as? String, "no_ad", third.stdout)
        XCTAssertEqual(third.status, 3)
        // 4. The operator signs exactly the entry the screen holds: now it is theirs, and plays.
        try publish(version: 4, [planted], key: next)
        XCTAssertEqual(try prefetch([next.publicKeyFile]).status, 0)
        let fourth = try launch(next)
        XCTAssertEqual(shown(fourth), "spring-sale", fourth.stdout)
        XCTAssertEqual(server.nginx.tracked, ["/track/unsigned"], "fired only once its entry was signed")
    }

    /// Red team: a signature server that takes the request and never answers holds the refresh
    /// no longer than the fetch's timeout; the cache is kept.
    func testASignatureServerThatNeverAnswersIsBoundedByTheTimeout() throws {
        let red = AdServer.Ad(id: "red", file: "red.png", data: try Fixtures.solidPNG("red"))
        let manifest = Minisign.manifest(version: 1, expires: nil, ads: red.json)
        let server = try ScriptedServer { fd, request in
            guard !request.hasPrefix("GET /manifest.json.minisig ") else {
                // Takes the request and never answers: holds it until the client hangs up.
                var byte: UInt8 = 0
                while read(fd, &byte, 1) > 0 {}
                return
            }
            _ = ScriptedServer.send(
                fd, Data("HTTP/1.1 200 OK\r\nContent-Length: \(manifest.count)\r\nConnection: close\r\n\r\n".utf8) + manifest)
        }
        let run = try Launchad.run([
            "prefetch", "--manifest", server.url, "--cache", cache.path, "--retries", "0", "--timeout", "2", "--connect-timeout", "10",
            "--trust-key", operatorKey.publicKeyFile
        ])
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(server.requests.filter { $0.hasPrefix("GET /manifest.json.minisig ") }.count, 1)
        let waited = try XCTUnwrap(run.events(named: "prefetch_done").first?["ms"] as? Int)
        XCTAssertLessThan(waited, 4500, "bounded by --timeout")
        XCTAssertTrue(run.stderr.hasPrefix("launchad: manifest: timed out: \(server.url).minisig "), run.stderr)
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
        XCTAssertEqual(run.events(named: "download").count, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: cache.appendingPathComponent("manifest.json").path), "nothing kept")
    }

    /// `launchad manifest verify`: what a screen would say, in one line, exit 0 or 1.
    func testManifestVerifyForAnOperatorsCI() throws {
        let file = keys.appendingPathComponent("m.json")
        func verify(_ extra: [String] = [], key: String? = nil) throws -> Launchad.Run {
            try Launchad.run(["manifest", "verify", file.path, "--trust-key", key ?? operatorKey.publicKeyFile] + extra)
        }
        let ad = AdServer.Ad(id: "red", file: "red.png", data: Data("x".utf8)).json
        try Minisign.manifest(version: 7, expires: "2099-01-01T00:00:00Z", ads: ad).write(to: file)
        try operatorKey.sign(file.path)
        let good = try verify()
        XCTAssertEqual(good.status, 0, good.stderr)
        XCTAssertEqual(
            good.stdout,
            "ok: \(file.path): version 7, expires 2099-01-01T00:00:00.000Z, signed by key \(operatorKey.keyID) (ED); 1 ads\n")
        XCTAssertEqual(try verify(key: operatorKey.keyText).status, 0, "the key's text works as its file")
        let stranger = try Minisign(in: keys, name: "stranger")
        let cases: [([String], String?, String, (inout Data) -> Void)] = [
            ([], nil, "bad_signature", { $0[$0.startIndex + 5] ^= 1 }),
            ([], stranger.publicKeyFile, "unknown_key", { _ in }),
            (["--signature", file.path + ".none"], nil, "unsigned", { _ in })
        ]
        let signed = try Data(contentsOf: file)
        for (extra, key, reason, tamper) in cases {
            var data = signed
            tamper(&data)
            try data.write(to: file)
            let run = try verify(extra, key: key)
            XCTAssertEqual(run.status, 1, reason)
            XCTAssertEqual(run.stdout, "")
            XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
            XCTAssertTrue(run.stderr.hasPrefix("launchad: \(file.path) refused (\(reason)): "), run.stderr)
        }
        for (version, expires, reason) in [(nil, "2099-01-01T00:00:00Z", "malformed"), (8, "2020-01-01T00:00:00Z", "expired")] {
            try Minisign.manifest(version: version, expires: expires, ads: ad).write(to: file)
            try operatorKey.sign(file.path, legacy: true)
            let run = try verify()
            XCTAssertEqual(run.status, 1)
            XCTAssertTrue(run.stderr.hasPrefix("launchad: \(file.path) refused (\(reason)): "), run.stderr)
        }
        XCTAssertEqual(try Launchad.run(["manifest", "verify", file.path]).status, 2)
        // A file's name reaches the terminal escaped, on either stream.
        let named = keys.appendingPathComponent("m\u{1b}[2J.json")
        try Minisign.manifest(version: 1, expires: nil, ads: ad).write(to: named)
        // (Not minisign's default trusted comment, which holds the file's name: launchad refuses
        // the control character in it, as minisign 0.12 does; Debian's 0.11 does not look.)
        try operatorKey.sign(named.path, trustedComment: "version 1")
        let escaped = try Launchad.run(["manifest", "verify", named.path, "--trust-key", operatorKey.publicKeyFile])
        XCTAssertEqual(escaped.status, 0, escaped.stderr)
        XCTAssertTrue(escaped.stdout.hasPrefix("ok: \(keys.path)/m\\x1b[2J.json: version 1, no expiry"), escaped.stdout)
    }
}
