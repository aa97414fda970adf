import Foundation
import LaunchAdCore
import XCTest

/// Issue 40: minisign's public keys and signature files read as minisign 0.11 writes them, and
/// everything else refused with a reason (the red-team list: truncated base64, wrong algorithms,
/// control characters in the trusted comment, huge lines, stray bytes).
final class MinisignFormatTests: XCTestCase {
    /// Made by `minisign -G -W`, `minisign -S -t 'version 4<TAB>for lobby'` and `minisign -S -l`.
    static let keyText = "RWSD3qY3TtnFG+oVr4Swhsf5lXf73CuLghkXmMuDvDTRJVaSkxQP+gL9"
    static let keyFile = "untrusted comment: minisign public key 1BC5D94E37A6DE83\n\(keyText)\n"
    static let prehashed = """
        untrusted comment: signature from minisign secret key
        RUSD3qY3TtnFGxTfU1lnnuqzdK8+sFCvSPsQqSL1HudzDnMqbvqocQpNyYtz2kJjYK4/GTfaM7/MDY+NvkOXPIYrStop3xrs6ww=
        trusted comment: version 4\tfor lobby
        Xz1UCYbTm16kaWTgNIc6rxcoFicSpBU7t7pXR80yYSZV90aJMiKtV7idcyXPl/lkytXGK6o+VTs3YUPW4oC9Bw==

        """
    static let legacy = """
        untrusted comment: signature from minisign secret key
        RWSD3qY3TtnFGxUYh7nXQlmdES85N2iC93SK/kWbKHzdfM47GP2qPOXSrRCemrdWfb5xcE+FgKsD0BWWfdc0BWNQLme4RQ0KRQc=
        trusted comment: timestamp:1796300534\tfile:m.json
        OcNrHHUu7ibPLEnMZ82pRWkt2UVtgopmRcBJhZwt3Kc58Z1PI8ByNO7eDK/eGWoZ7cbmBKDeQInctVjj5GlRAg==

        """

    private func signature(_ text: String) throws -> MinisignSignature { try MinisignSignature.parse(Array(text.utf8)) }

