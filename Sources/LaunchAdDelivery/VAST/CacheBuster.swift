/// `[CACHEBUSTING]` (and the legacy cache-buster macros): eight random digits, drawn once per
/// beacon batch, the same for every URI of that batch. The one source for play, launch and prefetch.
public enum CacheBuster {
    public static func next() -> String {
        let n = String(UInt32.random(in: 0..<100_000_000))
        return String(repeating: "0", count: 8 - n.count) + n
    }
}
