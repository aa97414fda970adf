import Foundation

/// A `<ClosedCaptionFile>` (VAST 4.1+, under `<MediaFiles><ClosedCaptionFiles>`).
public struct VASTCaptionFile: Equatable, Sendable {
    /// Where the file is.
    public var url: String
    /// Its MIME type (`text/vtt`, `application/ttml+xml`).
    public var type: String
    /// Its `language` attribute, if any.
    public var language: String?
    /// The format its type names; nil for a type LaunchAd does not read (it is skipped).
    public var format: CaptionFormat? { CaptionFormat(mimeType: type) }
}

/// A `<Icon>` of a Linear (AdChoices and the like): what to draw, where, when, and its beacons.
public struct VASTIcon: Equatable, Sendable {
    /// What the icon shows.
    public enum Resource: Equatable, Sendable {
        /// An image (`<StaticResource creativeType="image/png">`): drawn.
        case image(url: String, type: String)
        /// `<HTMLResource>` or `<IFrameResource>`: a web view LaunchAd does not have; skipped.
        case web(kind: String)
    }
    /// `program` (`AdChoices`), if any.
    public var program: String?
    /// `width` in pixels (0: not given).
    public var width: Int
    /// `height` in pixels (0: not given).
    public var height: Int
    /// `xPosition`.
    public var x: IconPosition
    /// `yPosition`.
    public var y: IconPosition
    /// `offset`: when it appears.
    public var offset: VASTOffset?
    /// `duration`: how long it stays.
    public var duration: VASTOffset?
    /// Its resource; nil when it has none LaunchAd knows.
    public var resource: Resource?
    /// `<IconClickThrough>`.
    public var clickThrough: String?
    /// `<IconClickTracking>` URIs.
    public var clickTracking: [String] = []
    /// `<IconViewTracking>` URIs.
    public var viewTracking: [String] = []

    /// An icon from its attributes (resources and beacons are set after).
    public init(program: String?, width: Int, height: Int, x: IconPosition, y: IconPosition, offset: VASTOffset?, duration: VASTOffset?) {
        self.program = program; self.width = width; self.height = height
        self.x = x; self.y = y; self.offset = offset; self.duration = duration
    }
}

/// `xPosition`/`yPosition`: a side (left/right, top/bottom) or pixels from the left or top.
public enum IconPosition: Equatable, Sendable {
    case start, end, pixels(Int)

    init(_ raw: String?) {
        switch raw?.trimmingCharacters(in: .whitespaces).lowercased() {
        case "right"?, "bottom"?: self = .end
        case let s? where Int(s) != nil: self = .pixels(min(100_000, max(0, Int(s)!)))
        default: self = .start
        }
    }
}

extension VASTParser {
    /// The Linear's caption files; ones without a URL are left out.
    static func captionFiles(_ linear: XMLTree) -> [VASTCaptionFile] {
        (linear.child("MediaFiles")?.child("ClosedCaptionFiles")?.children("ClosedCaptionFile") ?? []).compactMap { node in
            guard let url = node.uri else { return nil }
            return VASTCaptionFile(
                url: url, type: node.attributes["type"]?.trimmingCharacters(in: .whitespaces) ?? "",
                language: node.attributes["language"]?.trimmingCharacters(in: .whitespaces))
        }
    }

    /// The Linear's icons (at most 16: a screen holds a few).
    static func icons(_ linear: XMLTree) -> [VASTIcon] {
        (linear.child("Icons")?.children("Icon") ?? []).prefix(16).map { node in
            let a = node.attributes
            var icon = VASTIcon(
                program: a["program"], width: size(a["width"]), height: size(a["height"]),
                x: IconPosition(a["xPosition"]), y: IconPosition(a["yPosition"]),
                offset: a["offset"].flatMap(VASTOffset.init(parsing:)), duration: a["duration"].flatMap(VASTOffset.init(parsing:)))
            if let s = node.child("StaticResource"), let url = s.uri {
                icon.resource = .image(
                    url: url, type: s.attributes["creativeType"]?.trimmingCharacters(in: .whitespaces).lowercased() ?? "")
            } else if node.child("IFrameResource") != nil {
                icon.resource = .web(kind: "iframe")
            } else if node.child("HTMLResource") != nil {
                icon.resource = .web(kind: "html")
            }
            icon.clickThrough = node.child("IconClicks")?.child("IconClickThrough")?.uri
            icon.clickTracking = node.child("IconClicks")?.children("IconClickTracking").compactMap(\.uri) ?? []
            icon.viewTracking = node.children("IconViewTracking").compactMap(\.uri)
            return icon
        }
    }

    private static func size(_ raw: String?) -> Int {
        raw.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.map { (0...10_000).contains($0) ? $0 : 0 } ?? 0
    }
}

/// Which `<ClosedCaptionFile>` an ad shows: of the WebVTT and TTML files at http(s) URLs, the
/// one in `--caption-lang`, else the system locale's language, else the first.
public enum VASTCaptionChoice {
    /// The file to show, or nil when none is WebVTT or TTML at an http(s) URL.
    public static func choose(_ files: [VASTCaptionFile], preferred: String?, locale: String?) -> VASTCaptionFile? {
        let usable = files.filter { $0.format != nil && Link.isAllowed($0.url) }
        return CaptionLanguage.choose(usable.map(\.language), preferred: preferred, locale: locale).map { usable[$0] }
    }
}