    private func refused(_ text: String, _ words: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try signature(text), file: file, line: line) {
            XCTAssertTrue("\($0)".contains(words), "\($0)", file: file, line: line)
        }
    }

    /// One of the four lines replaced.
    private func with(_ text: String = prehashed, line n: Int, _ replacement: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines[n - 1] = replacement
        return lines.joined(separator: "\n")
    }

    func testAKeyAsMinisignPrintsItAndAsItsFile() throws {
        let key = try MinisignPublicKey.parse(text: Self.keyText)
        XCTAssertEqual(key.keyID.description, "1BC5D94E37A6DE83", "as minisign prints the id")
        XCTAssertEqual(key.key.count, 32)
        XCTAssertEqual(try MinisignPublicKey.parse(file: Array(Self.keyFile.utf8)), key)
        XCTAssertEqual(try MinisignPublicKey.parse(file: Array(Self.keyFile.replacingOccurrences(of: "\n", with: "\r\n").utf8)), key)
        XCTAssertEqual(try MinisignPublicKey.parse(file: Array(Self.keyFile.dropLast().utf8)), key, "no final line break")
        XCTAssertTrue(MinisignPublicKey.looksLikeKeyText(Self.keyText))
        XCTAssertFalse(MinisignPublicKey.looksLikeKeyText("/etc/launchad/minisign.pub"))
        XCTAssertFalse(MinisignPublicKey.looksLikeKeyText(String(Self.keyText.dropLast())), "anything else names a file")
    }

    func testKeysThatAreNotMinisignKeys() {
        var bytes = Array(Data(base64Encoded: Self.keyText)!)
        bytes[1] = UInt8(ascii: "D")
        let cases: [(String, String)] = [
            (String(Self.keyText.dropLast()), "not a minisign public key"),
            (String(Self.keyText.dropLast(4)) + "====", "not a minisign public key"),
            (Self.keyText.replacingOccurrences(of: "+", with: "-"), "not a minisign public key"),
            (" " + Self.keyText.dropLast(), "not a minisign public key"),
            // The algorithm of a signature, not of a key.
            (Data(bytes).base64EncodedString(), "unsupported key algorithm \"ED\""),
            (Data([0, 1] + bytes.dropFirst(2)).base64EncodedString(), "unsupported key algorithm 0x0001")
        ]
        for (text, words) in cases {
            XCTAssertThrowsError(try MinisignPublicKey.parse(text: text), text) { XCTAssertTrue("\($0)".contains(words), "\(text): \($0)") }
        }
        let files: [(String, String)] = [
            (Self.keyText + "\n", "has 1 lines, not 2"),
            ("comment\n" + Self.keyText + "\n", "starts with \"untrusted comment: \""),
            (Self.keyFile + "more\n", "has more than 2 lines"),
            (Self.keyFile.replacingOccurrences(of: "minisign public", with: "minisign\0public"), "NUL"),
            ("untrusted comment: " + String(repeating: "x", count: 2000) + "\n" + Self.keyText, "at most 1082 bytes")
        ]
        for (text, words) in files {
            XCTAssertThrowsError(try MinisignPublicKey.parse(file: Array(text.utf8))) { XCTAssertTrue("\($0)".contains(words), "\($0)") }
        }
    }

    func testSignaturesAsMinisignWritesThem() throws {
        let pre = try signature(Self.prehashed)
        XCTAssertEqual(pre.algorithm, .prehashed)
        XCTAssertEqual(pre.keyID.description, "1BC5D94E37A6DE83")
        XCTAssertEqual(pre.trustedComment, "version 4\tfor lobby", "a tab is printable")
        XCTAssertEqual(pre.globalMessage, pre.signature + Array("version 4\tfor lobby".utf8))
        let legacy = try signature(Self.legacy)
        XCTAssertEqual(legacy.algorithm, .legacy)
        XCTAssertEqual(legacy.signature.count, 64)
        XCTAssertEqual(legacy.globalSignature.count, 64)
        XCTAssertEqual(try signature(Self.prehashed.replacingOccurrences(of: "\n", with: "\r\n")), pre, "CR LF line ends")
        XCTAssertEqual(try signature(String(Self.prehashed.dropLast())), pre, "no final line break")
        XCTAssertEqual(try signature(with(line: 3, "trusted comment: écran 7")).trustedComment, "écran 7", "UTF-8")
    }

    /// The red-team list: every way the file can be wrong is refused, naming what.
    func testSignatureFilesThatAreNotMinisigns() {
        let line2 = Self.prehashed.split(separator: "\n")[1]
        var otherAlgorithm = Array(Data(base64Encoded: String(line2))!)
        otherAlgorithm[0...1] = [UInt8(ascii: "S"), UInt8(ascii: "c")]
        refused(with(line: 2, String(line2.dropLast(4))), "line 2 is not a signature")
        refused(with(line: 2, String(line2.dropLast()) + "A"), "line 2 is not a signature")  // non-zero bits after the end
        refused(with(line: 2, "=" + line2.dropFirst()), "line 2 is not a signature")
        refused(with(line: 2, Data(otherAlgorithm).base64EncodedString()), "unsupported signature algorithm \"Sc\"")
        refused(with(line: 4, "Xz1UCYbTm16kaWTgNIc6rxcoFicSpBU7t7pXR80yYSZV90aJMiKtV7idcyXPl/lkytXGK6o+VTs3YUPW4oC9Bw="), "line 4")
        refused(with(line: 4, ""), "line 4")
        refused(with(line: 1, "comment: x"), "line 1 must be \"untrusted comment: \"")
        refused(with(line: 3, "trusted: x"), "line 3 must be \"trusted comment: \"")
        for control in ["\u{1b}[2J", "\u{7f}", "\u{85}", "\u{0}", "a\rb", "\u{7}"] {
            refused(
                with(line: 3, "trusted comment: v4 " + control),
                control == "\u{0}" ? "NUL" : control == "a\rb" ? "carriage return" : "control")
        }
        XCTAssertThrowsError(try MinisignSignature.parse(Array(with(line: 3, "trusted comment: ").utf8) + [0xC3, 0x28] + Array("\nX".utf8)))
        refused(with(line: 3, "trusted comment: " + String(repeating: "v", count: 8200)), "line 3 must be")
        refused(with(line: 1, "untrusted comment: " + String(repeating: "v", count: 1100)), "line 1 must be")
        refused(String(repeating: "untrusted comment: x\n", count: 600), "at most \(MinisignSignature.maxFileBytes) bytes")
        refused(Self.prehashed + "fifth\n", "more than 4 lines")
        refused(Self.prehashed + "\n", "more than 4 lines")
        refused(String(Self.prehashed.split(separator: "\n").prefix(3).joined(separator: "\n")), "has 3 lines, not 4")
        refused("", "has 1 lines, not 4")
        refused(String(decoding: (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 1) }, as: UTF8.self), "signature file")
    }

    func testBase64IsReadCanonicallyOnly() {
        XCTAssertEqual(Base64Text.decode(Substring("AAEC").utf8, count: 3), [0, 1, 2])
        XCTAssertEqual(Base64Text.decode(Substring("AAE=").utf8, count: 2), [0, 1])
        XCTAssertEqual(Base64Text.decode(Substring("AA==").utf8, count: 1), [0])
        XCTAssertNil(Base64Text.decode(Substring("AB==").utf8, count: 1), "unused bits set: a second spelling of the same byte")
        XCTAssertNil(Base64Text.decode(Substring("AA=A").utf8, count: 2))
        XCTAssertNil(Base64Text.decode(Substring("AA E").utf8, count: 2))
        XCTAssertNil(Base64Text.decode(Substring("AAE").utf8, count: 2), "padding is required")
        XCTAssertNil(Base64Text.decode(Substring("AAEC").utf8, count: 2))
        XCTAssertNil(Base64Text.decode(Substring(String(repeating: "A", count: 1 << 20)).utf8, count: 64), "a huge line is not read")
    }

    func testTheSignatureIsBesideTheManifest() {
        XCTAssertEqual(
            MinisignSignature.location(of: URL(string: "https://ads.example.com/m.json?screen=7#x")!).absoluteString,
            "https://ads.example.com/m.json.minisig?screen=7")
        XCTAssertEqual(MinisignSignature.location(of: URL(fileURLWithPath: "/srv/m.json")).path, "/srv/m.json.minisig")
        XCTAssertEqual(
            MinisignSignature.location(of: URL(string: "https://ads.example.com")!).absoluteString, "https://ads.example.com/.minisig",
            "never the manifest's own URL")
        XCTAssertEqual(
            MinisignSignature.location(of: URL(string: "https://ads.example.com/a%20b.json")!).absoluteString,
            "https://ads.example.com/a%20b.json.minisig")
    }
}
