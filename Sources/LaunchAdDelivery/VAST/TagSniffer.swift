import Foundation
import LaunchAdCore

/// Tells a VAST tag from a media file by its root element, not its name, so a tag URL with any
/// extension works. A URL or file named like media (`.mp4`, `.png`, `.m3u8`, ...) is not asked:
/// playing a video never waits for an extra request or read.
public enum TagSniffer {
    static let mediaExtensions: Set<String> = [
        "mp4", "m4v", "mov", "webm", "mkv", "ts", "m3u8", "mpd", "png", "jpg", "jpeg",
        "gif", "avi", "flv", "ogv", "3gp"
    ]

    /// `client`: the run's, with its policy and the sniff's timeout.
    public static func isTag(_ source: String, client: HTTPClient) -> Bool {
        guard source.contains("://") else {
            // Only a regular file not named like media is read: a FIFO or a device could block
            // here, before the player's first-frame deadline even starts.
            guard !mediaExtensions.contains((source as NSString).pathExtension.lowercased()),
                (try? FileManager.default.attributesOfItem(atPath: source)[.type] as? FileAttributeType) == .typeRegular,
                let h = FileHandle(forReadingAtPath: source)
            else { return false }
            defer { try? h.close() }
            return VASTParser.looksLikeVAST((try? h.read(upToCount: 4096)) ?? Data())
        }
        guard let url = URL(string: source), url.scheme == "http" || url.scheme == "https",
            !mediaExtensions.contains(url.pathExtension.lowercased())
        else { return false }
        // The first 4 kB is enough to see the root element; a server that ignores Range is cut off at 64 kB.
        // The URL is the user's (the command line): it may reach any address.
        let request = FetchRequest(url: url, reach: .any, headers: ["Range": "bytes=0-4095"], maxBytes: 65536)
        let head = (try? client.fetch(request, progress: nil))
        return head.map { (200..<300).contains($0.status) && VASTParser.looksLikeVAST($0.body) } ?? false
    }
}
