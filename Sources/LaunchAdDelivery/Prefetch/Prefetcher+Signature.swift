import Foundation
import LaunchAdCore

/// `--trust-key`: the manifest's bytes are checked against their signature, fetched from beside
/// them through the same gateway and budgets, before anything of them is parsed or used; then
/// their `version` and `expires` against what this cache has verified.
extension Prefetcher {
    /// The signature of `document` (the manifest's bytes, fetched or the cache's copy after a
    /// 304) checked against the trusted keys: nil when signing is off; else who signed it, or a
    /// `ManifestRefusal`. A signature that cannot be fetched (a timeout, a 5xx) is a failed
    /// fetch, as the manifest's own would be; a missing libsodium a `SodiumError`.
    func verifiedSignature(of document: Data) throws -> VerifiedSignature? {
        guard let trust = config.trust else { return nil }
        // The keys first: a broken --trust-key refuses every manifest without a fetch.
        if let problem = trust.problems.first { throw ManifestRefusal(.malformed, problem) }
        let crypto = try Sodium.open()
        let file = try fetchSignature()
        return try ManifestTrustCheck.verify(document: document, signatureFile: file, trust: trust, crypto: crypto).get()
    }

    /// `URL.minisig`: its bytes, or nil when there is none (404 or 410; for a file, no such file).
    private func fetchSignature() throws -> [UInt8]? {
        let url = MinisignSignature.location(of: config.manifestURL)
        if url.isFileURL, access(url.path, F_OK) != 0, errno == ENOENT { return nil }
        // Beside --manifest, which is the user's: it may reach any address, as the manifest does.
        // Capped at the largest file minisign writes (9 KB): a bigger one is not a signature.
        var request = FetchRequest(url: url, reach: .any, maxBytes: Int64(MinisignSignature.maxFileBytes))
        request.cancellation = cancellation
        let response: FetchResponse
        do { response = try fetcher.fetch(request, progress: nil) } catch let e as FetchError where e.tooLarge {
            throw ManifestRefusal(
                .malformed, "the signature \(TerminalText.quoted(url.absoluteString)) is over \(MinisignSignature.maxFileBytes) bytes")
        }
        switch response.status {
        case 200: return Array(response.body)
        case 404, 410: return nil
        default: throw CacheError("HTTP \(response.status) for the signature \(TerminalText.quoted(url.absoluteString))")
        }
    }

    /// The signed fields of a verified `document` against the highest version this cache verified
    /// and the clock; what the cache will remember of it.
    func freshRecord(_ signature: VerifiedSignature, _ fields: SignedFields, document: Data) throws -> ManifestSignatureRecord {
        let sha256 = SHA256.hex(of: document)
        let highest = store.readIndex().highestVerified
        if let refusal = ManifestTrustCheck.fresh(fields, sha256: sha256, highest: highest, now: now()) { throw refusal }
        // `fresh` refuses a manifest without a version.
        return ManifestSignatureRecord(
            keyID: signature.keyID.description, version: fields.version ?? 0, sha256: sha256, expires: fields.expires)
    }
}
