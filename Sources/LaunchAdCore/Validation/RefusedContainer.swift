import Foundation

/// What a file that is no media file launchad opens is, in a user's words: FFmpeg names a JSON
/// manifest `tedcaptions` and a playlist `hls`, which say nothing to someone who passed
/// `probe manifest.json`. Decided from the format FFmpeg probed and the file's first bytes.
public enum RefusedContainer {
    /// FFmpeg's caption demuxers: a caption file goes to `--captions`.
    static let captionFormats: Set<String> = [
        "webvtt", "srt", "ass", "subviewer", "subviewer1", "microdvd", "mpl2", "mpsub", "jacosub", "sami", "realtext", "pjs",
        "stl", "vplayer", "lrc", "scc", "aqtitle"
    ]

    /// "PATH is …, not media…" for a file FFmpeg probed as `format` whose first bytes are `head`.
    public static func describe(path: String, format: String, head: Data) -> String {
        "\(path) is \(kind(format: format, head: head))"
    }

    /// The words after "PATH is".
    static func kind(format: String, head: Data) -> String {
        let names = Set(format.split(separator: ",").map(String.init))
        if names.contains("hls") { return "an HLS playlist, not one self-contained media file" }
        if names.contains("dash") { return "a DASH manifest, not one self-contained media file" }
        if names.contains("concat") { return "an FFmpeg concat list, not media" }
        let text = String(decoding: head.prefix(4096), as: UTF8.self)
        let start = text.drop { $0 == "\u{FEFF}" || $0.isWhitespace }
        if start.hasPrefix("{") || start.hasPrefix("[") {
            if start.contains("\"ads\"") {
                return "a launchad manifest (JSON), not media: it goes to launch, prefetch or schedule --manifest"
            }
            return "JSON, not media"
        }
        if start.hasPrefix("<") {
            if start.range(of: "<VAST", options: .caseInsensitive) != nil {
                return "a VAST document, not media: play --vast or validate --vast take it"
            }
            return "an XML document, not media"
        }
        if let caption = names.first(where: captionFormats.contains) {
            return "a caption file (\(caption)), not media: captions go to play --captions"
        }
        return "\(format), not a media file launchad opens (playlists and manifests are refused)"
    }
}
