import Foundation
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdTestSupport
import XCTest

/// Issue 40, in process: manifests signed by the real `minisign` in the test's folder, verified
/// with libsodium by the refresh before anything of them is used; every refusal leaves the cache
/// as the last verified manifest left it.
final class SignedManifestTests: XCTestCase {
    let manifestURL = "https://ads.example.com/manifest.json"
    var signatureURL: String { manifestURL + ".minisig" }
    let now = Date(timeIntervalSince1970: 1_795_000_000)
    var dir: URL!
    var keys: URL!
    var store: CacheStore!
    var net: FakeFetcher!
    var sink: RecordingSink!
    var operatorKey: Minisign!

    override func setUpWithError() throws {
        dir = try makeTempDir("signed")
        keys = try makeTempDir("signed-keys")
        store = try CacheStore(directory: dir)
        net = FakeFetcher()
        sink = RecordingSink()
        operatorKey = try Minisign(in: keys, name: "operator")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dir)
        try? FileManager.default.removeItem(at: keys)
    }

    let red = Data("red creative".utf8), blue = Data("blue creative!".utf8)

    func ad(_ id: String, _ body: Data, extra: String = "") -> String {
        net.set("https://ads.example.com/\(id).mp4", .body(200, body, [:]))
        return
            #"{"id": "\#(id)", "type": "video", \#(extra) "variants": [{"url": "\#(id).mp4", "width": 720, "height": 1280, "bytes": \#(body.count), "sha256": "\#(SHA256.hex(of: body))"}]}"#
    }

    /// Publishes a manifest: signed by `key` (nil: no .minisig, a 404), then `tamper` applied to
    /// the manifest's bytes after signing.
    @discardableResult
    func publish(
        version: Int? = 1, expires: String? = "2030-01-01T00:00:00Z", ads: String, key: Minisign?, legacy: Bool = false,
        etag: String? = nil, tamper: (inout Data) -> Void = { _ in }
    ) throws -> Data {
        var document = Minisign.manifest(version: version, expires: expires, ads: ads)
        let file = keys.appendingPathComponent("manifest-\(UUID().uuidString).json")
        try document.write(to: file)
        if let key {
            let sig = try key.sign(file.path, legacy: legacy)
            net.set(signatureURL, .body(200, try Data(contentsOf: URL(fileURLWithPath: sig)), [:]))
        } else {
            net.set(signatureURL, .body(404, Data("not found".utf8), [:]))
        }
        tamper(&document)
        net.set(manifestURL, .body(200, document, etag.map { ["etag": $0] } ?? [:]))
        return document
    }

    @discardableResult
    func prefetch(trusting trusted: [String]? = nil, at time: Date? = nil, onManifest: ((Manifest?) -> Void)? = nil) -> PrefetchReport {
        let config = PrefetchConfig(
            manifestURL: URL(string: manifestURL)!, screen: Size(width: 720, height: 1280),
            trust: TrustedKeyFiles.read(trusted ?? [operatorKey.publicKeyFile]))
        return Prefetcher(store: store, fetcher: net, sink: sink, config: config, now: { [now] in time ?? now }).run(onManifest: onManifest)
    }

    /// The reasons of this test's `manifest_rejected` events so far.
    func refusals() -> [String] {
        sink.events.compactMap { if case .manifestRejected(let r, _) = $0.event { return r.reason.rawValue } else { return nil } }
    }

    func cachedAds() -> [String] { store.readIndex().ads.map(\.ad.id) }

    func testAGoodManifestIsTakenPrehashedOrLegacy() throws {
        try publish(version: 3, ads: ad("red", red), key: operatorKey)
        XCTAssertTrue(prefetch().ok, "\(sink.events.map(\.name))")
        XCTAssertEqual(cachedAds(), ["red"])
        let index = store.readIndex()
        XCTAssertEqual(index.manifest?.signature?.keyID, operatorKey.keyID)
        XCTAssertEqual(index.manifest?.signature?.version, 3)
        XCTAssertEqual(index.manifest?.signature?.expires, ManifestDate.rfc3339("2030-01-01T00:00:00Z"))
        XCTAssertEqual(index.highestVerified?.version, 3)
        XCTAssertEqual(index.highestVerified?.sha256, SHA256.hex(of: try Data(contentsOf: dir.appendingPathComponent("manifest.json"))))
        // The signature is fetched through the gateway, capped at what minisign can write.
        let request = try XCTUnwrap(net.requests.first { $0.url.absoluteString == signatureURL })
        XCTAssertEqual(request.maxBytes, Int64(MinisignSignature.maxFileBytes))
        XCTAssertEqual(request.reach, .any)
        XCTAssertNotNil(request.cancellation, "a cancelled refresh stops its retries")
        // minisign -l: the file itself signed, not its hash.
        try publish(version: 4, ads: ad("blue", blue), key: operatorKey, legacy: true)
        XCTAssertTrue(prefetch().ok)
        XCTAssertEqual(cachedAds(), ["blue"])
        XCTAssertEqual(refusals(), [])
    }

    /// Each refusal of the issue's list: its reason, one event, and the cache exactly as the
    /// last verified manifest left it (its ads, its copy, its record), nothing of it fetched.
    func testEachRefusalLeavesTheLastVerifiedManifest() throws {
        try publish(version: 5, expires: "2030-01-01T00:00:00Z", ads: ad("red", red), key: operatorKey)
        XCTAssertTrue(prefetch().ok)
        let stranger = try Minisign(in: keys, name: "stranger")
        let copy = dir.appendingPathComponent("manifest.json")
        let before = (store.readIndex(), try Data(contentsOf: copy))
        let blueAd = ad("blue", blue)
        let cases: [(String, () throws -> Void)] = [
            ("bad_signature", { try self.publish(version: 6, ads: blueAd, key: self.operatorKey) { $0[$0.startIndex + 20] ^= 0x01 } }),
            ("unknown_key", { try self.publish(version: 6, ads: blueAd, key: stranger) }),
            ("rollback", { try self.publish(version: 4, ads: blueAd, key: self.operatorKey) }),
            ("rollback", { try self.publish(version: 5, ads: blueAd, key: self.operatorKey) }),
            ("expired", { try self.publish(version: 6, expires: "2020-01-01T00:00:00Z", ads: blueAd, key: self.operatorKey) }),
            ("unsigned", { try self.publish(version: 6, ads: blueAd, key: nil) }),
            ("malformed", { try self.publish(version: nil, ads: blueAd, key: self.operatorKey) })
        ]
        for (reason, make) in cases {
            let events = sink.events.count
            try make()
            let report = prefetch()
            XCTAssertFalse(report.ok, reason)
            XCTAssertEqual(report.failed, 1, reason)
            XCTAssertEqual(refusals().last, reason)
            XCTAssertEqual(
                sink.events.dropFirst(events).map(\.name), ["prefetch_start", "manifest_rejected", "prefetch_done"], reason)
            XCTAssertEqual(store.readIndex(), before.0, "\(reason): the index is as the last verified manifest left it")
            XCTAssertEqual(try Data(contentsOf: copy), before.1, "\(reason): the refused document is never kept")
        }
        XCTAssertFalse(net.urls().contains("https://ads.example.com/blue.mp4"), "nothing the refused manifests name was fetched")
        XCTAssertEqual(refusals(), cases.map(\.0))
    }

    /// The refused document is never partly applied: its tracking, its collector and its
    /// schedule reach nothing; a first launch waiting for it gets none.
    func testARefusedManifestIsNeverPartlyApplied() throws {
        try publish(version: 1, ads: ad("red", red), key: operatorKey)
        XCTAssertTrue(prefetch().ok)
        let hostile = ad(
            "blue", blue,
            extra: #""tracking": {"impression": ["https://evil.example/i"]}, "schedule": {"days": ["mon"]}, "priority": 99,"#)
        var document = try publish(version: 2, ads: hostile, key: operatorKey)
        document = Data(
            String(decoding: document, as: UTF8.self).replacingOccurrences(
                of: #"{"version""#, with: #"{"report": {"url": "https://evil.example/pop", "batch": 1}, "version""#
            ).utf8)
        net.set(manifestURL, .body(200, document, [:]))
        var given: Manifest?? = .none
        prefetch(onManifest: { given = .some($0) })
        XCTAssertEqual(given, .some(nil), "a first launch is told there is no manifest")
        XCTAssertEqual(refusals(), ["bad_signature"])
        let index = store.readIndex()
        XCTAssertEqual(cachedAds(), ["red"])
        XCTAssertNil(index.manifest?.report)
        XCTAssertNil(index.ads.first?.ad.tracking)
        XCTAssertEqual(net.urls().filter { $0.contains("evil") || $0.contains("blue") }, [])
    }

    func testTwoTrustedKeysDuringARotation() throws {
        let next = try Minisign(in: keys, name: "next")
        let both = [operatorKey.publicKeyFile, next.keyText]
        try publish(version: 1, ads: ad("red", red), key: operatorKey)
        XCTAssertTrue(prefetch(trusting: both).ok)
        try publish(version: 2, ads: ad("blue", blue), key: next)
        XCTAssertTrue(prefetch(trusting: both).ok)
        XCTAssertEqual(store.readIndex().manifest?.signature?.keyID, next.keyID)
        // The old key retired: what it signs is no longer taken.
        try publish(version: 3, ads: ad("red", red), key: operatorKey)
        XCTAssertFalse(prefetch(trusting: [next.publicKeyFile]).ok)
        XCTAssertEqual(refusals(), ["unknown_key"])
        XCTAssertEqual(cachedAds(), ["blue"])
    }

    /// A key of another algorithm (a signature's `ED` in a key), a key file that is not one, or a
    /// key that cannot be read: every manifest is refused `malformed` until it is fixed, with no
    /// fetch of the signature, and the cache kept.
    func testAKeyOfTheWrongAlgorithmRefusesEveryManifest() throws {
        try publish(version: 1, ads: ad("red", red), key: operatorKey)
        XCTAssertTrue(prefetch().ok)
        var raw = Array(Data(base64Encoded: operatorKey.keyText)!)
        raw[1] = UInt8(ascii: "D")
        let garbage = keys.appendingPathComponent("garbage.pub")
        try Data("untrusted comment: x\nnot a key at all\n".utf8).write(to: garbage)
        let requestsBefore = net.urls().count
        for key in [Data(raw).base64EncodedString(), garbage.path, keys.appendingPathComponent("missing.pub").path, "/dev/zero"] {
            try publish(version: 2, ads: ad("blue", blue), key: operatorKey)
            XCTAssertFalse(prefetch(trusting: [operatorKey.publicKeyFile, key]).ok, key)
            XCTAssertEqual(refusals().last, "malformed", key)
        }
        XCTAssertEqual(cachedAds(), ["red"])
        XCTAssertFalse(net.urls().dropFirst(requestsBefore).contains(signatureURL), "the keys are refused before anything is fetched")
        guard case .manifestRejected(let refusal, _)? = sink.events.last(where: { $0.name == "manifest_rejected" })?.event else {
            return XCTFail()
        }
        XCTAssertTrue(refusal.message.contains("/dev/zero: cannot read it: it is not a regular file"), refusal.message)
    }

    /// A .minisig of 10 MB is cut off at minisign's largest; garbage is malformed.
    func testAHugeOrGarbageSignatureIsMalformed() throws {
        try publish(version: 1, ads: ad("red", red), key: operatorKey)
        XCTAssertTrue(prefetch().ok)
        try publish(version: 2, ads: ad("blue", blue), key: operatorKey)
        net.set(signatureURL, .body(200, Data(repeating: 0x41, count: 10_000_000), [:]))
        XCTAssertFalse(prefetch().ok)
        net.set(signatureURL, .body(200, Data((0..<500).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) }), [:]))
        XCTAssertFalse(prefetch().ok)
        XCTAssertEqual(refusals(), ["malformed", "malformed"])
        XCTAssertEqual(cachedAds(), ["red"])
    }

    /// A signature that cannot be had (a 503, a dropped connection) is a failed refresh like the
    /// manifest's own failure, not a refusal; the cache is kept.
    func testASignatureThatCannotBeFetchedFailsTheRefresh() throws {
        try publish(version: 1, ads: ad("red", red), key: operatorKey)
        XCTAssertTrue(prefetch().ok)
        try publish(version: 2, ads: ad("blue", blue), key: operatorKey)
        net.set(signatureURL, .body(503, Data(), [:]))
        XCTAssertFalse(prefetch().ok)
        net.set(signatureURL, .fail(FetchError("timed out: \(signatureURL)", retryable: true)))
        XCTAssertFalse(prefetch().ok)
        XCTAssertEqual(refusals(), [])
        XCTAssertEqual(sink.events.filter { $0.name == "rejected" }.map { $0["id"] }, ["manifest", "manifest"])
        XCTAssertEqual(cachedAds(), ["red"])
    }

    /// After a 304 the cached copy is checked again with the signature fetched now: a manifest
    /// re-signed by a new key keeps being taken; one whose key is no longer trusted is refused.
    func testANotModifiedManifestIsVerifiedAgain() throws {
        let next = try Minisign(in: keys, name: "next")
        try publish(version: 1, ads: ad("red", red), key: operatorKey, etag: "\"m1\"")
        XCTAssertTrue(prefetch().ok)
        XCTAssertTrue(prefetch().ok)
        XCTAssertEqual(sink.events.filter { $0.name == "not_modified" }.count, 1)
        try publish(version: 1, ads: ad("red", red), key: next, etag: "\"m1\"")
        XCTAssertTrue(prefetch(trusting: [next.publicKeyFile]).ok)
        XCTAssertEqual(store.readIndex().manifest?.signature?.keyID, next.keyID)
        XCTAssertFalse(prefetch(trusting: [operatorKey.publicKeyFile]).ok)
        XCTAssertEqual(refusals(), ["unknown_key"])
        XCTAssertEqual(sink.events.filter { $0.name == "not_modified" }.count, 3)
    }

    /// The stated choice: when the only verified manifest expires, the screen keeps its ads (the
    /// refresh refuses the expired document, and launch may still show what the cache holds).
    func testWhenTheOnlyVerifiedManifestExpiresItsAdsStay() throws {
        try publish(version: 1, expires: "2026-11-18T00:00:00Z", ads: ad("red", red), key: operatorKey)
        XCTAssertTrue(prefetch(at: ManifestDate.rfc3339("2026-11-17T00:00:00Z")).ok)
        XCTAssertFalse(prefetch(at: ManifestDate.rfc3339("2026-11-19T00:00:00Z")).ok)
        XCTAssertEqual(refusals(), ["expired"])
        let index = store.readIndex()
        XCTAssertEqual(cachedAds(), ["red"])
        let trust = TrustedKeyFiles.read([operatorKey.publicKeyFile])
        XCTAssertEqual(ManifestTrustCheck.playable(index, trust: trust).map(\.id), ["red"])
    }

    /// The ads launch --trust-key may show from the cache now.
    func playable(trusting trusted: [String]? = nil) -> [String] {
        ManifestTrustCheck.playable(store.readIndex(), trust: TrustedKeyFiles.read(trusted ?? [operatorKey.publicKeyFile])).map(\.id)
    }

    /// Review of issue 40: each record says which verified manifest it was written from. One the
    /// refresh keeps because the verified manifest's entry for its id could not be cached (its
    /// creative withheld, its entry refused, a rotated key's manifest listing it with no variants)
    /// is still in the cache, and never among what launch --trust-key may show; an entry the new
    /// manifest repeats unchanged is that manifest's, and stays.
    func testOnlyTheCurrentVerifiedManifestsRecordsMayPlay() throws {
        let unsigned = PrefetchConfig(manifestURL: URL(string: manifestURL)!, screen: Size(width: 720, height: 1280))
        try publish(version: nil, ads: ad("spring", red), key: nil)
        XCTAssertTrue(Prefetcher(store: store, fetcher: net, sink: sink, config: unsigned, now: { [now] in now }).run().ok)
        XCTAssertEqual(cachedAds(), ["spring"])
        XCTAssertEqual(playable(), [], "cached without a trusted key")
        // v1 names the id; its creative is withheld.
        try publish(version: 1, ads: ad("spring", blue), key: operatorKey)
        net.set("https://ads.example.com/spring.mp4", .body(404, Data(), [:]))
        XCTAssertFalse(prefetch().ok)
        XCTAssertEqual(cachedAds(), ["spring"], "kept, as an unsigned fleet would keep it")
        XCTAssertNil(store.readIndex().record(for: "spring")?.signedBy)
        XCTAssertEqual(store.readIndex().manifest?.signature?.version, 1)
        XCTAssertEqual(playable(), [])
        // v2 refuses the id's entry and lists another ad.
        let other = ad("other", blue)
        try publish(version: 2, ads: #"{"id": "spring", "type": "video", "variants": []}, "# + other, key: operatorKey)
        XCTAssertTrue(prefetch().ok)
        XCTAssertEqual(cachedAds(), ["spring", "other"])
        XCTAssertEqual(playable(), ["other"])
        // v3 repeats "other" unchanged: the record is v3's now.
        try publish(version: 3, ads: other, key: operatorKey, etag: "\"v3\"")
        XCTAssertTrue(prefetch().ok)
        XCTAssertEqual(store.readIndex().record(for: "other")?.signedBy?.version, 3)
        XCTAssertEqual(playable(), ["other"])
        // A refresh without keys that is told "not modified" keeps what was verified of the copy.
        XCTAssertTrue(Prefetcher(store: store, fetcher: net, sink: sink, config: unsigned, now: { [now] in now }).run().ok)
        XCTAssertEqual(sink.events.filter { $0.name == "not_modified" }.count, 1)
        XCTAssertEqual(playable(), ["other"])
        // Rotation: v4 by the new key alone lists the old id with no variants; the old key's record is not shown.
        let next = try Minisign(in: keys, name: "next")
        try publish(version: 4, ads: #"{"id": "other", "type": "video", "variants": []}"#, key: next)
        XCTAssertTrue(prefetch(trusting: [next.publicKeyFile]).ok)
        XCTAssertEqual(cachedAds(), ["other"])
        XCTAssertEqual(playable(trusting: [next.publicKeyFile]), [])
        XCTAssertEqual(playable(trusting: [operatorKey.publicKeyFile, next.publicKeyFile]), [], "v3's record under v4")
    }

    /// Without --trust-key nothing changes: no signature is fetched, and a manifest without
    /// version or expiry, or with bad ones, is read as before.
    func testWithoutTrustedKeysNothingChanges() throws {
        try publish(version: nil, expires: "whenever", ads: ad("red", red), key: nil)
        let config = PrefetchConfig(manifestURL: URL(string: manifestURL)!, screen: Size(width: 720, height: 1280))
        XCTAssertTrue(Prefetcher(store: store, fetcher: net, sink: sink, config: config, now: { [now] in now }).run().ok)
        XCTAssertEqual(cachedAds(), ["red"])
        XCTAssertFalse(net.urls().contains(signatureURL))
        XCTAssertNil(store.readIndex().manifest?.signature)
    }

    /// Two refreshes at once: one verified version 9 while this one downloaded version 6's
    /// creatives. Writing 6 then would roll the screen back: it is refused as the cache is written.
    func testANewerVersionVerifiedMeanwhileMakesThisOneARollback() throws {
        struct Meanwhile: Fetcher {
            let base: FakeFetcher
            let store: CacheStore
            func fetch(_ request: FetchRequest, progress: ((Int64) -> Void)?) throws -> FetchResponse {
                if request.url.lastPathComponent == "blue.mp4" {
                    try store.update { $0.highestVerified = VerifiedVersion(version: 9, sha256: "aa") }
                }
                return try base.fetch(request, progress: progress)
            }
        }
        try publish(version: 5, ads: ad("red", red), key: operatorKey)
        XCTAssertTrue(prefetch().ok)
        try publish(version: 6, ads: ad("blue", blue), key: operatorKey)
        let config = PrefetchConfig(
            manifestURL: URL(string: manifestURL)!, screen: Size(width: 720, height: 1280),
            trust: TrustedKeyFiles.read([operatorKey.publicKeyFile]))
        let report = Prefetcher(
            store: store, fetcher: Meanwhile(base: net, store: store), sink: sink, config: config, now: { [now] in now }
        )
        .run()
        XCTAssertFalse(report.ok)
        XCTAssertEqual(refusals(), ["rollback"])
        XCTAssertEqual(cachedAds(), ["red"])
        XCTAssertEqual(store.readIndex().manifest?.signature?.version, 5)
    }

    func testSodiumComputesBLAKE2bAndEd25519() throws {
        let sodium = try Sodium.open()
        XCTAssertEqual(
            sodium.blake2b512(Data()).map { String(format: "%02x", $0) }.joined(),
            "786a02f742015903c6c6fd852552d272912f4740e15847618a86e217f71f5419d25e1031afee585313896444934eb04b903a685b1448b755d56f701afe9be2ce"
        )
        XCTAssertFalse(sodium.verify(signature: [1, 2], message: Data(), key: []), "wrong sizes are a mismatch, never a read past the end")
        XCTAssertFalse(
            sodium.verify(signature: Array(repeating: 0, count: 64), message: Data("x".utf8), key: Array(repeating: 0, count: 32)))
    }
}
