// libFuzzer target: LaunchAdCore's manifest parser (and the RFC 3339 dates it reads) on any
// bytes, against a remote and a file base URL. Built by scripts/fuzz.sh into the same module
// as LaunchAdCore's sources, so internal helpers are reachable.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func manifestFuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    for base in [URL(string: "https://ads.example.com/v1/manifest.json")!, URL(fileURLWithPath: "/srv/ads/manifest.json")] {
        if let parsed = try? ManifestParser.parse(bytes, base: base) {
            // What the cache and the scheduler do next with a parsed manifest must hold too.
            for ad in parsed.manifest.ads {
                precondition(!ad.id.isEmpty && !ad.variants.isEmpty, "a parsed ad has an id and variants")
                for c in ad.creatives {
                    precondition(["http", "https", "file"].contains(c.url.scheme?.lowercased() ?? ""), "scheme \(c.url)")
                    // A caption file has no picture size.
                    precondition(c.sha256.count == 64 && c.bytes > 0 && (c == ad.captions || (c.width > 0 && c.height > 0)))
                    if !base.isFileURL { precondition(!c.url.isFileURL, "a remote manifest named a local file") }
                }
                if let link = ad.link { precondition(Link.isAllowed(link)) }
            }
        }
    }
    if let text = String(bytes: bytes, encoding: .utf8) { _ = ManifestDate.rfc3339(text) }
    return 0
}
