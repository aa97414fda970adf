import Foundation
import LaunchAdCore
import LaunchAdDelivery

/// A VAST ad's `<Icons>`: the static images fetched (http(s) under the URL rules, at most 1 MB
/// each) into a private folder for the player; HTML and IFrame icons are skipped and listed in
/// the `vast_ad` event. A picture that cannot be had is one `icon_error`; the ad plays on.
enum VASTIcons {
    static let maxBytes: Int64 = 1_048_576
    static let imageTypes: Set<String> = ["image/png", "image/jpeg", "image/jpg", "image/gif", ""]

    /// Why an icon is not drawn, before anything is fetched; nil for one that will be.
    static func skipReason(_ icon: VASTIcon) -> String? {
        switch icon.resource {
        case .web(let kind)?: return kind
        case nil: return "no resource"
        case .image(let url, let type)?:
            if !imageTypes.contains(type) { return "not a PNG, JPEG or GIF (\(type))" }
            return Link.isAllowed(url) ? nil : "not an http(s) URL"
        }
    }

    /// The icons that will not be drawn, with why (for the `vast_ad` event).
    static func skipped(_ icons: [VASTIcon]) -> [VASTAdChosen.SkippedIcon] {
        icons.enumerated().compactMap { i, icon in
            skipReason(icon).map { VASTAdChosen.SkippedIcon(index: i, program: icon.program, reason: $0) }
        }
    }

    /// Fetches the drawable icons into `folder` (named by position, never by the tag's words).
    static func fetch(_ linear: VASTLinear, into folder: URL, o: PlayOptions, sink: EventSink) -> [OverlayIcon] {
        let client = HTTPClient(connectTimeout: o.vast.timeout, totalTimeout: o.vast.timeout, allowHTTP: o.vast.allowHTTP)
        let durationMs = linear.duration.map { Int(($0 * 1000).rounded()) }
        var out: [OverlayIcon] = []
        for (i, icon) in linear.icons.enumerated() where skipReason(icon) == nil {
            guard case .image(let raw, _)? = icon.resource, let url = URL(string: raw) else { continue }
            let local = folder.appendingPathComponent("icon-\(i)")
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                let r = try client.fetch(FetchRequest(url: url, maxBytes: maxBytes, destination: local), progress: nil)
                guard (200..<300).contains(r.status) else { throw FetchError("HTTP \(r.status)", retryable: false) }
                out.append(OverlayIcon(icon, index: i, file: local.path, adDurationMs: durationMs))
            } catch {
                sink.emit(.icon(IconEvent(.error(message: "\(error)"), index: i, program: icon.program, shownMs: nil)))
            }
        }
        return out
    }
}
