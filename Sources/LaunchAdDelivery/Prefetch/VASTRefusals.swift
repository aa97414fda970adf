import Foundation
import LaunchAdCore

/// VAST media files refused for being larger than the cache limit, remembered in the cache
/// folder (`vast-refused.json`, 0600, never through a symlink) so each refresh does not download
/// and evict the same file again. A refusal holds while the ad's tag, its chosen media URL and
/// the cache limit stay the same; deleting the cache forgets it (one more try, nothing lost).
struct VASTRefusals {
    static let fileName = "vast-refused.json"
    let cache: URL

    private var path: String { cache.appendingPathComponent(VASTRefusals.fileName).path }

    private func read() -> [String: [String: Any]] {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return [:] }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG, st.st_size <= 1 << 20, let data = try? handle.readToEnd() else {
            return [:]
        }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: [String: Any]] ?? [:]
    }

    func isRefused(id: String, tag: String, media: String, cacheLimit: Int64) -> Bool {
        guard let entry = read()[id] else { return false }
        return entry["tag"] as? String == tag && entry["media"] as? String == media
            && (entry["cache_limit"] as? NSNumber)?.int64Value == cacheLimit
    }

    /// Remembers a refusal (keeping at most 100 ads' worth).
    func refuse(id: String, tag: String, media: String, cacheLimit: Int64) {
        var all = read()
        if all.count >= 100 { all.removeAll() }
        all[id] = ["tag": tag, "media": media, "cache_limit": cacheLimit]
        guard let data = try? JSONSerialization.data(withJSONObject: all, options: [.sortedKeys]) else { return }
        try? AtomicFile.replace(path, with: data, temporary: path + ".tmp")
    }
}
