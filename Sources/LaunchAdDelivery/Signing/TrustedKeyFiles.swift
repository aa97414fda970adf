import Foundation
import LaunchAdCore

/// `--trust-key` values as the run reads them, on its own thread: each is a public key's text
/// (as minisign prints it) or the name of a `.pub` file, which is read here, bounded, never a
/// FIFO or device. One that is neither is a problem of the set, which refuses every manifest.
public enum TrustedKeyFiles {
    /// The keys `values` name; nil for none (signing off).
    public static func read(_ values: [String]) -> TrustedKeys? {
        guard !values.isEmpty else { return nil }
        var trust = TrustedKeys(keys: [])
        for value in values {
            do { trust.keys.append(try key(value)) } catch {
                trust.problems.append("--trust-key \(TerminalText.quoted(value)): \(error.message)")
            }
        }
        return trust
    }

    private static func key(_ value: String) throws(MinisignFormatError) -> MinisignPublicKey {
        if MinisignPublicKey.looksLikeKeyText(value) { return try MinisignPublicKey.parse(text: value) }
        switch OwnFile.read(value, maxBytes: MinisignPublicKey.maxFileBytes, owner: .anyone) {
        case .missing: throw MinisignFormatError("neither a public key nor a file (no such file)")
        case .refused(let why): throw MinisignFormatError("cannot read it: \(why)")
        case .contents(let data): return try MinisignPublicKey.parse(file: Array(data))
        }
    }
}
