import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A document refused as a whole once its root `<Error>` URIs were read (an unsupported
/// version): the caller fires them with the code.
public struct VASTDocumentRefusal: Error, Sendable {
    /// The refusal's error (102 for an unsupported version).
    public var error: VASTError
    /// The document's root `<Error>` URIs, to fire with `error`'s code.
    public var errorURIs: [String]
}

/// Reads a VAST document with FoundationXML's XMLParser (libxml2). A DOCTYPE or an entity
/// declaration is refused before parsing, and external entities are never resolved, so neither
/// a billion laughs nor `file:///etc/passwd` gets in. Namespaced (`http://www.iab.com/VAST`)
/// or not; element names are matched on their local part, in any case (VAST 2 servers write
/// `<impression>`). Tolerant where the intent is clear (each reading noted for `validate
/// --vast`); a malformed value inside one `<Ad>` fails that ad alone (`VASTAd.problem`).
///
/// Each part of an ad is read by its own function below (`linear`, `mediaFiles`, `tracking`,
/// `verifications`, ...): a new element is a new function called from `ad(_:)` or `linear(_:)`.
public enum VASTParser {
    /// The versions read (after normalising "4" to "4.0"); any other is refused with 102.
    public static let supportedVersions: Set<String> = ["2.0", "3.0", "4.0", "4.1", "4.2", "4.3"]

    /// The element names read, in their spec spelling: any other case is read as these.
    static let elementNames: Set<String> = [
        "VAST", "Ad", "InLine", "Wrapper", "AdSystem", "AdTitle", "Impression", "Error", "Expires", "VASTAdTagURI",
        "VASTAdTagURL", "URL", "Creatives", "Creative", "UniversalAdId", "Linear", "NonLinearAds", "Duration",
        "MediaFiles", "MediaFile", "TrackingEvents", "Tracking", "VideoClicks", "ClickThrough", "ClickTracking",
        "AdVerifications", "Verification", "Extensions", "Extension", "ViewableImpression", "Viewable", "NotViewable",
        "ViewUndetermined",
        // VASTCaptionsAndIcons.swift
        "ClosedCaptionFiles", "ClosedCaptionFile", "Icons", "Icon", "StaticResource", "IFrameResource", "HTMLResource",
        "IconClicks", "IconClickThrough", "IconClickTracking", "IconViewTracking"
    ]

    /// `budget`: a larger document is refused and parsing stops at its deadline (VAST 100), so a
    /// tag cannot hold the CPU past `--vast-timeout` (`VASTLimits.budget`).
    public static func parse(_ data: Data, budget: ParseBudget) throws -> VASTDocument {
        let root = try XMLTree.parse(data, names: elementNames, budget: budget)
        guard root.name == "VAST" else { throw VASTError(VASTError.schema, "the root element is <\(root.name)>, not <VAST>") }
        let errors = capped(root.children("Error").compactMap(\.uri)).kept
        var notes: [VASTNote] = []
        if !root.miscased.isEmpty {
            notes.append(
                VASTNote(
                    "element_case",
                    "element names not in the spec's case (VAST 2 servers): " + root.miscased.prefix(8).joined(separator: ", ")))
        }
        let raw = root.attributes["version"]
        let version = raw?.trimmingCharacters(in: .whitespaces) ?? ""
        let ads = root.children("Ad")
        let normal: String
        if version.isEmpty {
            // No version: a response with no ad is an empty answer (303, its Error URIs fired);
            // ads are read as the current version.
            normal = ""
            if !ads.isEmpty { notes.append(VASTNote("vast_version", "<VAST> has no version attribute; read as VAST 4.3")) }
        } else if let n = normalVersion(version), supportedVersions.contains(n) {
            normal = n
        } else {
            throw VASTDocumentRefusal(
                error: VASTError(VASTError.version, "VAST version '\(version.prefix(20))' is not supported (2.0, 3.0, 4.0–4.3)"),
                errorURIs: errors)
        }
        if let raw, raw != version { notes.append(VASTNote("value_whitespace", "version '\(raw)' has whitespace around it")) }
        return VASTDocument(version: normal, ads: ads.map(ad), errors: errors, notes: notes)
    }

    /// True when the bytes' root element is `<VAST>` (a prefix is enough): how `play` tells a
    /// tag from a media file without trusting its name.
    public static func looksLikeVAST(_ data: Data) -> Bool {
        let head = String(decoding: data.prefix(4096), as: UTF8.self)
        var rest = Substring(head)
        while true {
            rest = rest.drop(while: { $0.isWhitespace || $0 == "\u{FEFF}" })
            if rest.hasPrefix("<?") || rest.hasPrefix("<!--") {
                let close = rest.hasPrefix("<?") ? "?>" : "-->"
                guard let end = rest.range(of: close) else { return false }
                rest = rest[end.upperBound...]
                continue
            }
            guard rest.hasPrefix("<") else { return false }
            let name = rest.dropFirst().prefix(while: { !$0.isWhitespace && $0 != ">" && $0 != "/" })
            return name == "VAST" || name.hasSuffix(":VAST")
        }
    }

    static func normalVersion(_ v: String) -> String? {
        let parts = v.split(separator: ".").map(String.init)
        guard !parts.isEmpty, parts.count <= 3, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }),
            let major = Int(parts[0])
        else { return nil }
        let minor = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        if parts.count == 3, Int(parts[2]) != 0 { return nil }
        return "\(major).\(minor)"
    }

    /// One `<Ad>`: never throws; what makes it unplayable goes into `problem`, with its Error URIs kept.
    static func ad(_ node: XMLTree) -> VASTAd {
        var reader = AdReader(node: node)
        reader.read()
        return reader.ad
    }

    /// The first `limit` items and how many were left out.
    static func capped(_ list: [String], limit: Int = VASTLimits.urisPerEvent) -> (kept: [String], dropped: Int) {
        list.count <= limit ? (list, 0) : (Array(list.prefix(limit)), list.count - limit)
    }

    static func flag(_ raw: String?, default value: Bool) -> Bool {
        switch raw?.trimmingCharacters(in: .whitespaces).lowercased() {
        case "true"?, "1"?: return true
        case "false"?, "0"?: return false
        default: return value
        }
    }
}

