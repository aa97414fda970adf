import Foundation

/// Why a manifest was refused when the screen trusts keys (`--trust-key`): the `reason` of the
/// `manifest_rejected` event and the label of `launchad_manifest_rejected_total`. Stable.
public enum ManifestRejection: String, CaseIterable, Sendable {
    /// No signature beside it (`URL.minisig` answered 404 or 410, or the file is not there).
    case unsigned
    /// A trusted key's id, but the signature (of the file or of its trusted comment) does not match.
    case badSignature = "bad_signature"
    /// Signed by a key no `--trust-key` names.
    case unknownKey = "unknown_key"
    /// Its `version` is lower than the highest this screen has verified.
    case rollback
    /// Past its `expires`.
    case expired
    /// The signature file, a trusted key or the signed fields (`version`, `expires`) cannot be read.
    case malformed
}

/// A refused manifest: the reason and one line saying what exactly.
public struct ManifestRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    /// The stable reason.
    public let reason: ManifestRejection
    /// What exactly, one line; never the document's or the signature's own text.
    public let message: String
    /// A refusal for `reason`, saying `message`.
    public init(_ reason: ManifestRejection, _ message: String) { self.reason = reason; self.message = message }
    /// `REASON: MESSAGE`.
    public var description: String { "\(reason.rawValue): \(message)" }

    /// The line on stderr: `manifest URL refused (REASON): MESSAGE`.
    public func note(manifest: String) -> String { "manifest \(manifest) refused (\(reason.rawValue)): \(message)" }
}

/// The keys a screen trusts (every `--trust-key`, read), and those that could not be read.
public struct TrustedKeys: Equatable, Sendable {
    /// The keys that could be read, in the order given.
    public var keys: [MinisignPublicKey]
    /// One line per `--trust-key` that is not a key: while there is one, every manifest is refused
    /// (`malformed`), loudly, rather than trusted with a set the operator did not mean.
    public var problems: [String]
    /// The set of `keys`, with `problems` for those that could not be read.
    public init(keys: [MinisignPublicKey], problems: [String] = []) { self.keys = keys; self.problems = problems }

    /// The ids, as minisign prints them.
    public var ids: [String] { keys.map(\.keyID.description) }
}

/// The two primitives a minisign signature needs, provided by libsodium in the product
/// (LaunchAdDelivery's `Sodium`) and by a fake in the decisions' tests.
public protocol SignatureCrypto: Sendable {
    /// BLAKE2b with a 64-byte output and no key (libsodium's crypto_generichash).
    func blake2b512(_ data: Data) -> [UInt8]
    /// Ed25519 (crypto_sign_verify_detached): whether `signature` is `key`'s over `message`.
    func verify(signature: [UInt8], message: Data, key: [UInt8]) -> Bool
}

/// What a verified signature says: who signed and how.
public struct VerifiedSignature: Equatable, Sendable {
    /// The trusted key whose signature held.
    public let keyID: MinisignKeyID
    /// Prehashed (`ED`) or legacy (`Ed`).
    public let algorithm: MinisignSignature.Algorithm
    /// The trusted comment the global signature covers.
    public let trustedComment: String
}

/// The decisions of a signed manifest, in the order they are taken; the bytes are never parsed
/// as a manifest before the signature holds.
public enum ManifestTrustCheck {
    /// The signature of `document`: `signatureFile` nil when there is none.
    public static func verify(
        document: Data, signatureFile: [UInt8]?, trust: TrustedKeys, crypto: SignatureCrypto
    ) -> Result<VerifiedSignature, ManifestRefusal> {
        if let problem = trust.problems.first { return .failure(ManifestRefusal(.malformed, problem)) }
        guard !trust.keys.isEmpty else { return .failure(ManifestRefusal(.malformed, "no trusted key")) }
        guard let signatureFile else { return .failure(ManifestRefusal(.unsigned, "no signature beside the manifest")) }
        let signature: MinisignSignature
        do { signature = try MinisignSignature.parse(signatureFile) } catch {
            return .failure(ManifestRefusal(.malformed, "the signature: \(error.message)"))
        }
        let candidates = trust.keys.filter { $0.keyID == signature.keyID }
        guard !candidates.isEmpty else {
            return .failure(
                ManifestRefusal(
                    .unknownKey, "signed by key \(signature.keyID), not a trusted one (\(trust.ids.joined(separator: ", ")))"))
        }
        let message = signature.algorithm == .prehashed ? Data(crypto.blake2b512(document)) : document
        guard let key = candidates.first(where: { crypto.verify(signature: signature.signature, message: message, key: $0.key) }) else {
            return .failure(ManifestRefusal(.badSignature, "the signature by key \(signature.keyID) does not match the manifest"))
        }
        guard crypto.verify(signature: signature.globalSignature, message: Data(signature.globalMessage), key: key.key) else {
            return .failure(ManifestRefusal(.badSignature, "the trusted comment's signature by key \(signature.keyID) does not match"))
        }
        return .success(VerifiedSignature(keyID: key.keyID, algorithm: signature.algorithm, trustedComment: signature.trustedComment))
    }

