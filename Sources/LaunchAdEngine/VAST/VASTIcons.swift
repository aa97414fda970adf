import Foundation
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdPlayer

/// A VAST ad's `<Icons>`: the static images fetched (http(s) under the URL rules, at most 1 MB
/// each) into a private folder for the player; HTML and IFrame icons are skipped and listed in
/// the `vast_ad` event. A picture that cannot be had is one `icon_error`; the ad plays on.
enum VASTIcons {
    static let maxBytes: Int64 = 1_048_576
    static let imageTypes: Set<String> = ["image/png", "image/jpeg", "image/jpg", "image/gif", ""]

    /// The most icons fetched for one ad (as many as media files `validate --vast` checks).
    static let maxIcons = VASTRules.maxCheckedMedia

    /// Why an icon is not drawn, before anything is fetched; nil for one that will be.
    static func skipReason(_ icon: VASTIcon, index: Int) -> String? {
        if index >= maxIcons { return "over \(maxIcons) icons per ad" }
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
            skipReason(icon, index: i).map { VASTAdChosen.SkippedIcon(index: i, program: icon.program, reason: $0) }
        }
    }

    /// The drawable icons, each to be fetched into `folder` (named by position, never by the
    /// tag's words) beside playback by `fetcher`.
    static func icons(_ linear: VASTLinear, into folder: URL) -> [OverlayIcon] {
        let durationMs = linear.duration.flatMap { Checked.int(($0 * 1000).rounded()) }
        return linear.icons.enumerated().compactMap { i, icon in
            guard skipReason(icon, index: i) == nil else { return nil }
            return OverlayIcon(icon, index: i, file: folder.appendingPathComponent("icon-\(i)").path, adDurationMs: durationMs)
        }
    }

    /// Fetches one icon's picture on the player's icon thread: its URL held to `reach` (the
    /// ad's document chain), at most 1 MB, and its header read before anything decodes it: a
    /// picture over `PictureHeader.maxIconSide` a side, or whose size cannot be read, is refused.
    static func fetcher(_ linear: VASTLinear, reach: Reach, o: PlayOptions, network: RunNetwork) -> SideLoads.Icon {
        let client = network.documents(seconds: o.vast.timeout)
        let sources = linear.icons.map { icon -> URL? in
            guard case .image(let raw, _)? = icon.resource else { return nil }
            return URL(string: raw)
        }
        return { icon, isAborted in
            guard icon.index < sources.count, let url = sources[icon.index] else { throw FetchError("not a URL", retryable: false) }
            let local = URL(fileURLWithPath: icon.file)
            try FileManager.default.createDirectory(at: local.deletingLastPathComponent(), withIntermediateDirectories: true)
            let request = FetchRequest(url: url, reach: reach, maxBytes: maxBytes, destination: local, isCancelled: isAborted)
            let r = try client.fetch(request, progress: nil)
            guard (200..<300).contains(r.status) else { throw FetchError("HTTP \(r.status)", retryable: false) }
            let head = try FileHandle(forReadingFrom: local).read(upToCount: PictureHeader.bytesNeeded) ?? Data()
            switch PictureHeader.size(of: head) {
            case nil: throw FetchError("the picture's size cannot be read from its header (PNG, JPEG or GIF)", retryable: false)
            case let (w, h)? where w > PictureHeader.maxIconSide || h > PictureHeader.maxIconSide || w < 1 || h < 1:
                throw FetchError("the picture is \(w)x\(h), over \(PictureHeader.maxIconSide) px a side", retryable: false)
            default: break
            }
        }
    }
}