/// Reads one `<Ad>` into a `VASTAd`, noting leniencies and the first problem that fails it.
struct AdReader {
    let node: XMLTree
    var ad: VASTAd

    init(node: XMLTree) {
        self.node = node
        let rawSequence = node.attributes["sequence"]?.trimmingCharacters(in: .whitespaces)
        ad = VASTAd(id: node.attributes["id"], sequence: rawSequence.flatMap { Int($0) })
        if let rawSequence, ad.sequence == nil {
            note("ad_sequence", "sequence '\(rawSequence.prefix(20))' is not a whole number; the ad is read as standalone")
        }
    }

    mutating func note(_ rule: String, _ message: String) { ad.notes.append(VASTNote(rule, "\(label): \(message)")) }

    /// Fails the ad (the first problem is the one reported).
    mutating func fail(_ message: String, code: Int = VASTError.schema) {
        if ad.problem == nil { ad.problem = VASTError(code, "\(label): \(message)") }
    }

    var label: String { "<Ad\(ad.id.map { " id=\"\($0.prefix(40))\"" } ?? "")>" }

    /// URIs of `name` under `parent`, capped per event (the rest counted in `urisDropped`).
    mutating func uris(_ parent: XMLTree, _ name: String, event: String? = nil) -> [String] {
        let (kept, dropped) = VASTParser.capped(parent.children(name).compactMap(\.uri))
        if dropped > 0 { ad.urisDropped[event ?? name, default: 0] += dropped }
        return kept
    }

    mutating func read() {
        let inline = node.child("InLine"), wrapper = node.child("Wrapper")
        guard let body = inline ?? wrapper else { return fail("has neither <InLine> nor <Wrapper>") }
        ad.adSystem = body.child("AdSystem")?.text
        ad.adTitle = body.child("AdTitle")?.text
        ad.impressions = uris(body, "Impression")
        ad.errors = uris(body, "Error")
        ad.expires = body.child("Expires")?.text.flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            .flatMap { (0...31_536_000 * 100).contains($0) ? $0 : nil }
        if let wrapper { readWrapper(wrapper) }
        readCreatives(body, isWrapper: wrapper != nil)
        readVerifications(body)
        readViewable(body)
    }

    mutating func readWrapper(_ node: XMLTree) {
        // VAST 2 servers also write `<VASTAdTagURL><URL>...</URL></VASTAdTagURL>`.
        let legacy = node.child("VASTAdTagURL")
        guard let uri = node.child("VASTAdTagURI")?.uri ?? legacy?.child("URL")?.uri ?? legacy?.uri else {
            ad.wrapper = VASTWrapper(tagURI: "")
            return fail("a <Wrapper> without <VASTAdTagURI>")
        }
        if legacy != nil, node.child("VASTAdTagURI") == nil { note("wrapper_uri", "VAST 2's <VASTAdTagURL> read as <VASTAdTagURI>") }
        var w = VASTWrapper(tagURI: uri)
        w.followAdditionalWrappers = VASTParser.flag(node.attributes["followAdditionalWrappers"], default: true)
        w.allowMultipleAds = VASTParser.flag(node.attributes["allowMultipleAds"], default: false)
        w.fallbackOnNoAd = VASTParser.flag(node.attributes["fallbackOnNoAd"], default: true)
        ad.wrapper = w
    }

    /// An InLine plays its first `<Linear>`; a wrapper's Linear creatives all carry tracking to merge.
    mutating func readCreatives(_ body: XMLTree, isWrapper: Bool) {
        for creative in body.child("Creatives")?.children("Creative") ?? [] {
            if ad.universalAdId == nil { ad.universalAdId = creative.child("UniversalAdId")?.text }
            if creative.child("NonLinearAds") != nil { ad.hasNonLinear = true }
            guard let node = creative.child("Linear") else { continue }
            if ad.linear == nil {
                ad.linear = linear(node)
            } else if isWrapper {
                let more = linear(node)
                ad.linear?.tracking += more.tracking
                ad.linear?.clickTracking += more.clickTracking
            }
        }
        if isWrapper { capLinear() }
    }

    /// The per-event cap again after a wrapper's Linear creatives were merged.
    mutating func capLinear() {
        guard var l = ad.linear else { return }
        var byEvent: [String: Int] = [:]
        l.tracking = l.tracking.filter { t in
            byEvent[t.event, default: 0] += 1
            if byEvent[t.event]! > VASTLimits.urisPerEvent { ad.urisDropped[t.event, default: 0] += 1; return false }
            return true
        }
        let clicks = VASTParser.capped(l.clickTracking)
        l.clickTracking = clicks.kept
        if clicks.dropped > 0 { ad.urisDropped["ClickTracking", default: 0] += clicks.dropped }
        ad.linear = l
    }

    mutating func linear(_ node: XMLTree) -> VASTLinear {
        var l = VASTLinear()
        if let d = node.child("Duration")?.text { l.duration = duration(d) }
        if let raw = node.attributes["skipoffset"] {
            if let o = offset(raw, what: "skipoffset") {
                l.skipOffset = o
            } else {
                fail("skipoffset '\(raw.prefix(40))' is not HH:MM:SS(.mmm) or n%")
            }
        }
        l.mediaFiles = mediaFiles(node)
        l.tracking = tracking(node)
        l.captionFiles = VASTParser.captionFiles(node)  // VASTCaptionsAndIcons.swift
        l.icons = VASTParser.icons(node)
        if let clicks = node.child("VideoClicks") {
            l.clickThrough = clicks.child("ClickThrough")?.uri
            l.clickTracking = uris(clicks, "ClickTracking")
        }
        return l
    }

    /// `HH:MM:SS(.mmm)`; plain seconds (`30`) are read with a note; anything else fails the ad.
    mutating func duration(_ d: String) -> Double? {
        if let s = VASTOffset.clockSeconds(d) { return s }
        if let s = Double(d), s.isFinite, s >= 0, s < 360_000, d.first?.isNumber == true {
            note("duration_format", "<Duration> '\(d.prefix(20))' is plain seconds, not HH:MM:SS(.mmm); read as \(NumberText.plain(s)) s")
            return s
        }
        fail("<Duration> '\(d.prefix(40))' is not HH:MM:SS(.mmm)")
        return nil
    }

    /// An offset attribute, whitespace around it noted.
    mutating func offset(_ raw: String, what: String) -> VASTOffset? {
        let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let o = VASTOffset(parsing: trimmed) else { return nil }
        if trimmed != raw { note("value_whitespace", "\(what) '\(raw)' has whitespace around it") }
        return o
    }

    mutating func mediaFiles(_ linear: XMLTree) -> [VASTMediaFile] {
        var files: [VASTMediaFile] = []
        for m in linear.child("MediaFiles")?.children("MediaFile") ?? [] {
            guard let url = m.uri else { continue }
            var f = VASTMediaFile(url: url)
            f.delivery = m.attributes["delivery"]?.trimmingCharacters(in: .whitespaces).lowercased() ?? "progressive"
            f.type = m.attributes["type"]?.trimmingCharacters(in: .whitespaces) ?? ""
            f.width = Self.dimension(m.attributes["width"])
            f.height = Self.dimension(m.attributes["height"])
            f.codec = m.attributes["codec"]
            f.bitrate = (m.attributes["bitrate"] ?? m.attributes["maxBitrate"]).flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            f.apiFramework = m.attributes["apiFramework"]
            f.declared = Set(m.attributes.keys)
            files.append(f)
        }
        // A tag listing thousands of files is read for its first ones (validate checks fewer still).
        return Array(files.prefix(VASTLimits.urisPerEvent))
    }

    mutating func tracking(_ linear: XMLTree) -> [VASTTracking] {
        var out: [VASTTracking] = []
        var count: [String: Int] = [:]
        for t in linear.child("TrackingEvents")?.children("Tracking") ?? [] {
            guard let url = t.uri, let event = t.attributes["event"]?.trimmingCharacters(in: .whitespaces) else { continue }
            var at: VASTOffset?
            if let raw = t.attributes["offset"] {
                guard let o = offset(raw, what: "the \(event) tracking offset") else {
                    fail("the \(event.prefix(30)) tracking offset '\(raw.prefix(40))' is not HH:MM:SS(.mmm) or n%")
                    continue
                }
                at = o
            }
            count[event, default: 0] += 1
            guard count[event]! <= VASTLimits.urisPerEvent else { ad.urisDropped[event, default: 0] += 1; continue }
            out.append(VASTTracking(event: event, offset: at, url: url))
        }
        return out
    }

    /// `<AdVerifications>` (4.1+), or inside 4.0's `<Extension type="AdVerifications">`.
    mutating func readVerifications(_ body: XMLTree) {
        let extensions = body.child("Extensions")?.children("Extension").filter { $0.attributes["type"] == "AdVerifications" } ?? []
        let lists = [body.child("AdVerifications")].compactMap { $0 } + extensions.compactMap { $0.child("AdVerifications") }
        for v in lists.flatMap({ $0.children("Verification") }).prefix(VASTLimits.urisPerEvent) {
            let events =
                v.child("TrackingEvents")?.children("Tracking").filter {
                    $0.attributes["event"]?.trimmingCharacters(in: .whitespaces) == "verificationNotExecuted"
                } ?? []
            let (kept, dropped) = VASTParser.capped(events.compactMap(\.uri))
            if dropped > 0 { ad.urisDropped["verificationNotExecuted", default: 0] += dropped }
            ad.verifications.append(VASTVerification(vendor: v.attributes["vendor"], notExecuted: kept))
        }
    }

    mutating func readViewable(_ body: XMLTree) {
        guard let v = body.child("ViewableImpression") else { return }
        ad.viewable.viewable = uris(v, "Viewable")
        ad.viewable.notViewable = uris(v, "NotViewable")
        ad.viewable.undetermined = uris(v, "ViewUndetermined")
    }

    /// A pixel size; 0 when missing or beyond any screen (so areas never overflow).
    static func dimension(_ raw: String?) -> Int {
        raw.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.map { (0...100_000).contains($0) ? $0 : 0 } ?? 0
    }
}