    /// The signed fields after the signature held: `version` required, not below the highest
    /// this screen verified, nor equal to it with other bytes (`sha256`: the document's), and not
    /// past `expires` at `now`.
    public static func fresh(_ fields: SignedFields, sha256: String, highest: VerifiedVersion?, now: Date) -> ManifestRefusal? {
        if let problem = fields.problem { return ManifestRefusal(.malformed, problem) }
        guard let version = fields.version else {
            return ManifestRefusal(.malformed, "a signed manifest needs \"version\", a whole number that grows with each one published")
        }
        if let refusal = rollback(VerifiedVersion(version: version, sha256: sha256), highest: highest) { return refusal }
        if let expires = fields.expires, now >= expires {
            return ManifestRefusal(.expired, "it expired at \(MacroExpander.timestamp(expires))")
        }
        return nil
    }

    /// `document` against `highest`, the highest version this screen verified: a lower version is
    /// a rollback, and so is the same version with other bytes (each publication needs a higher
    /// one, or an older document of the same version could be served again). The same document
    /// again (re-signed, after a 304) is not. Asked again as the cache is written, where another
    /// refresh may have verified a newer one meanwhile.
    public static func rollback(_ document: VerifiedVersion?, highest: VerifiedVersion?) -> ManifestRefusal? {
        guard let document, let highest else { return nil }
        if document.version < highest.version {
            return ManifestRefusal(
                .rollback, "version \(document.version) is older than version \(highest.version), the newest this screen has verified")
        }
        if document.version == highest.version, document.sha256 != highest.sha256 {
            return ManifestRefusal(
                .rollback,
                "version \(document.version) again, but not the version \(document.version) this screen has verified "
                    + "(each publication needs a higher version)")
        }
        return nil
    }

    /// Whether `launch` may show `record` (and fire its tracking, send its play to the manifest's
    /// collector): always without trusted keys; with them, only when the record was written from
    /// the manifest the cache holds now (`current`, the record of its signature) and a key trusted
    /// now verified that manifest. A record a refresh kept from an older or unsigned manifest (the
    /// new one names the same id, but its creative could not be had, or its entry was refused) is
    /// never shown: it is not what the operator's current manifest says. The manifest's
    /// `expires` passing does not stop it (docs/launch-and-cache.md, "Signed manifests": the last
    /// verified ad keeps playing; what expires is the document's right to replace it).
    public static func mayPlay(_ record: AdRecord, current: ManifestSignatureRecord?, trust: TrustedKeys?) -> Bool {
        guard let trust else { return true }
        guard let current, let signed = record.signedBy, signed == current else { return false }
        return trust.ids.contains(signed.keyID)
    }

    /// The cached ads `launch` may choose from (`mayPlay`), in the index's order.
    public static func playable(_ index: CacheIndex, trust: TrustedKeys?) -> [AdEntry] {
        index.ads.filter { mayPlay($0, current: index.manifest?.signature, trust: trust) }.map(\.ad)
    }
}

/// The manifest's own fields a signature makes meaningful, as the parser found them.
public struct SignedFields: Equatable, Sendable {
    /// `"version"`: a whole number from 0 to 2^53-1.
    public var version: Int?
    /// `"expires"`: when the document stops being accepted.
    public var expires: Date?
    /// Why one of them cannot be read, naming it.
    public var problem: String?
    /// The fields as read, or the `problem` of one of them.
    public init(version: Int? = nil, expires: Date? = nil, problem: String? = nil) {
        self.version = version; self.expires = expires; self.problem = problem
    }
}

/// What the cache keeps of a verified manifest: who signed it, its version, the sha256 of its
/// bytes and its expiry.
public struct ManifestSignatureRecord: Codable, Equatable, Sendable {
    /// The verifying key's id, as minisign prints it.
    public var keyID: String
    /// The manifest's `version`.
    public var version: Int
    /// The sha256 of the manifest's bytes, in lowercase hex.
    public var sha256: String
    /// The manifest's `expires`, if it has one.
    public var expires: Date?

    enum CodingKeys: String, CodingKey { case keyID = "key_id", version, sha256, expires }

    /// A record of a manifest verified with `keyID`.
    public init(keyID: String, version: Int, sha256: String, expires: Date?) {
        self.keyID = keyID; self.version = version; self.sha256 = sha256; self.expires = expires
    }

    /// Its version and bytes, as the rollback rule compares them.
    public var verifiedVersion: VerifiedVersion { VerifiedVersion(version: version, sha256: sha256) }
}

/// A verified manifest's version and the sha256 of its bytes: the cache remembers the highest.
public struct VerifiedVersion: Codable, Equatable, Sendable {
    /// The manifest's `version`.
    public var version: Int
    /// The sha256 of its bytes, in lowercase hex.
    public var sha256: String
    /// The `version` of the document whose bytes hash to `sha256`.
    public init(version: Int, sha256: String) { self.version = version; self.sha256 = sha256 }
}
