import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads a VAST document with FoundationXML's XMLParser (libxml2). A DOCTYPE or an entity
/// declaration is refused before parsing, and external entities are never resolved, so neither
/// a billion laughs nor `file:///etc/passwd` gets in. Namespaced (`http://www.iab.com/VAST`)
/// or not; element names are matched on their local part.
public enum VASTParser {
    public static let supportedVersions: Set<String> = ["2.0", "3.0", "4.0", "4.1", "4.2", "4.3"]

    public static func parse(_ data: Data) throws -> VASTDocument {
        let root = try XMLTree.parse(data)
        guard root.name == "VAST" else { throw VASTError(VASTError.schema, "the root element is <\(root.name)>, not <VAST>") }
        let version = root.attributes["version"]?.trimmingCharacters(in: .whitespaces) ?? ""
        // "4" and "4.0.0" are read as 4.0; anything else outside 2.0–4.3 is refused.
        guard let normal = normalVersion(version), supportedVersions.contains(normal) else {
            throw VASTError(VASTError.version, "VAST version '\(version)' is not supported (2.0, 3.0, 4.0–4.3)")
        }
        var doc = VASTDocument(version: normal, ads: [], errors: root.children("Error").compactMap(\.uri))
        for node in root.children("Ad") { doc.ads.append(try ad(node)) }
        return doc
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
              let major = Int(parts[0]) else { return nil }
        let minor = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        if parts.count == 3, Int(parts[2]) != 0 { return nil }
        return "\(major).\(minor)"
    }

    private static func ad(_ node: XMLTree) throws -> VASTAd {
        var ad = VASTAd(id: node.attributes["id"], sequence: node.attributes["sequence"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) })
        let inline = node.child("InLine"), wrapper = node.child("Wrapper")
        guard let body = inline ?? wrapper else {
            throw VASTError(VASTError.schema, "<Ad\(ad.id.map { " id=\"\($0)\"" } ?? "")> has neither <InLine> nor <Wrapper>")
        }
        ad.adSystem = body.child("AdSystem")?.text
        ad.adTitle = body.child("AdTitle")?.text
        ad.impressions = body.children("Impression").compactMap(\.uri)
        ad.errors = body.children("Error").compactMap(\.uri)
        ad.expires = body.child("Expires")?.text.flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            .flatMap { (0...31_536_000 * 100).contains($0) ? $0 : nil }
        if let wrapper {
            guard let uri = wrapper.child("VASTAdTagURI")?.uri else {
                throw VASTError(VASTError.schema, "a <Wrapper> without <VASTAdTagURI>")
            }
            var w = VASTWrapper(tagURI: uri)
            w.followAdditionalWrappers = flag(wrapper.attributes["followAdditionalWrappers"], default: true)
            w.allowMultipleAds = flag(wrapper.attributes["allowMultipleAds"], default: false)
            w.fallbackOnNoAd = flag(wrapper.attributes["fallbackOnNoAd"], default: true)
            ad.wrapper = w
        }
        for creative in body.child("Creatives")?.children("Creative") ?? [] {
            if ad.universalAdId == nil { ad.universalAdId = creative.child("UniversalAdId")?.text }
            guard ad.linear == nil, let linear = creative.child("Linear") else { continue }
            ad.linear = try self.linear(linear)
        }
        return ad
    }

    private static func linear(_ node: XMLTree) throws -> VASTLinear {
        var l = VASTLinear()
        if let d = node.child("Duration")?.text {
            guard let s = VASTOffset.clockSeconds(d) else { throw VASTError(VASTError.schema, "<Duration> '\(d)' is not HH:MM:SS(.mmm)") }
            l.duration = s
        }
        if let raw = node.attributes["skipoffset"] {
            guard let o = VASTOffset(parsing: raw) else { throw VASTError(VASTError.schema, "skipoffset '\(raw)' is not HH:MM:SS(.mmm) or n%") }
            l.skipOffset = o
        }
        for m in node.child("MediaFiles")?.children("MediaFile") ?? [] {
            guard let url = m.uri else { continue }
            var f = VASTMediaFile(url: url)
            f.delivery = m.attributes["delivery"]?.trimmingCharacters(in: .whitespaces).lowercased() ?? "progressive"
            f.type = m.attributes["type"]?.trimmingCharacters(in: .whitespaces) ?? ""
            f.width = dimension(m.attributes["width"])
            f.height = dimension(m.attributes["height"])
            f.codec = m.attributes["codec"]
            f.bitrate = (m.attributes["bitrate"] ?? m.attributes["maxBitrate"]).flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            f.apiFramework = m.attributes["apiFramework"]
            l.mediaFiles.append(f)
        }
        for t in node.child("TrackingEvents")?.children("Tracking") ?? [] {
            guard let url = t.uri, let event = t.attributes["event"] else { continue }
            l.tracking.append(VASTTracking(event: event, offset: t.attributes["offset"].flatMap(VASTOffset.init(parsing:)), url: url))
        }
        l.captionFiles = captionFiles(node)
        l.icons = icons(node)
        if let clicks = node.child("VideoClicks") {
            l.clickThrough = clicks.child("ClickThrough")?.uri
            l.clickTracking = clicks.children("ClickTracking").compactMap(\.uri)
        }
        return l
    }

    /// A pixel size; 0 when missing or beyond any screen (so areas never overflow).
    private static func dimension(_ raw: String?) -> Int {
        raw.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.map { (0...100_000).contains($0) ? $0 : 0 } ?? 0
    }

    private static func flag(_ raw: String?, default value: Bool) -> Bool {
        switch raw?.trimmingCharacters(in: .whitespaces).lowercased() {
        case "true"?, "1"?: return true
        case "false"?, "0"?: return false
        default: return value
        }
    }
}
