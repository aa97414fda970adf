import LaunchAdCore

extension VASTOptions {
    /// Takes one of play's VAST options; false when `opt` is not one.
    mutating func apply(_ opt: String, _ r: inout ArgumentReader) throws -> Bool {
        switch opt {
        case "--vast":
            let raw = try r.value(for: opt)
            guard !raw.isEmpty else { throw UsageError("--vast takes a URL or a FILE") }
            if raw.contains("://") && !(raw.lowercased().hasPrefix("https://") || raw.lowercased().hasPrefix("http://")) {
                throw UsageError("--vast takes an http(s) URL or a FILE, not '\(raw)'")
            }
            tag = raw
        case "--vast-timeout": timeout = try r.double(for: opt, min: 0.1, max: 600)
        case "--max-wrappers": maxWrappers = try r.int(for: opt, min: 0, max: 20)
        case "--max-bitrate": maxBitrateKbps = try r.int(for: opt, min: 1, max: 1_000_000)
        case "--allow-http": try r.flag(opt); allowHTTP = true
        default: return false
        }
        return true
    }
}
