import Foundation

/// The server a URL reaches, as `outbox status` counts by it: the host, and the port when it is
/// not the scheme's own (`collector.example.com:8443`, `[::1]:8080`). Two collectors on one host
/// behind different ports are two servers; `https://x:443` and `https://x` are one.
public enum ServerName {
    /// `host[:port]` for `url`, "?" when it has no host.
    public static func of(_ url: String) -> String {
        guard let parts = URLComponents(string: url), let rawHost = parts.host, !rawHost.isEmpty else { return "?" }
        let host = rawHost.lowercased()
        let shown = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        let defaults = ["http": 80, "https": 443]
        guard let port = parts.port, port != defaults[parts.scheme?.lowercased() ?? ""] else { return shown }
        return "\(shown):\(port)"
    }
}
