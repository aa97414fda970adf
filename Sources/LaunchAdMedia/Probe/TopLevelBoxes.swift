import Foundation

/// The top-level boxes of an MP4/MOV file, read from their 8- or 16-byte headers without
/// loading anything else: enough to tell whether moov (the index) comes before mdat (the media).
enum TopLevelBoxes {
    /// Box types in file order, stopping at the first header that does not make sense.
    static func types(path: String, limit: Int = 64) -> [String] {
        guard let h = FileHandle(forReadingAtPath: path) else { return [] }
        defer { try? h.close() }
        let fileSize = (try? h.seekToEnd()) ?? 0
        var offset: UInt64 = 0
        var types: [String] = []
        while offset + 8 <= fileSize, types.count < limit {
            guard (try? h.seek(toOffset: offset)) != nil, let header = try? h.read(upToCount: 16), header.count >= 8 else { break }
            let bytes = [UInt8](header)
            var size = UInt64(bytes[0..<4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            let type = String(decoding: bytes[4..<8], as: UTF8.self)
            guard bytes[4..<8].allSatisfy({ (0x20...0x7e).contains($0) }) else { break }
            if size == 1 {
                guard bytes.count == 16 else { break }
                size = bytes[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                guard size >= 16 else { break }
            } else if size == 0 {
                size = fileSize - offset  // the box runs to the end of the file
            } else if size < 8 {
                break
            }
            types.append(type)
            offset += size
        }
        return types
    }

    /// true when moov precedes mdat (or there is a moov and no mdat, as in fragmented files
    /// whose media sits in moof/mdat pairs after it); false when mdat comes first or moov is missing.
    static func faststart(path: String) -> Bool {
        let t = types(path: path)
        guard let moov = t.firstIndex(of: "moov") else { return false }
        guard let mdat = t.firstIndex(of: "mdat") else { return true }
        return moov < mdat
    }
}
