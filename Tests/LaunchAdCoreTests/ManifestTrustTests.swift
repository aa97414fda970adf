import Foundation
import LaunchAdCore
import XCTest

/// Issue 40: the decisions on a signed manifest, in order, with a stand-in for Ed25519 and
/// BLAKE2b (LaunchAdDeliveryTests check the real ones with the real minisign): which reason a
/// refusal has, rotation, rollback, expiry, and what launch may show from the cache.
final class ManifestTrustTests: XCTestCase {
    /// A "signature" is SHA-256 of the key and the message, twice: checkable, forgeable only by
    /// whoever has the key bytes, which is all the decisions need.
    struct FakeCrypto: SignatureCrypto {
        static func sign(_ message: Data, key: [UInt8]) -> [UInt8] {
            let digest = Array(SHA256.hex(of: Data(key) + message).utf8)
            return Array((digest + digest).prefix(64))
        }
        func blake2b512(_ data: Data) -> [UInt8] { Self.sign(data, key: Array("blake2b".utf8)) }
        func verify(signature: [UInt8], message: Data, key: [UInt8]) -> Bool { signature == Self.sign(message, key: key) }
    }

    struct Signer {
        let id: [UInt8]
        let secret: [UInt8]
        var key: MinisignPublicKey {
            try! MinisignPublicKey.parse(text: Data(Array("Ed".utf8) + id + secret).base64EncodedString())
        }

        /// A .minisig of `document`, as minisign lays it out.
        func sign(_ document: Data, legacy: Bool = false, comment: String = "timestamp:1\tfile:m.json") -> [UInt8] {
            let message = legacy ? document : Data(FakeCrypto().blake2b512(document))
            let sig = FakeCrypto.sign(message, key: secret)
            let global = FakeCrypto.sign(Data(sig + Array(comment.utf8)), key: secret)
            let text = """
                untrusted comment: signature from minisign secret key
                \(Data(Array((legacy ? "Ed" : "ED").utf8) + id + sig).base64EncodedString())
                trusted comment: \(comment)
                \(Data(global).base64EncodedString())

                """
            return Array(text.utf8)
        }
    }

