/// What `validate --vast` learned about a tag: the first document, the chain resolved from its
/// first ad, and the lengths of the media files it could download.
public struct VASTTagFacts: Sendable {
    /// The tag's URL, or the path of the file it was read from.
    public var source: String
    /// The first document, when it could be fetched and parsed.
    public var document: VASTDocument?
    /// Why the first document could not be had or read (fetch, XML, version).
    public var loadError: VASTError?
    /// The first ad resolved through its wrappers; nil when it did not resolve.
    public var resolved: ResolvedAd?
    /// Why the first ad did not resolve to an InLine (wrapper limit, loop, no ad, unsafe URI, ...).
    public var chainError: VASTError?
    /// When it did not: the documents the wrappers led to before it stopped.
    public var followed: [VASTChain.Followed] = []
    /// The wrapper limit the chain was followed with (`--max-wrappers`).
    public var maxWrappers: Int
    /// What the local FFmpeg can open and decode, for the media-file rules.
    public var capabilities: MediaCapabilities
    /// The window size the media file is chosen for.
    public var window: Size
    /// Seconds of each downloaded media file, by URL.
    public var mediaDurations: [String: Double] = [:]
    /// Media files not downloaded (over the per-tag count or the byte budget), by URL, with why.
    public var notChecked: [(url: String, why: String)] = []

    /// Facts for `source` before anything is fetched; the rest is filled in as `validate --vast` goes.
    public init(source: String, maxWrappers: Int, capabilities: MediaCapabilities, window: Size) {
        self.source = source; self.maxWrappers = maxWrappers; self.capabilities = capabilities; self.window = window
    }
}

/// The tag rules, each pass, warn or fail like the creative rules, so the same text, JSON and
/// JUnit reports carry them.
public enum VASTRules {
    /// Every tag rule's result, in report order.
    public static func evaluate(_ f: VASTTagFacts) -> [RuleResult] {
        let rules = RuleList()
        let notes = allNotes(f)
        documentRules(f, notes: notes, rules)
        guard let doc = f.document else { return rules.out }
        // What was read leniently, each under the rule naming it; what fails an ad alone; the
        // MediaFiles' required attributes (the first document's ads and the resolved ad's).
        lint(doc, notes: notes, add: rules.add)
        mediaAttributeRule(doc, f, rules)
        chainRules(f, rules)
        guard let ad = f.resolved else { return rules.out }
        adRules(ad, f, rules)
        mediaRules(ad, doc, f, rules)
        return rules.out
    }

    /// The results in report order, added to by each group of rules.
    final class RuleList {
        var out: [RuleResult] = []
        func add(_ rule: String, _ status: RuleResult.Status, _ measured: String, _ limit: String) {
            out.append(RuleResult(rule: rule, status: status, measured: .value(.string(measured)), limit: limit))
        }
    }

    /// Whether the first document could be read, and its version.
    private static func documentRules(_ f: VASTTagFacts, notes: [VASTNote], _ rules: RuleList) {
        let add = rules.add
        let load = f.loadError
        add(
            "well_formed", load?.code == VASTError.xmlParse || load?.code == VASTError.wrapperTimeout ? .fail : .pass,
            load.map { $0.code == VASTError.xmlParse || $0.code == VASTError.wrapperTimeout ? $0.message : "yes" } ?? "yes",
            "well-formed XML, no DOCTYPE or entities, at most 1 MB")
        let versionNotes = notes.filter { $0.rule == "vast_version" }.map(\.message)
        add(
            "vast_version", load != nil && load?.code != VASTError.noAd ? .fail : versionNotes.isEmpty ? .pass : .warn,
            load?.message ?? (versionNotes.first ?? f.document?.version ?? "?"), "2.0, 3.0, 4.0 to 4.3")
    }

