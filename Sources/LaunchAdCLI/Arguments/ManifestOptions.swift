import LaunchAdCore
import LaunchAdEngine

/// `launchad manifest verify FILE --trust-key KEY|FILE`: a manifest checked as a screen with
/// those keys would take it, before it is published (an operator's CI).
public struct ManifestOptions: Equatable, Sendable {
    public enum Action: String, CaseIterable, Sendable { case verify }

    public var action: Action = .verify
    public var file = ""
    /// `--signature FILE`; nil: FILE.minisig.
    public var signature: String?
    /// `--trust-key`, each as given.
    public var trustKeys: [String] = []

    public init() {}

    public static let help = """
        usage: launchad manifest verify FILE --trust-key KEY|FILE [--signature SIG]
        Checks a manifest file as a screen started with the same --trust-key would take it, before
        it is published: its minisign signature (FILE.minisig) by one of the keys, then "version"
        (a whole number, required) and "expires" (not past), then that it is a manifest at all.
        Prints one line: on stdout, ok with the version, expiry and signing key's id; on stderr, why
        a screen would refuse it (unsigned, bad_signature, unknown_key, expired, malformed).
          --trust-key KEY|FILE   a minisign public key: its text as minisign prints it, or its .pub file;
                                 repeat to accept any of several (a key rotation)
          --signature SIG        the signature file, when it is not FILE.minisig
        Exit codes: 0 a screen would take it, 1 it would refuse it, 2 usage, 127 libsodium missing.
        """

    public static func parse(_ args: [String]) throws -> ManifestOptions? {
        var r = ArgumentReader(args)
        var o = ManifestOptions()
        while let opt = r.nextOption() {
            switch opt {
            case "--help": return nil
            case "--trust-key":
                let key = try r.value(for: opt)
                guard !key.isEmpty else { throw UsageError("--trust-key needs a public key or a .pub file") }
                o.trustKeys.append(key)
            case "--signature":
                let file = try r.value(for: opt)
                guard !file.isEmpty else { throw UsageError("--signature needs a file") }
                o.signature = file
            default: throw UsageError("unknown option \(opt) (see launchad manifest --help)")
            }
        }
        guard r.positionals.count == 2, let action = Action(rawValue: r.positionals[0]), !r.positionals[1].isEmpty else {
            let given = r.positionals.joined(separator: " ")
            throw UsageError("manifest takes verify FILE\(given.isEmpty ? "" : ", not '\(TerminalText.quoted(given))'")")
        }
        o.action = action
        o.file = r.positionals[1]
        guard !o.trustKeys.isEmpty else { throw UsageError("manifest verify needs --trust-key KEY|FILE") }
        return o
    }
}