    let a = Signer(id: [1, 2, 3, 4, 5, 6, 7, 8], secret: Array(repeating: 0xA1, count: 32))
    let b = Signer(id: [9, 9, 9, 9, 9, 9, 9, 9], secret: Array(repeating: 0xB2, count: 32))
    let document = Data(#"{"version": 3, "ads": []}"#.utf8)

    private func check(_ file: [UInt8]?, _ document: Data? = nil, trust: TrustedKeys) -> Result<VerifiedSignature, ManifestRefusal> {
        ManifestTrustCheck.verify(document: document ?? self.document, signatureFile: file, trust: trust, crypto: FakeCrypto())
    }

    private func reason(_ r: Result<VerifiedSignature, ManifestRefusal>) -> ManifestRejection? {
        if case .failure(let refusal) = r { return refusal.reason }
        return nil
    }

    func testAGoodSignatureIsTakenPrehashedOrLegacy() throws {
        let trust = TrustedKeys(keys: [a.key])
        let signed = try check(a.sign(document), trust: trust).get()
        XCTAssertEqual(signed.keyID, a.key.keyID)
        XCTAssertEqual(signed.algorithm, .prehashed)
        XCTAssertEqual(try check(a.sign(document, legacy: true), trust: trust).get().algorithm, .legacy)
    }

    func testEachRefusalHasItsReason() {
        let trust = TrustedKeys(keys: [a.key])
        var changed = document
        changed[changed.startIndex + 3] ^= 1
        var comment = a.sign(document)
        // The trusted comment's last letter changed after signing: the global signature breaks.
        comment[comment.count - 91] ^= 1
        let cases: [(Result<VerifiedSignature, ManifestRefusal>, ManifestRejection)] = [
            (check(nil, trust: trust), .unsigned),
            (check(Array("garbage".utf8), trust: trust), .malformed),
            (check(b.sign(document), trust: trust), .unknownKey),
            (check(a.sign(document), changed, trust: trust), .badSignature),
            (check(comment, trust: trust), .badSignature),
            (check(a.sign(document), trust: TrustedKeys(keys: [a.key], problems: ["--trust-key x.pub: no such file"])), .malformed),
            (check(a.sign(document), trust: TrustedKeys(keys: [])), .malformed)
        ]
        for (result, expected) in cases { XCTAssertEqual(reason(result), expected, "\(result)") }
        guard case .failure(let unknown) = check(b.sign(document), trust: trust) else { return XCTFail() }
        XCTAssertEqual(unknown.message, "signed by key 0909090909090909, not a trusted one (0807060504030201)")
        guard case .failure(let global) = check(comment, trust: trust) else { return XCTFail() }
        XCTAssertTrue(global.message.contains("trusted comment"), global.message)
    }

    /// A legacy signature is of the file itself, a prehashed one of its hash: one labelled as
    /// the other does not verify.
    func testTheAlgorithmDecidesWhatWasSigned() {
        var relabelled = a.sign(document, legacy: true)
        let line = Array(String(decoding: relabelled, as: UTF8.self).split(separator: "\n")[1].utf8)
        var raw = Array(Data(base64Encoded: Data(line))!)
        raw[1] = UInt8(ascii: "D")
        let text = String(decoding: relabelled, as: UTF8.self).replacingOccurrences(
            of: String(decoding: line, as: UTF8.self), with: Data(raw).base64EncodedString())
        relabelled = Array(text.utf8)
        XCTAssertEqual(reason(check(relabelled, trust: TrustedKeys(keys: [a.key]))), .badSignature)
    }

    func testTwoTrustedKeysDuringARotation() throws {
        let both = TrustedKeys(keys: [a.key, b.key])
        XCTAssertEqual(try check(a.sign(document), trust: both).get().keyID, a.key.keyID)
        XCTAssertEqual(try check(b.sign(document), trust: both).get().keyID, b.key.keyID)
        let c = Signer(id: [7, 7, 7, 7, 7, 7, 7, 7], secret: Array(repeating: 0xC3, count: 32))
        XCTAssertEqual(reason(check(c.sign(document), trust: both)), .unknownKey)
        // A key that claims a trusted key's id is still checked against that key.
        let impostor = Signer(id: a.id, secret: Array(repeating: 0xEE, count: 32))
        XCTAssertEqual(reason(check(impostor.sign(document), trust: both)), .badSignature)
    }

    func testVersionAndExpiry() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let later = now.addingTimeInterval(3600)
        let five = VerifiedVersion(version: 5, sha256: "aa")
        func fresh(_ fields: SignedFields, _ sha256: String = "bb", highest: VerifiedVersion? = five) -> ManifestRefusal? {
            ManifestTrustCheck.fresh(fields, sha256: sha256, highest: highest, now: now)
        }
        XCTAssertNil(fresh(SignedFields(version: 5, expires: later), "aa"), "the same document again (a 304, a re-signing)")
        XCTAssertNil(fresh(SignedFields(version: 6, expires: nil)), "no expiry")
        XCTAssertNil(fresh(SignedFields(version: 0), highest: nil), "the first one")
        let cases: [(SignedFields, ManifestRejection)] = [
            (SignedFields(version: nil), .malformed),
            (SignedFields(version: 4, expires: later), .rollback),
            (SignedFields(version: 5, expires: later), .rollback),
            (SignedFields(version: 6, expires: now), .expired),
            (SignedFields(version: 6, expires: now.addingTimeInterval(-1)), .expired),
            (SignedFields(problem: "version must be a whole number"), .malformed)
        ]
        for (fields, expected) in cases { XCTAssertEqual(fresh(fields)?.reason, expected, "\(fields)") }
        XCTAssertEqual(fresh(SignedFields(version: 4))?.message, "version 4 is older than version 5, the newest this screen has verified")
        XCTAssertEqual(
            fresh(SignedFields(version: 5))?.message,
            "version 5 again, but not the version 5 this screen has verified (each publication needs a higher version)")
        XCTAssertEqual(fresh(SignedFields(version: 6, expires: now))?.message, "it expired at 2027-01-15T08:00:00.000Z")
    }

