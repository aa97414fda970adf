import CCurl

/// The libcurl this process runs against, with its TLS library: a bug report needs both.
public enum CurlVersion {
    public static var runtime: String {
        guard let info = launchad_curl_version_info() else { return "unknown" }
        var text = String(cString: info.pointee.version)
        if let ssl = info.pointee.ssl_version { text += " (\(String(cString: ssl)))" }
        return text
    }
}
