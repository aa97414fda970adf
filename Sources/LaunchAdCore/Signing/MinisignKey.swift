/// A minisign text that cannot be read: a public key, a key file or a signature file. One line,
/// naming what is wrong; never quoting the text itself (it may hold anything).
public struct MinisignFormatError: Error, Equatable, CustomStringConvertible {
    /// What is wrong, one line.
    public let message: String
    /// An error saying `message`.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}

/// The 8 random bytes minisign gives a key pair and writes into each signature, so a verifier
/// knows which key to try. Shown as minisign's verify shows it: the bytes as a little-endian
/// number in 16 upper-case hex digits (`1BC5D94E37A6DE83`; the comment `minisign -G` writes in
/// the .pub file drops leading zeros).
public struct MinisignKeyID: Hashable, Sendable, CustomStringConvertible {
    /// How many bytes an id has.
    public static let byteCount = 8
    /// The id's bytes, as they are in the key and the signature.
    public let bytes: [UInt8]

    init(_ bytes: ArraySlice<UInt8>) { self.bytes = Array(bytes) }

    /// The id as minisign prints it.
    public var description: String {
        String(bytes.reversed().map { byte in String(byte, radix: 16, uppercase: true) }.map { $0.count == 1 ? "0" + $0 : $0 }.joined())
    }
}

/// An Ed25519 public key as `minisign -G` writes it: base64 of the algorithm `Ed`, the key id
/// and the 32-byte key, alone (as minisign prints it for `-P`) or as the second line of a
/// `.pub` file under an untrusted comment.
public struct MinisignPublicKey: Equatable, Sendable {
    /// An Ed25519 public key's length.
    public static let keyBytes = 32
    /// The key line's length: base64 of 2 + 8 + 32 bytes.
    public static let textLength = 56
    /// The most a `.pub` file may hold: a comment line of minisign's 1024 bytes and the key line.
    public static let maxFileBytes = 1024 + textLength + 2

    /// The key pair's id, which its signatures carry.
    public let keyID: MinisignKeyID
    /// The Ed25519 public key.
    public let key: [UInt8]

    /// Whether `value` (a `--trust-key` argument) is key text rather than a file's name: exactly
    /// the key line's length, all of it base64 (a file's name has a dot, a key has none).
    public static func looksLikeKeyText(_ value: String) -> Bool {
        value.utf8.count == textLength && value.utf8.allSatisfy { Base64Text.isAlphabet($0) || $0 == UInt8(ascii: "=") }
    }

    /// The key line alone.
    public static func parse(text: String) throws(MinisignFormatError) -> MinisignPublicKey {
        try parse(line: Substring(text).utf8)
    }

    /// A `.pub` file: `untrusted comment: ...`, the key line, and at most a final line break.
    public static func parse(file: [UInt8]) throws(MinisignFormatError) -> MinisignPublicKey {
        guard file.count <= maxFileBytes else { throw MinisignFormatError("a public key file is at most \(maxFileBytes) bytes") }
        let lines = try MinisignLines.split(file, count: 2, what: "public key file")
        guard lines[0].starts(with: MinisignLines.untrustedPrefix) else {
            throw MinisignFormatError("a public key file starts with \"untrusted comment: \"")
        }
        return try parse(line: Substring(decoding: lines[1], as: UTF8.self).utf8)
    }

    static func parse(line: Substring.UTF8View) throws(MinisignFormatError) -> MinisignPublicKey {
        guard let bytes = Base64Text.decode(line, count: 2 + MinisignKeyID.byteCount + keyBytes) else {
            throw MinisignFormatError("not a minisign public key (base64 of \(2 + MinisignKeyID.byteCount + keyBytes) bytes)")
        }
        guard bytes[0] == UInt8(ascii: "E"), bytes[1] == UInt8(ascii: "d") else {
            throw MinisignFormatError("unsupported key algorithm \(MinisignLines.algorithmName(bytes[0], bytes[1])) (minisign keys are Ed)")
        }
        return MinisignPublicKey(keyID: MinisignKeyID(bytes[2..<10]), key: Array(bytes[10...]))
    }
}
