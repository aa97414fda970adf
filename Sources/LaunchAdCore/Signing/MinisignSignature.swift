import Foundation

/// A `.minisig` file, as minisign writes it (0.11, Debian 12's, and later), read without trusting
/// a byte of it:
///
///     untrusted comment: <anything, at most 1024 bytes with its line break>
///     <base64 of the algorithm (ED: the file's BLAKE2b-512 was signed; Ed: the file itself), key id, signature>
///     trusted comment: <printable text, at most 8192 bytes with its prefix>
///     <base64 of the global signature: of the signature followed by the trusted comment>
///
/// and at most a final line break. A line may end in CR LF; any other CR, a NUL, a line too
/// long, a fifth line or a byte of base64 out of place makes the file malformed.
public struct MinisignSignature: Equatable, Sendable {
    /// What was signed: the file's hash or the file.
    public enum Algorithm: String, Sendable {
        /// `ED`: the signature is of the file's BLAKE2b-512 (minisign's default since 0.8).
        case prehashed = "ED"
        /// `Ed`: the signature is of the file itself (`minisign -l`).
        case legacy = "Ed"
    }

    /// An Ed25519 signature's length.
    public static let signatureBytes = 64
    /// The untrusted comment's line, its line break included, is shorter than this (minisign's
    /// COMMENTMAXBYTES).
    public static let maxUntrustedLine = 1024
    /// The trusted comment's line, its prefix and line break included, is shorter than this
    /// (minisign's TRUSTEDCOMMENTMAXBYTES).
    public static let maxTrustedLine = 8192
    /// The largest file minisign can write: the four lines at their longest. A fetch of one stops there.
    public static let maxFileBytes = maxUntrustedLine + 102 + maxTrustedLine + 90

    /// Prehashed (`ED`) or legacy (`Ed`).
    public let algorithm: Algorithm
    /// The id of the key that made it.
    public let keyID: MinisignKeyID
    /// The Ed25519 signature of the file (legacy) or of its BLAKE2b-512 (prehashed).
    public let signature: [UInt8]
    /// The trusted comment, after its prefix: UTF-8 without control characters (tabs allowed).
    public let trustedComment: String
    /// The Ed25519 signature of `globalMessage`.
    public let globalSignature: [UInt8]

    /// What the global signature covers: the signature, then the trusted comment's bytes.
    public var globalMessage: [UInt8] { signature + Array(trustedComment.utf8) }

    /// Where the signature of `manifest` is: beside it, its path with `.minisig` added (a URL's
    /// query is kept after it, its fragment dropped), as `minisign -S -m FILE` names it.
    public static func location(of manifest: URL) -> URL {
        if manifest.isFileURL { return URL(fileURLWithPath: manifest.path + ".minisig") }
        guard var parts = URLComponents(url: manifest, resolvingAgainstBaseURL: true) else { return manifest }
        parts.percentEncodedPath = (parts.percentEncodedPath.isEmpty ? "/" : parts.percentEncodedPath) + ".minisig"
        parts.fragment = nil
        return parts.url ?? manifest
    }

    /// The signature `file` holds, or why it is not one.
    public static func parse(_ file: [UInt8]) throws(MinisignFormatError) -> MinisignSignature {
        guard file.count <= maxFileBytes else { throw MinisignFormatError("a signature file is at most \(maxFileBytes) bytes") }
        let lines = try MinisignLines.split(file, count: 4, what: "signature file")
        guard lines[0].count < maxUntrustedLine, lines[0].starts(with: MinisignLines.untrustedPrefix) else {
            throw MinisignFormatError("line 1 must be \"untrusted comment: \" and at most \(maxUntrustedLine - 1) bytes")
        }
        let expected = 2 + MinisignKeyID.byteCount + signatureBytes
        guard let sig = Base64Text.decode(Substring(decoding: lines[1], as: UTF8.self).utf8, count: expected) else {
            throw MinisignFormatError("line 2 is not a signature (base64 of \(expected) bytes)")
        }
        guard let algorithm = Algorithm(rawValue: String(decoding: sig[0..<2], as: UTF8.self)) else {
            throw MinisignFormatError("unsupported signature algorithm \(MinisignLines.algorithmName(sig[0], sig[1])) (ED or Ed)")
        }
        let comment = try trustedComment(lines[2])
        guard let global = Base64Text.decode(Substring(decoding: lines[3], as: UTF8.self).utf8, count: signatureBytes) else {
            throw MinisignFormatError("line 4 is not a global signature (base64 of \(signatureBytes) bytes)")
        }
        return MinisignSignature(
            algorithm: algorithm, keyID: MinisignKeyID(sig[2..<10]), signature: Array(sig[10...]), trustedComment: comment,
            globalSignature: global)
    }

    /// Line 3's text after its prefix, held to minisign 0.12's rule (0.11 has none): printable
    /// UTF-8, tabs allowed; no C0 or C1 control character, no DEL.
    private static func trustedComment(_ line: ArraySlice<UInt8>) throws(MinisignFormatError) -> String {
        guard line.count < maxTrustedLine, line.starts(with: MinisignLines.trustedPrefix) else {
            throw MinisignFormatError("line 3 must be \"trusted comment: \" and at most \(maxTrustedLine - 1) bytes")
        }
        let text = line.dropFirst(MinisignLines.trustedPrefix.count)
        guard let comment = String(validating: text, as: UTF8.self),
            comment.unicodeScalars.allSatisfy({ $0 == "\t" || !($0.value < 0x20 || (0x7F...0x9F).contains($0.value)) })
        else {
            throw MinisignFormatError("the trusted comment holds a control character or is not UTF-8")
        }
        return comment
    }
}

/// The line rules both minisign files share.
enum MinisignLines {
    static let untrustedPrefix = Array("untrusted comment: ".utf8)
    static let trustedPrefix = Array("trusted comment: ".utf8)

    /// Exactly `count` lines and at most one final line break; a CR only just before a LF (or at
    /// the very end); no NUL.
    static func split(_ file: [UInt8], count: Int, what: String) throws(MinisignFormatError) -> [ArraySlice<UInt8>] {
        guard !file.contains(0) else { throw MinisignFormatError("the \(what) holds a NUL byte") }
        let body = file.last == UInt8(ascii: "\n") ? file.dropLast() : file[...]
        let lines = body.split(separator: UInt8(ascii: "\n"), maxSplits: count, omittingEmptySubsequences: false)
        guard lines.count == count else {
            throw MinisignFormatError(
                "the \(what) has \(lines.count > count ? "more than \(count)" : "\(lines.count)") lines, not \(count)")
        }
        return try lines.map { line throws(MinisignFormatError) in
            let body = line.last == UInt8(ascii: "\r") ? line.dropLast() : line
            guard !body.contains(UInt8(ascii: "\r")) else { throw MinisignFormatError("the \(what) has a carriage return inside a line") }
            return body
        }
    }

    /// An algorithm's two bytes as text when they are printable ASCII, else in hex.
    static func algorithmName(_ a: UInt8, _ b: UInt8) -> String {
        let printable = { (c: UInt8) in c > 0x20 && c < 0x7F }
        return printable(a) && printable(b)
            ? "\"\(String(decoding: [a, b], as: UTF8.self))\"" : "0x" + [a, b].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
