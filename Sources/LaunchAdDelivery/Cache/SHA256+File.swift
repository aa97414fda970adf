import Foundation
import LaunchAdCore

extension SHA256 {
    /// Hashes a file in 1 MiB reads, so a large creative is never held in memory whole.
    public static func hex(ofFile path: String) throws -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CacheError("cannot read \(path)")
        }
        defer { try? handle.close() }
        var h = SHA256()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { h.update(chunk) }
        return h.finalizeHex()
    }
}
