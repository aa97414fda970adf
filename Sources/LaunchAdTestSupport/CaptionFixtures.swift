import Foundation

/// Captioned media made with the ffmpeg tool: a text track muxed beside a colour video, and
/// CEA-608 from a Scenarist (.scc) file in a QuickTime c608 track.
public enum CaptionFixtures {
    public static let srt = "1\n00:00:00,300 --> 00:00:01,400\nHello <i>captions</i>\n\n2\n00:00:01,600 --> 00:00:02,500\nSecond cue\n"

    /// 3 s of red with the SRT above as a track of `codec` (mov_text in .mp4, webvtt/subrip/ass in .mkv).
    public static func textTrack(codec: String, ext: String, language: String = "eng") throws -> String {
        let subs = try Fixtures.write("captions-\(Fixtures.stableHash(srt)).srt", Data(srt.utf8))
        return try Fixtures.make("captioned-\(codec).\(ext)", ["-f", "lavfi", "-i", "color=c=red:s=320x240:r=25:d=3", "-i", subs,
                                                               "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:s", codec,
                                                               "-metadata:s:s:0", "language=\(language)", "-t", "3"])
    }

    /// CEA-608 byte pairs (odd parity) that load "HI" and show it at 0.4 s, then erase it at 2 s.
    public static let scc = "Scenarist_SCC V1.0\n\n00:00:00:10\t9420 9420 94ae 94ae 9470 9470 c849 942f 942f\n\n00:00:02:00\t942c 942c\n\n"

    /// 3 s of red with the 608 captions above in a c608 track.
    public static func cea608() throws -> String {
        let cc = try Fixtures.write("captions-\(Fixtures.stableHash(scc)).scc", Data(scc.utf8))
        return try Fixtures.make("captioned-608.mov", ["-f", "lavfi", "-i", "color=c=red:s=320x240:r=25:d=3", "-i", cc,
                                                       "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:s", "copy", "-t", "3"])
    }
}