    /// Every MediaFile's required attributes, the first document's ads' and the resolved ad's.
    private static func mediaAttributeRule(_ doc: VASTDocument, _ f: VASTTagFacts, _ rules: RuleList) {
        let files = doc.ads.flatMap { $0.linear?.mediaFiles ?? [] } + (f.resolved?.linear.mediaFiles ?? [])
        var seen: Set<String> = []
        let bare = files.filter { seen.insert($0.url + " " + $0.declared.sorted().joined(separator: ",")).inserted }.compactMap {
            m -> String? in
            let absent = ["delivery", "type", "width", "height"].filter { !m.declared.contains($0) }
            return absent.isEmpty ? nil : "\(m.url.split(separator: "/").last ?? "?"): no \(absent.joined(separator: ", "))"
        }
        rules.add(
            "media_attributes", bare.isEmpty ? .pass : .fail, bare.isEmpty ? "all given" : bare.prefix(10).joined(separator: "; "),
            "every MediaFile has delivery, type, width and height")
    }

    /// The wrapper chain: whether it resolved, how deep, and over which schemes.
    private static func chainRules(_ f: VASTTagFacts, _ rules: RuleList) {
        let add = rules.add
        let chain = f.chainError
        if let e = chain {
            add("resolves", .fail, "VAST error \(e.code): \(e.message)", "the first ad leads to an InLine ad")
        } else {
            add(
                "resolves", .pass, "\(f.resolved?.wrapperDepth ?? 0) wrappers to \(f.resolved?.id ?? "an InLine ad")",
                "the first ad leads to an InLine ad")
        }
        let depthFailed = chain?.code == VASTError.wrapperLimit || chain?.code == VASTError.wrapper
        add(
            "wrapper_depth", depthFailed ? .fail : .pass, depthFailed ? chain!.message : "\(f.resolved?.wrapperDepth ?? 0)",
            "at most \(f.maxWrappers) wrappers, no loop")
        let unsafe = chain?.code == VASTError.schema && chain!.message.hasPrefix("refusing the URI")
        let uris = f.resolved.map(allURIs) ?? []
        let plain = uris.filter { $0.lowercased().hasPrefix("http://") }
        add(
            "https_uris", unsafe ? .fail : (plain.isEmpty ? .pass : .warn),
            unsafe
                ? chain!.message
                : plain.isEmpty ? "all \(uris.count) https" : "\(plain.count) of \(uris.count) plain http, e.g. \(plain[0])",
            "every URI https (http warns; other schemes fail)")
    }

    /// The resolved ad's required elements and how many of its URIs are sent.
    private static func adRules(_ ad: ResolvedAd, _ f: VASTTagFacts, _ rules: RuleList) {
        let add = rules.add
        var missing: [String] = []
        if ad.adSystem == nil { missing.append("AdSystem") }
        if ad.adTitle == nil { missing.append("AdTitle") }
        if ad.impressions.isEmpty { missing.append("Impression") }
        if ad.linear.duration == nil { missing.append("Linear Duration") }
        if ad.linear.mediaFiles.isEmpty { missing.append("MediaFiles") }
        add(
            "required_elements", missing.isEmpty ? .pass : .fail,
            missing.isEmpty ? "all present" : "missing " + missing.joined(separator: ", "),
            "AdSystem, AdTitle, Impression, Linear Duration, MediaFiles")
        let dropped = ad.urisDropped.values.reduce(0, +)
        add(
            "uri_count", dropped == 0 ? .pass : .warn,
            dropped == 0
                ? "within \(VASTLimits.urisPerEvent) per event"
                : "\(dropped) left out: "
                    + ad.urisDropped.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "),
            "at most \(VASTLimits.urisPerEvent) URIs per event per ad are sent")
        if !f.notChecked.isEmpty {
            add(
                "media_checked", .warn,
                "\(f.notChecked.count) not checked: " + f.notChecked.prefix(50).map { "\($0.url) (\($0.why))" }.joined(separator: "; "),
                "at most \(maxCheckedMedia) media files per tag are downloaded and analysed")
        }
    }