    /// `version` and `expires` are read by the parser; a bad one is a problem for a signed
    /// manifest only: the ads of an unsigned fleet's manifest are read as before.
    func testTheParserReadsTheSignedFields() throws {
        let base = URL(string: "https://ads.example.com/m.json")!
        func fields(_ json: String) throws -> ParsedManifest {
            try ManifestParser.parse(Data(json.utf8), base: base, budget: ManifestParser.budget(maxBytes: 10_000, seconds: 5))
        }
        let good = try fields(#"{"version": 12, "expires": "2030-01-01T00:00:00Z", "ads": []}"#)
        XCTAssertEqual(good.signed, SignedFields(version: 12, expires: ManifestDate.rfc3339("2030-01-01T00:00:00Z")))
        XCTAssertEqual(try fields(#"{"ads": []}"#).signed, SignedFields())
        for bad in [#""version": "12""#, #""version": 1.5"#, #""version": -1"#, #""version": 1e300"#, #""expires": "soon""#] {
            let parsed = try fields(
                #"{\#(bad), "ads": [{"id": "a", "type": "image", "variants": [{"url": "a.png", "width": 1, "height": 1, "bytes": 1, "sha256": "\#(String(repeating: "a", count: 64))"}]}]}"#
            )
            XCTAssertNotNil(parsed.signed.problem, bad)
            XCTAssertEqual(parsed.manifest.ads.map(\.id), ["a"], "unsigned fleets are unaffected")
        }
    }

    /// launch shows a cached ad only when its record was written from the cache's current
    /// manifest and a key it trusts now signed that manifest; the manifest's expiry passing does
    /// not take the ad away (the stated choice: keep the last verified ad).
    func testWhatLaunchMayShowFromTheCache() {
        let current = ManifestSignatureRecord(
            keyID: a.key.keyID.description, version: 3, sha256: "aa", expires: Date(timeIntervalSince1970: 0))
        let entry = AdEntry(id: "x", kind: .image, duration: 1, variants: [])
        func record(_ signedBy: ManifestSignatureRecord?) -> AdRecord { AdRecord(ad: entry, cachedAt: Date(), signedBy: signedBy) }
        func may(_ r: AdRecord, _ current: ManifestSignatureRecord?, _ keys: [MinisignPublicKey]?) -> Bool {
            ManifestTrustCheck.mayPlay(r, current: current, trust: keys.map { TrustedKeys(keys: $0) })
        }
        XCTAssertTrue(may(record(nil), nil, nil), "signing off: as before")
        XCTAssertTrue(may(record(current), current, [a.key]), "expired long ago, still shown")
        XCTAssertTrue(may(record(current), current, [b.key, a.key]))
        XCTAssertFalse(may(record(current), current, [b.key]), "its key is no longer trusted")
        XCTAssertFalse(may(record(nil), nil, [a.key]), "cached from an unsigned manifest")
        XCTAssertFalse(may(record(nil), current, [a.key]), "kept from an unsigned manifest under a verified one")
        var older = current
        older.version = 2
        older.sha256 = "bb"
        XCTAssertFalse(may(record(older), current, [a.key]), "kept from an older verified manifest")
        var otherKey = current
        otherKey.keyID = b.key.keyID.description
        XCTAssertFalse(may(record(otherKey), current, [a.key, b.key]), "the same document as verified by another key then")
        XCTAssertFalse(may(record(current), nil, [a.key]), "the cache's manifest is no longer a verified one")
        var index = CacheIndex()
        index.manifest = ManifestRecord(source: "m", etag: nil, lastModified: nil, fetchedAt: Date())
        index.manifest?.signature = current
        let y = AdEntry(id: "y", kind: .image, duration: 1, variants: [])
        index.ads = [record(nil), AdRecord(ad: y, cachedAt: Date(), signedBy: current)]
        XCTAssertEqual(ManifestTrustCheck.playable(index, trust: TrustedKeys(keys: [a.key])).map(\.id), ["y"])
        XCTAssertEqual(ManifestTrustCheck.playable(index, trust: nil).map(\.id), ["x", "y"])
    }
}
