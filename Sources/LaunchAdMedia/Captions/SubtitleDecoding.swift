import CFFmpeg
import LaunchAdCore

extension Decoder {
    /// Decodes one subtitle packet (libavcodec's text decoders: mov_text, webvtt, subrip, ass,
    /// and ccaption for CEA-608) into a cue on the stream's clock, in ms. nil: the packet
    /// clears the screen (an empty mov_text sample) or holds nothing to show.
    /// `gapMs`: how long a cue without an end stays (until the next one replaces it).
    func decodeSubtitle(_ packet: Packet, gapMs: Int) throws -> CaptionCue? {
        var sub = AVSubtitle()
        var got: Int32 = 0
        let ret = libavcodec.avcodec_decode_subtitle2(context, &sub, &got, packet.pointer)
        guard ret >= 0 else { throw MediaError(.decodeFailed, "\(codecName) decoding: \(MediaError.text(ret))", averror: ret) }
        guard got != 0 else { return nil }
        defer { libavcodec.avsubtitle_free(&sub) }
        var lines: [String] = []
        for i in 0..<Int(sub.num_rects) {
            guard let rect = sub.rects[i]?.pointee else { continue }
            if rect.type == SUBTITLE_ASS, let ass = rect.ass {
                lines.append(CaptionText.ass(String(cString: ass)))
            } else if rect.type == SUBTITLE_TEXT, let text = rect.text {
                lines.append(String(cString: text))
            }
        }
        let text = lines.filter { !$0.isEmpty }.joined(separator: "\n")
        // A hostile file's timestamps may be anything: only a plausible time is kept.
        guard !text.isEmpty, sub.pts != noPTS, abs(sub.pts) < Int64(1) << 50 else { return nil }
        let base = Int(sub.pts) / 1000  // AV_TIME_BASE (µs) to ms
        let start = base + Int(sub.start_display_time)
        // UINT32_MAX or 0: "until the next one".
        let shown =
            sub.end_display_time == 0 || sub.end_display_time == UInt32.max
            ? gapMs : Int(sub.end_display_time) - Int(sub.start_display_time)
        return CaptionCue(startMs: start, endMs: start + max(1, shown), text: text)
    }
}
