/// A picture's size read from its header bytes (PNG's IHDR, GIF's logical screen, JPEG's first
/// start-of-frame), before any decoder sees it: a 995 KB PNG can declare 16000x16000 and take
/// a gigabyte to decode.
public enum PictureHeader {
    /// The longest side an icon may declare.
    public static let maxIconSide = 4096
    /// How many leading bytes `size(of:)` needs at most (a JPEG's EXIF can come before its frame).
    public static let bytesNeeded = 262_144

    /// Width and height, or nil when the bytes are not a PNG, GIF or JPEG whose size can be read.
    public static func size<C: Collection>(of bytes: C) -> (width: Int, height: Int)? where C.Element == UInt8 {
        let b = Array(bytes.prefix(bytesNeeded))
        func be16(_ i: Int) -> Int { Int(b[i]) << 8 | Int(b[i + 1]) }
        func be32(_ i: Int) -> Int { Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3]) }
        if b.count >= 24, b[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
            b[12..<16].elementsEqual(Array("IHDR".utf8))
        {
            return (be32(16), be32(20))
        }
        if b.count >= 10, b[0..<4].elementsEqual(Array("GIF8".utf8)) {
            return (Int(b[6]) | Int(b[7]) << 8, Int(b[8]) | Int(b[9]) << 8)
        }
        guard b.count >= 4, b[0] == 0xFF, b[1] == 0xD8 else { return nil }
        // JPEG: segments until a start of frame (SOF0-SOF15 but DHT, JPG and DAC).
        var i = 2
        while i + 9 < b.count {
            guard b[i] == 0xFF else { return nil }
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue }
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { i += 2; continue }
            if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
                return (be16(i + 7), be16(i + 5))
            }
            if marker == 0xDA || marker == 0xD9 { return nil }
            i += 2 + be16(i + 2)
        }
        return nil
    }
}
