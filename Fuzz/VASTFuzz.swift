// libFuzzer target: LaunchAdCore's VAST reading on any bytes: the parser (XMLParser with
// DOCTYPE and entities refused), the wrapper chain's checks, the media-file choice, the
// tracker and macro expansion. Built by scripts/fuzz.sh into LaunchAdCore's module.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func vastFuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    _ = VASTParser.looksLikeVAST(bytes)
    guard let doc = try? VASTParser.parse(bytes, budget: VASTLimits.budget(seconds: 5)) else { return 0 }
    // No version is read as the current one (noted); any other unsupported one is refused.
    precondition(doc.version.isEmpty || VASTParser.supportedVersions.contains(doc.version), "an unsupported version was accepted")
    let caps = MediaCapabilities(demuxers: ["mov", "matroska", "hls"], decoders: ["h264", "aac", "vp9"])
    for ad in VASTAdPlan(doc).pod + VASTAdPlan(doc).buffet {
        var chain = VASTChain(maxWrappers: 5, tagURL: "https://ads.example.com/tag")
        // A wrapper's or an InLine's URIs pass the chain's check only when none names a scheme
        // other than http(s) (relative ones are resolved, or are media files never played).
        guard let next = try? chain.step(ad) as String?? else { continue }
        for uri in VASTURIs.all(in: ad) { precondition(Link.isAllowed(uri) || !VASTURIs.hasScheme(uri), "an unsafe URI passed: \(uri)") }
        if let next { precondition(Link.isAllowed(next), "an unsafe wrapper URI is fetched: \(next)") }
        guard next == nil, let resolved = try? chain.merged(inline: ad) else { continue }
        _ = MediaFileChooser.choose(resolved.linear.mediaFiles, window: Size(width: 1280, height: 720), capabilities: caps)
        var tracker = VASTTracker(
            ad: resolved, context: MacroContext(timestamp: Date(timeIntervalSince1970: 0), cacheBusting: "12345678", deviceUA: "fuzz"))
        for e in [
            AdEvent("first_frame", tMs: 0, [("fallback", .bool(false))]), AdEvent("quartile", tMs: 1, [("quartile", .int(50))]),
            AdEvent("complete", tMs: 2, [("shown_ms", .int(1))])
        ] {
            for batch in tracker.batches(for: e, at: Date(timeIntervalSince1970: 0), cacheBuster: { "12345678" }) {
                for url in batch.urls {
                    precondition(!url.contains("[CACHEBUSTING]") && !url.contains("[TIMESTAMP]"), "a required macro left: \(url)")
                }
            }
        }
    }
    return 0
}
