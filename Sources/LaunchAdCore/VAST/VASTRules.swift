/// What `validate --vast` learned about a tag: the first document, the chain resolved from its
/// first ad, and the lengths of the media files it could download.
public struct VASTTagFacts: Sendable {
    public var source: String
    public var document: VASTDocument?
    /// Why the first document could not be had or read (fetch, XML, version).
    public var loadError: VASTError?
    public var resolved: ResolvedAd?
    /// Why the first ad did not resolve to an InLine (wrapper limit, loop, no ad, unsafe URI, ...).
    public var chainError: VASTError?
    /// When it did not: the documents the wrappers led to before it stopped.
    public var followed: [VASTChain.Followed] = []
    public var maxWrappers: Int
    public var capabilities: MediaCapabilities
    public var window: Size
    /// Seconds of each downloaded media file, by URL.
    public var mediaDurations: [String: Double] = [:]

    public init(source: String, maxWrappers: Int, capabilities: MediaCapabilities, window: Size) {
        self.source = source; self.maxWrappers = maxWrappers; self.capabilities = capabilities; self.window = window
    }
}

/// The tag rules, each pass, warn or fail like the creative rules, so the same text, JSON and
/// JUnit reports carry them.
public enum VASTRules {
    public static func evaluate(_ f: VASTTagFacts) -> [RuleResult] {
        var out: [RuleResult] = []
        func add(_ rule: String, _ status: RuleResult.Status, _ measured: String, _ limit: String) {
            out.append(RuleResult(rule: rule, status: status, measured: .value(.string(measured)), limit: limit))
        }
        let load = f.loadError
        add("well_formed", load?.code == VASTError.xmlParse || load?.code == VASTError.wrapperTimeout ? .fail : .pass,
            load.map { $0.code == VASTError.xmlParse || $0.code == VASTError.wrapperTimeout ? $0.message : "yes" } ?? "yes",
            "well-formed XML, no DOCTYPE or entities, at most 1 MB")
        add("vast_version", load == nil ? .pass : .fail, f.document?.version ?? load?.message ?? "?", "2.0, 3.0, 4.0 to 4.3")
        guard let doc = f.document else { return out }
        let chain = f.chainError
        if let e = chain {
            add("resolves", .fail, "VAST error \(e.code): \(e.message)", "the first ad leads to an InLine ad")
        } else {
            add("resolves", .pass, "\(f.resolved?.wrapperDepth ?? 0) wrappers to \(f.resolved?.id ?? "an InLine ad")", "the first ad leads to an InLine ad")
        }
        let depthFailed = chain?.code == VASTError.wrapperLimit || chain?.code == VASTError.wrapper
        add("wrapper_depth", depthFailed ? .fail : .pass, depthFailed ? chain!.message : "\(f.resolved?.wrapperDepth ?? 0)",
            "at most \(f.maxWrappers) wrappers, no loop")
        let unsafe = chain?.code == VASTError.schema && chain!.message.hasPrefix("refusing the URI")
        let uris = f.resolved.map(allURIs) ?? []
        let plain = uris.filter { $0.lowercased().hasPrefix("http://") }
        add("https_uris", unsafe ? .fail : (plain.isEmpty ? .pass : .warn),
            unsafe ? chain!.message : plain.isEmpty ? "all \(uris.count) https" : "\(plain.count) of \(uris.count) plain http, e.g. \(plain[0])",
            "every URI https (http warns; other schemes fail)")
        guard let ad = f.resolved else { return out }
        var missing: [String] = []
        if ad.adSystem == nil { missing.append("AdSystem") }
        if ad.adTitle == nil { missing.append("AdTitle") }
        if ad.impressions.isEmpty { missing.append("Impression") }
        if ad.linear.duration == nil { missing.append("Linear Duration") }
        if ad.linear.mediaFiles.isEmpty { missing.append("MediaFiles") }
        add("required_elements", missing.isEmpty ? .pass : .fail, missing.isEmpty ? "all present" : "missing " + missing.joined(separator: ", "),
            "AdSystem, AdTitle, Impression, Linear Duration, MediaFiles")
        switch MediaFileChooser.choose(ad.linear.mediaFiles, window: f.window, capabilities: f.capabilities) {
        case .success(let c): add("playable_media", .pass, c.file.url, "a media file this player can play")
        case .failure(let e): add("playable_media", .fail, e.message, "a media file this player can play")
        }
        let ready = MediaFileChooser.readyRenditions(ad.linear.mediaFiles, capabilities: f.capabilities)
        add("renditions", ready.count >= 3 ? .pass : .warn, "\(ready.count) progressive playable", "at least 3 ready-to-serve renditions")
        let v4 = doc.version.hasPrefix("4")
        add("universal_ad_id", ad.universalAdId != nil || !v4 ? .pass : .warn, ad.universalAdId ?? "missing",
            v4 ? "a UniversalAdId (VAST 4)" : "not required before VAST 4")
        if let declared = ad.linear.duration {
            let off = ad.linear.mediaFiles.compactMap { m in f.mediaDurations[m.url].map { (m.url, $0) } }.filter { abs($0.1 - declared) > 1 }
            let measured = f.mediaDurations.isEmpty ? "no media file measured"
                : off.isEmpty ? "\(f.mediaDurations.count) within 1 s of \(SpecValue.format(declared)) s"
                : off.map { "\($0.0): \(SpecValue.format($0.1)) s" }.joined(separator: "; ")
            add("duration_match", f.mediaDurations.isEmpty ? .warn : (off.isEmpty ? .pass : .fail), measured,
                "each media file within 1 s of <Duration>")
        }
        return out
    }

    static func allURIs(_ ad: ResolvedAd) -> [String] {
        var uris = ad.impressions + ad.errors + ad.linear.tracking.map(\.url) + ad.linear.clickTracking + ad.linear.mediaFiles.map(\.url)
        if let c = ad.linear.clickThrough { uris.append(c) }
        return uris + ad.tagURIs
    }
}
