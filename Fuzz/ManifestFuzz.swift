// libFuzzer target: LaunchAdCore's manifest parser (and the RFC 3339 dates it reads) on any
// bytes, against a remote and a file base URL. Built by scripts/fuzz.sh into the same module
// as LaunchAdCore's sources, so internal helpers are reachable.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func manifestFuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    for base in [URL(string: "https://ads.example.com/v1/manifest.json")!, URL(fileURLWithPath: "/srv/ads/manifest.json")] {
        if let parsed = try? ManifestParser.parse(bytes, base: base, budget: ManifestParser.budget(maxBytes: 1_000_000, seconds: 5)) {
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
                if let zone = ad.schedule?.timezone { precondition(TimeZone(identifier: zone) != nil, "a parsed zone is known") }
            }
            // The scheduler judges whatever parsed, at any hour, with caps reached or not.
            for t in [1_800_000_000.0, 1_800_043_200, 1_806_800_400] {
                let now = Date(timeIntervalSince1970: t)
                let plays = Dictionary(parsed.manifest.ads.map { ($0.id, [now.addingTimeInterval(-30)]) }, uniquingKeysWith: { a, _ in a })
                let ranked = AdSelector.rank(
                    parsed.manifest.ads, now: now, screen: Size(width: 1920, height: 1080), plays: plays,
                    systemZone: TimeZone(identifier: "UTC")!
                ) { _ in true }
                precondition(ranked.verdicts.count == parsed.manifest.ads.count)
                precondition(ranked.verdicts.filter { $0.reason == nil }.count == (ranked.winner == nil ? 0 : 1))
            }
            if !base.isFileURL { precondition(parsed.manifest.metrics == nil, "a remote manifest chose where to write") }
        }
    }
    if let text = String(bytes: bytes, encoding: .utf8) { _ = ManifestDate.rfc3339(text) }
    return 0
}
