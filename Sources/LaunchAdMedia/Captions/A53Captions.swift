import CFFmpeg

/// CEA-608/708 caption bytes carried in H.264 (ATSC A/53): SEI `user_data_registered_itu_t_t35`
/// messages holding `GA94` cc_data, the bytes FFmpeg exports as A53 side data. Read from the
/// packets' SEI NAL units, so captions need no second decode of the video.
enum A53Captions {
    /// The cc_data triplets (flags, byte 1, byte 2) of one H.264 access unit: length-prefixed NAL
    /// units (MP4/MOV, `lengthSize` from avcC) or Annex B start codes (`lengthSize` nil).
    static func triplets(_ data: UnsafeRawBufferPointer, lengthSize: Int?) -> [UInt8] {
        var out: [UInt8] = []
        for nal in units(data, lengthSize: lengthSize) where nal.count > 1 && nal[nal.startIndex] & 0x1F == 6 {
            out += fromSEI(unescaped(nal.dropFirst()))
        }
        return out
    }

    /// The NAL units of an access unit.
    static func units(_ d: UnsafeRawBufferPointer, lengthSize: Int?) -> [ArraySlice<UInt8>] {
        let bytes = [UInt8](d)
        var out: [ArraySlice<UInt8>] = []
        if let n = lengthSize {
            var i = 0
            while i + n <= bytes.count {
                let len = bytes[i..<(i + n)].reduce(0) { $0 << 8 | Int($1) }
                i += n
                guard len > 0, i + len <= bytes.count else { break }
                out.append(bytes[i..<(i + len)])
                i += len
            }
            return out
        }
        // Annex B: units begin after 00 00 01 (a fourth leading zero belongs to the start code).
        var starts: [Int] = []
        var i = 0
        while i + 2 < bytes.count {
            if bytes[i] == 0, bytes[i + 1] == 0, bytes[i + 2] == 1 { starts.append(i + 3); i += 3 } else { i += 1 }
        }
        for (k, s) in starts.enumerated() {
            var e = k + 1 < starts.count ? starts[k + 1] - 3 : bytes.count
            while e > s, bytes[e - 1] == 0 { e -= 1 }
            if e > s { out.append(bytes[s..<e]) }
        }
        return out
    }

    /// Removes emulation prevention bytes (the 03 in 00 00 03).
    static func unescaped(_ nal: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(nal.count)
        var zeros = 0
        for b in nal {
            if zeros >= 2 && b == 3 { zeros = 0; continue }
            zeros = b == 0 ? zeros + 1 : 0
            out.append(b)
        }
        return out
    }

    /// The cc_data of every A/53 message in one SEI NAL unit's payload.
    static func fromSEI(_ p: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        while i < p.count, p[i] != 0x80 {  // 0x80: the RBSP trailing bits
            var type = 0, size = 0
            while i < p.count, p[i] == 0xFF { type += 255; i += 1 }
            guard i < p.count else { break }
            type += Int(p[i]); i += 1
            while i < p.count, p[i] == 0xFF { size += 255; i += 1 }
            guard i < p.count else { break }
            size += Int(p[i]); i += 1
            guard i + size <= p.count else { break }
            if type == 4 { out += ccData(p[i..<(i + size)]) }
            i += size
        }
        return out
    }

    /// ITU-T T.35, USA (B5), ATSC (0031), `GA94`, cc_data (03): the cc_count triplets.
    static func ccData(_ m: ArraySlice<UInt8>) -> [UInt8] {
        let b = Array(m)
        guard b.count >= 10, b[0] == 0xB5, b[1] == 0x00, b[2] == 0x31, b[3...6].elementsEqual("GA94".utf8), b[7] == 0x03,
            b[8] & 0x40 != 0
        else { return [] }
        let count = Int(b[8] & 0x1F)
        guard 10 + count * 3 <= b.count else { return [] }
        return Array(b[10..<(10 + count * 3)])
    }
}

extension Packet {
    /// A packet holding a copy of `bytes`, at `pts` (in the decoder's packet time base).
    static func holding(_ bytes: [UInt8], pts: Int64) throws -> Packet {
        let p = Packet()
        try check(libavcodec.av_new_packet(p.pointer, Int32(bytes.count)), .outOfMemory, "allocating a caption packet")
        bytes.withUnsafeBytes { p.pointer.pointee.data.update(from: $0.bindMemory(to: UInt8.self).baseAddress!, count: bytes.count) }
        p.pointer.pointee.pts = pts
        p.pointer.pointee.dts = pts
        return p
    }
}
