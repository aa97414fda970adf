import Foundation

/// Captioned media made with the ffmpeg tool: a text track muxed beside a colour video, and
/// CEA-608 from a Scenarist (.scc) file in a QuickTime c608 track.
public enum CaptionFixtures {
    public static let srt = "1\n00:00:00,300 --> 00:00:01,400\nHello <i>captions</i>\n\n2\n00:00:01,600 --> 00:00:02,500\nSecond cue\n"

    /// 3 s of red with the SRT above as a track of `codec` (mov_text in .mp4, webvtt/subrip/ass in .mkv).
    public static func textTrack(codec: String, ext: String, language: String = "eng") throws -> String {
        let subs = try Fixtures.write("captions-\(Fixtures.stableHash(srt)).srt", Data(srt.utf8))
        return try Fixtures.make(
            "captioned-\(codec).\(ext)",
            [
                "-f", "lavfi", "-i", "color=c=red:s=320x240:r=25:d=3", "-i", subs,
                "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:s", codec,
                "-metadata:s:s:0", "language=\(language)", "-t", "3"
            ])
    }

    /// CEA-608 byte pairs (odd parity) that load "HI" and show it at 0.4 s, then erase it at 2 s.
    public static let scc = "Scenarist_SCC V1.0\n\n00:00:00:10\t9420 9420 94ae 94ae 9470 9470 c849 942f 942f\n\n00:00:02:00\t942c 942c\n\n"

    /// 3 s of red with the 608 captions above in a c608 track.
    public static func cea608() throws -> String {
        let cc = try Fixtures.write("captions-\(Fixtures.stableHash(scc)).scc", Data(scc.utf8))
        return try Fixtures.make(
            "captioned-608.mov",
            [
                "-f", "lavfi", "-i", "color=c=red:s=320x240:r=25:d=3", "-i", cc,
                "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:s", "copy", "-t", "3"
            ])
    }
}

extension CaptionFixtures {
    /// 3 s of red H.264 (25 fps, no B-frames) carrying the 608 bytes of `scc` as ATSC A/53
    /// captions: ffmpeg encodes the video as Annex B with access unit delimiters, an SEI
    /// `GA94` message is put into each access unit here (Debian's ffmpeg 5.1 has no way to
    /// write one: no 608 encoder, and `libx264 -a53cc` only forwards side data the input
    /// frames already carry), and ffmpeg copies the stream into MP4. ffprobe then reports
    /// "Closed Captions" on the video, as for broadcast files.
    public static func a53() throws -> String {
        let raw = try Fixtures.make(
            "a53-raw.h264",
            [
                "-f", "lavfi", "-i", "color=c=red:s=320x240:r=25:d=3", "-c:v", "libx264", "-pix_fmt", "yuv420p",
                "-bf", "0", "-x264-params", "aud=1", "-f", "h264"
            ])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        // Byte pairs by frame: load "HI" from frame 5, show it (end of caption) at frame 13, erase it at frame 50.
        var pairs: [Int: [UInt8]] = [:]
        for (k, pair) in ["9420", "9420", "94ae", "94ae", "9470", "9470", "c849", "942f", "942f"].enumerated() { pairs[5 + k] = hex(pair) }
        pairs[50] = hex("942c")
        pairs[51] = hex("942c")
        var out: [UInt8] = []
        var frame = 0
        var i = 0
        while i < bytes.count {
            // Each access unit begins with a delimiter (NAL type 9): the SEI goes right after it.
            if i + 4 < bytes.count, bytes[i] == 0, bytes[i + 1] == 0, bytes[i + 2] == 1, bytes[i + 3] & 0x1F == 9 {
                out += bytes[i..<(i + 5)]
                i += 5
                let pair = pairs[frame] ?? [0x80, 0x80]
                let message: [UInt8] = [0xB5, 0x00, 0x31] + Array("GA94".utf8) + [0x03, 0x41, 0xFF, 0xFC] + pair + [0xFF]
                out += [0x00, 0x00, 0x01, 0x06, 0x04, UInt8(message.count)] + message + [0x80]
                frame += 1
                continue
            }
            out.append(bytes[i])
            i += 1
        }
        let cc = try Fixtures.write("a53-cc-\(Fixtures.stableHash(raw)).h264", Data(out))
        return try Fixtures.make("a53-cc.mp4", ["-framerate", "25", "-i", cc, "-c", "copy"])
    }

    private static func hex(_ s: String) -> [UInt8] { [UInt8(s.prefix(2), radix: 16)!, UInt8(s.suffix(2), radix: 16)!] }
}
