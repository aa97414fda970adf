import Foundation

/// A ClickHouse user and key, sent as `X-ClickHouse-User` and `X-ClickHouse-Key` (18.16 takes
/// them as current releases do). They come from a file or the environment, never the command
/// line (where `ps` shows them), and they can be tied to one server (`url`): a manifest comes
/// from a server, and must not be able to send a screen's key anywhere else.
public struct ClickHouseCredentials: Equatable, Sendable {
    /// The ClickHouse user.
    public var user: String
    /// The user's password (ClickHouse calls it the key).
    public var key: String
    /// The origin (`https://host:port`) the credentials are for; nil: any collector named on the
    /// command line, but none named by a manifest.
    public var origin: String?

    /// Credentials for `user` with `key`, tied to `url`'s origin when given.
    public init(user: String, key: String, url: String? = nil) throws {
        guard !user.isEmpty, user.count <= 256, Self.isHeaderSafe(user) else {
            throw CredentialsError("the user must be 1 to 256 characters without control characters")
        }
        guard key.count <= 1024, Self.isHeaderSafe(key) else {
            throw CredentialsError("the key must be at most 1024 characters without control characters")
        }
        self.user = user
        self.key = key
        if let url {
            guard let origin = Self.origin(of: url) else { throw CredentialsError("url must be an http or https URL") }
            self.origin = origin
        }
    }

    /// Who these credentials are, as a queued record remembers it (`binding`): the user and
    /// the origin they are tied to, never the key.
    public func binding(namedBy: CredentialBinding.NamedBy) -> CredentialBinding {
        CredentialBinding(namedBy: namedBy, user: user, origin: origin)
    }

    /// The headers a request to `url` carries, or why these credentials may not go there: the
    /// only way they leave this type, so the binding is checked by every sender (the outbox's
    /// ClickHouse batches of `play`, `launch` and `outbox flush`, `fleet report`). Credentials
    /// tied to a server (`url =`, `LAUNCHAD_CLICKHOUSE_URL`) go to that origin alone — its
    /// scheme, host and port, so a key for `https://ch.example.com:8443` never goes in clear, nor
    /// anywhere else. `binding` says whose credentials the request may carry: a collector a
    /// manifest named gets only credentials tied to its own origin (unbound ones are for the
    /// command line's collectors), and a record queued with one identity (user and tied origin)
    /// is never sent with another's.
    public func headers(for url: String, binding: CredentialBinding) -> Result<[String: String], CredentialsError> {
        if let user = binding.user, user != self.user || binding.origin != origin {
            return .failure(
                CredentialsError(
                    "queued for the ClickHouse credentials of \(binding.identity), not those of \(self.binding(namedBy: binding.namedBy).identity)"
                ))
        }
        let to = Self.origin(of: url)
        if binding.namedBy == .manifest && origin == nil {
            return .failure(
                CredentialsError(
                    "the ClickHouse credentials name no url, and are not sent to a collector named by a manifest (add url = ... for it)"))
        }
        guard origin == nil || origin == to else {
            return .failure(CredentialsError("the ClickHouse credentials are for \(origin ?? "?"), not \(to ?? TerminalText.quoted(url))"))
        }
        return .success(["X-ClickHouse-User": user, "X-ClickHouse-Key": key])
    }

    /// The headers of a request to a server the command line named (`fleet report --clickhouse`),
    /// through the same check.
    public func headers(forCommandLine url: String) -> Result<[String: String], CredentialsError> {
        headers(for: url, binding: binding(namedBy: .commandLine))
    }

    /// A file of `name = value` lines: `user`, `key` (or `password`), optionally `url`; `#`
    /// starts a comment line. Anything else is refused, so a typo is not silently ignored.
    public static func parse(file text: String) throws -> ClickHouseCredentials {
        var values: [String: String] = [:]
        for (n, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let eq = line.firstIndex(of: "=") else { throw CredentialsError("line \(n + 1) is not name = value") }
            var name = line[..<eq].trimmingCharacters(in: .whitespaces).lowercased()
            if name == "password" { name = "key" }
            guard ["user", "key", "url"].contains(name) else {
                throw CredentialsError("line \(n + 1): unknown name (user, key or password, url)")
            }
            guard values[name] == nil else { throw CredentialsError("line \(n + 1): \(name) given twice") }
            values[name] = line[line.index(after: eq)...].trimmingCharacters(in: .whitespaces)
        }
        guard let user = values["user"] else { throw CredentialsError("no user = line") }
        return try ClickHouseCredentials(user: user, key: values["key"] ?? "", url: values["url"])
    }

    /// `LAUNCHAD_CLICKHOUSE_USER`, `LAUNCHAD_CLICKHOUSE_KEY` and optionally `LAUNCHAD_CLICKHOUSE_URL`;
    /// nil when no user is set.
    public static func parse(environment env: [String: String]) throws -> ClickHouseCredentials? {
        guard let user = env["LAUNCHAD_CLICKHOUSE_USER"] else {
            if env["LAUNCHAD_CLICKHOUSE_KEY"] != nil {
                throw CredentialsError("LAUNCHAD_CLICKHOUSE_KEY is set without LAUNCHAD_CLICKHOUSE_USER")
            }
            return nil
        }
        return try ClickHouseCredentials(user: user, key: env["LAUNCHAD_CLICKHOUSE_KEY"] ?? "", url: env["LAUNCHAD_CLICKHOUSE_URL"])
    }

