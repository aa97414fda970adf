import Foundation
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdEngine

/// `launchad manifest verify`: the screen's checks of a signed manifest, on a file, in one line.
public enum ManifestCommand {
    /// The most a manifest may be: what a screen reads at most.
    static let maxManifestBytes = Int(PrefetchConfig.defaultMaxManifestBytes)

    public static func run(_ o: ManifestOptions, now: Date = Date()) -> Int32 {
        let signaturePath = o.signature ?? o.file + ".minisig"
        switch verify(o, signaturePath: signaturePath, now: now) {
        case .success(let line):
            print(line)
            return ExitCode.success
        case .failure(let refusal):
            FileHandle.standardError.write(
                TerminalText.line("\(TerminalText.quoted(o.file)) refused (\(refusal.reason.rawValue)): \(refusal.message)"))
            return ExitCode.failure
        }
    }

    /// The signature, then the signed fields, then the manifest itself, as a screen takes them.
    static func verify(_ o: ManifestOptions, signaturePath: String, now: Date) -> Result<String, ManifestRefusal> {
        let document: Data
        switch OwnFile.read(o.file, maxBytes: maxManifestBytes, owner: .anyone) {
        case .contents(let data): document = data
        case .missing: return .failure(ManifestRefusal(.malformed, "no such file"))
        case .refused(let why): return .failure(ManifestRefusal(.malformed, "cannot read it: \(why)"))
        }
        var signature: [UInt8]?
        switch OwnFile.read(signaturePath, maxBytes: MinisignSignature.maxFileBytes, owner: .anyone) {
        case .contents(let data): signature = Array(data)
        case .missing: signature = nil
        case .refused(let why):
            return .failure(ManifestRefusal(.malformed, "cannot read the signature \(TerminalText.quoted(signaturePath)): \(why)"))
        }
        let crypto: Sodium
        do { crypto = try Sodium.open() } catch { return .failure(ManifestRefusal(.malformed, "\(error)")) }
        let trust = TrustedKeyFiles.read(o.trustKeys) ?? TrustedKeys(keys: [])
        return ManifestTrustCheck.verify(document: document, signatureFile: signature, trust: trust, crypto: crypto).flatMap { signed in
            let parsed: ParsedManifest
            do {
                parsed = try ManifestParser.parse(
                    document, base: URL(fileURLWithPath: o.file).standardizedFileURL,
                    budget: ManifestParser.budget(maxBytes: Int64(maxManifestBytes), seconds: 5))
            } catch { return .failure(ManifestRefusal(.malformed, "not a manifest: \(error)")) }
            if let refusal = ManifestTrustCheck.fresh(parsed.signed, sha256: SHA256.hex(of: document), highest: nil, now: now) {
                return .failure(refusal)
            }
            let expires = parsed.signed.expires.map { "expires \(MacroExpander.timestamp($0))" } ?? "no expiry"
            let refused = parsed.rejected.isEmpty ? "" : ", \(parsed.rejected.count) refused"
            return .success(
                "ok: \(TerminalText.quoted(o.file)): version \(parsed.signed.version ?? 0), \(expires), signed by key \(signed.keyID) "
                    + "(\(signed.algorithm.rawValue)); \(parsed.manifest.ads.count) ads\(refused)")
        }
    }
}