    /// Whether a media file plays here, the renditions, the ad id, and the files' lengths.
    private static func mediaRules(_ ad: ResolvedAd, _ doc: VASTDocument, _ f: VASTTagFacts, _ rules: RuleList) {
        let add = rules.add
        switch MediaFileChooser.choose(ad.linear.mediaFiles, window: f.window, capabilities: f.capabilities) {
        case .success(let c): add("playable_media", .pass, c.file.url, "a media file this player can play")
        case .failure(let e): add("playable_media", .fail, e.message, "a media file this player can play")
        }
        let ready = MediaFileChooser.readyRenditions(ad.linear.mediaFiles, capabilities: f.capabilities)
        add("renditions", ready.count >= 3 ? .pass : .warn, "\(ready.count) progressive playable", "at least 3 ready-to-serve renditions")
        let v4 = doc.version.hasPrefix("4")
        add(
            "universal_ad_id", ad.universalAdId != nil || !v4 ? .pass : .warn, ad.universalAdId ?? "missing",
            v4 ? "a UniversalAdId (VAST 4)" : "not required before VAST 4")
        if let declared = ad.linear.duration {
            let off = ad.linear.mediaFiles.compactMap { m in f.mediaDurations[m.url].map { (m.url, $0) } }.filter {
                abs($0.1 - declared) > 1
            }
            let measured =
                f.mediaDurations.isEmpty
                ? "no media file measured"
                : off.isEmpty
                    ? "\(f.mediaDurations.count) within 1 s of \(SpecValue.format(declared)) s"
                    : off.map { "\($0.0): \(SpecValue.format($0.1)) s" }.joined(separator: "; ")
            add(
                "duration_match", f.mediaDurations.isEmpty ? .warn : (off.isEmpty ? .pass : .fail), measured,
                "each media file within 1 s of <Duration>")
        }
    }

    /// How many media files of one tag `validate --vast` downloads and analyses.
    public static let maxCheckedMedia = 20

    /// The leniency notes of the first document, its ads, and the chain's wrapped documents, once each.
    static func allNotes(_ f: VASTTagFacts) -> [VASTNote] {
        var seen: Set<String> = []
        let all = (f.document?.notes ?? []) + (f.document?.ads.flatMap(\.notes) ?? []) + (f.resolved?.notes ?? [])
        return all.filter { seen.insert($0.rule + "\u{0}" + $0.message).inserted }
    }

    /// Every leniency rule that applies (warn) and the ads that fail alone (`ad_values`, fail).
    static func lint(_ doc: VASTDocument, notes: [VASTNote], add: (String, RuleResult.Status, String, String) -> Void) {
        let limits = [
            "element_case": "element names as the spec writes them (VAST 2 servers write lower case)",
            "value_whitespace": "values without surrounding whitespace",
            "duration_format": "<Duration> as HH:MM:SS(.mmm)",
            "wrapper_uri": "<VASTAdTagURI> (VAST 2's <VASTAdTagURL><URL> is read too)",
            "ad_sequence": "sequence a whole number"
        ]
        for rule in limits.keys.sorted() {
            let hits = notes.filter { $0.rule == rule }.map(\.message)
            if !hits.isEmpty { add(rule, .warn, hits.prefix(10).joined(separator: "; "), limits[rule]!) }
        }
        let problems = doc.ads.compactMap(\.problem)
        add(
            "ad_values", problems.isEmpty ? .pass : .fail,
            problems.isEmpty
                ? "every ad's values read" : problems.prefix(10).map { "VAST error \($0.code): \($0.message)" }.joined(separator: "; "),
            "durations, offsets, skipoffsets and wrapper URIs well-formed (a bad one fails its ad alone)")
    }

    static func allURIs(_ ad: ResolvedAd) -> [String] {
        var uris =
            ad.impressions + ad.errors + ad.linear.tracking.map(\.url) + ad.linear.clickTracking + ad.linear.mediaFiles.map(\.url)
            + ad.verifications.flatMap(\.notExecuted) + ad.viewable.viewable + ad.viewable.notViewable + ad.viewable.undetermined
        if let c = ad.linear.clickThrough { uris.append(c) }
        return uris + ad.tagURIs
    }
}
