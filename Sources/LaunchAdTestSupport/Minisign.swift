import Foundation
import XCTest

/// The real `minisign` (Debian's package) making a key pair and signatures in a test's folder,
/// as an operator would: `minisign -G -W` (no password), `minisign -S -m FILE`.
public struct Minisign {
    public let publicKeyFile: String
    public let secretKeyFile: String
    /// The public key's text, as minisign prints it (the second line of the .pub file).
    public let keyText: String
    /// The key id in 16 hex digits, as minisign prints it when a signature's id does not match.
    public let keyID: String

    /// The tool; a skip when it is not installed.
    public static func tool() throws -> String {
        let path = "/usr/bin/minisign"
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw XCTSkip("minisign is not installed (bash scripts/setup.sh --test installs it)")
        }
        return path
    }

    /// A new key pair, `NAME.pub` and `NAME.key` in `folder`.
    public init(in folder: URL, name: String) throws {
        publicKeyFile = folder.appendingPathComponent("\(name).pub").path
        secretKeyFile = folder.appendingPathComponent("\(name).key").path
        let made = try Fixtures.run(try Self.tool(), ["-G", "-W", "-p", publicKeyFile, "-s", secretKeyFile])
        guard made.status == 0 else { throw FixtureError("minisign -G: \(made.stderr)") }
        let lines = try String(contentsOfFile: publicKeyFile, encoding: .utf8).split(separator: "\n").map(String.init)
        keyText = lines[1]
        // minisign -G writes the id without leading zeros; its verify messages (and launchad) use 16 digits.
        let written = String(lines[0].split(separator: " ").last ?? "")
        keyID = String(repeating: "0", count: max(0, 16 - written.count)) + written
    }

    /// Signs `file` into `signature` (default FILE.minisig): prehashed, or legacy with `legacy`.
    @discardableResult
    public func sign(_ file: String, legacy: Bool = false, trustedComment: String? = nil, signature: String? = nil) throws -> String {
        let out = signature ?? file + ".minisig"
        var args = ["-S", "-s", secretKeyFile, "-m", file, "-x", out]
        if legacy { args.append("-l") }
        if let trustedComment { args += ["-t", trustedComment] }
        let made = try Fixtures.run(try Self.tool(), args)
        guard made.status == 0 else { throw FixtureError("minisign -S: \(made.stderr)") }
        return out
    }

    /// The manifest `ads` with `version` and `expires` (RFC 3339), as an operator publishes it.
    public static func manifest(version: Int?, expires: String?, ads: String) -> Data {
        var top: [String] = []
        if let version { top.append(#""version": \#(version)"#) }
        if let expires { top.append(#""expires": "\#(expires)""#) }
        top.append(#""ads": [\#(ads)]"#)
        return Data(("{" + top.joined(separator: ", ") + "}").utf8)
    }
}