    /// `scheme://host:port` in lower case, the port spelled out; nil for anything but http(s).
    public static func origin(of url: String) -> String? {
        guard let u = URL(string: url), let scheme = u.scheme?.lowercased(), ["http", "https"].contains(scheme),
            let host = u.host?.lowercased(), !host.isEmpty
        else { return nil }
        return "\(scheme)://\(host):\(u.port ?? (scheme == "https" ? 443 : 80))"
    }

    /// No control characters (a line break would start a header of its own).
    private static func isHeaderSafe(_ s: String) -> Bool {
        !s.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }
}

/// Why credentials could not be used, in one line.
public struct CredentialsError: Error, Equatable, CustomStringConvertible {
    /// The reason.
    public let description: String
    /// A reason in one line.
    public init(_ description: String) { self.description = description }
}

/// The ClickHouse credentials a process has: none configured, usable ones, or ones configured
/// but unusable (a file others may read): play records that need them wait in the outbox for a
/// process that has them, rather than going out without them.
public enum ClickHouseAuth: Equatable, Sendable {
    case none
    case credentials(ClickHouseCredentials)
    case unusable(String)

    /// What a record for `collector` carries: `.plain` (no credentials), `.withCredentials` with
    /// whose they may be, or `.refused` with the reason (credentials exist, but the collector was
    /// named by a manifest and is not the server they name). With credentials that cannot be read
    /// now, the record waits for a process whose credentials the send-time check allows.
    public func use(for collector: String, namedOnCommandLine: Bool) -> CredentialUse {
        let namedBy: CredentialBinding.NamedBy = namedOnCommandLine ? .commandLine : .manifest
        switch self {
        case .none: return .plain
        case .unusable: return .withCredentials(CredentialBinding(namedBy: namedBy, user: nil, origin: nil))
        case .credentials(let c):
            let binding = c.binding(namedBy: namedBy)
            // The command line's collector: queued, and held at send time if they are for another server.
            if namedOnCommandLine { return .withCredentials(binding) }
            switch c.headers(for: collector, binding: binding) {
            case .success: return .withCredentials(binding)
            case .failure(let why):
                return .refused(
                    c.origin.map { "the manifest's collector is not \($0), the server the ClickHouse credentials are for" }
                        ?? why.description)
            }
        }
    }

    /// The credentials for a request to `url` that may carry `binding`'s, or why the request
    /// must wait.
    public func headers(for url: String, binding: CredentialBinding) -> Result<[String: String], CredentialsError> {
        switch self {
        case .none:
            return .failure(
                CredentialsError("needs ClickHouse credentials; this process has none (--clickhouse-credentials, LAUNCHAD_CLICKHOUSE_*)"))
        case .unusable(let why): return .failure(CredentialsError("needs ClickHouse credentials; \(why)"))
        case .credentials(let c): return c.headers(for: url, binding: binding)
        }
    }
}

/// Whose credentials a ClickHouse record may go with, kept with the record from when it is
/// queued to when it is sent (perhaps by another process, `outbox flush`): who named its
/// collector, and the identity of the credentials it was queued with — the user and the origin
/// they are tied to, never the key. `ClickHouseCredentials.headers(for:binding:)` is the check.
public struct CredentialBinding: Hashable, Sendable {
    /// Who named the collector.
    public enum NamedBy: String, Hashable, Sendable {
        /// `--report` (the screen's own settings): credentials with or without `url =`.
        case commandLine = "command_line"
        /// A manifest's `report` (it came from a server): only credentials tied to its origin.
        case manifest
    }
    /// Who named the collector.
    public var namedBy: NamedBy
    /// The user the record was queued for; nil when not known (the credentials could not be
    /// read as it was queued, or an older launchad queued it): any user whose credentials the
    /// rule of `namedBy` allows.
    public var user: String?
    /// The origin the credentials were tied to (`url =`), nil when they were not; only read with `user`.
    public var origin: String?

    /// A binding for a collector named by `namedBy`, queued with `user`'s credentials tied to `origin`.
    public init(namedBy: NamedBy, user: String?, origin: String?) { self.namedBy = namedBy; self.user = user; self.origin = origin }

    /// An item an older launchad queued with `"credentials": true`: held to a manifest's rule
    /// (credentials tied to its server), the strictest, since who named its collector is not known.
    public static let unknown = CredentialBinding(namedBy: .manifest, user: nil, origin: nil)

    /// `user` (tied to `origin`, or to no server), for a refusal's line.
    var identity: String { "user \(user ?? "?") " + (origin.map { "(for \($0))" } ?? "(for no url)") }
}

/// Whether a play record goes with credentials.
public enum CredentialUse: Equatable, Sendable {
    case plain
    /// With the sending process's credentials, when `binding` allows them.
    case withCredentials(CredentialBinding)
    case refused(String)
}
