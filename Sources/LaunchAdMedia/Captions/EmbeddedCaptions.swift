import CFFmpeg
import LaunchAdCore

/// The captions carried in a media file: its text subtitle track (mov_text/tx3g in MP4,
/// WebVTT, SubRip or ASS in Matroska/WebM) or a CEA-608 track (ccaption), decoded with libavcodec.
public struct EmbeddedCaptions: Sendable {
    public var codec: String
    public var language: String?
    public var cues: [CaptionCue]
    /// Packets that could not be decoded, and why the first one failed.
    public var skipped = 0
    public var firstProblem: String?

    /// The decoders whose output is text (bitmap subtitles such as DVD or PGS are not captions here).
    static let textCodecs: Set<AVCodecID> = [
        AV_CODEC_ID_MOV_TEXT, AV_CODEC_ID_WEBVTT, AV_CODEC_ID_SUBRIP, AV_CODEC_ID_TEXT,
        AV_CODEC_ID_ASS, AV_CODEC_ID_SSA, AV_CODEC_ID_EIA_608
    ]
    /// How long a cue whose end the track does not say stays, at most.
    static let openCueMs = 4000

    /// Reads every cue of the file's caption track: only that stream's packets are read (the
    /// others are discarded by the demuxer). nil when the file has no text track. `preferred`
    /// picks among several tracks by language, else the first. `abort` stops the read.
    public static func read(path: String, preferred: String? = nil, abort: AbortFlag = AbortFlag()) throws -> EmbeddedCaptions? {
        let demuxer = try Demuxer(path: path, findStreamInfo: false, abort: abort)
        let candidates = (0..<demuxer.streamCount).filter {
            let par = demuxer.avStream($0).pointee.codecpar.pointee
            return par.codec_type == AVMEDIA_TYPE_SUBTITLE && textCodecs.contains(par.codec_id)
        }
        let languages = candidates.map { language(demuxer.avStream($0)) }
        guard let pick = CaptionLanguage.choose(languages, preferred: preferred, locale: nil) else {
            return try readA53(demuxer)
        }
        let index = candidates[pick]
        for i in 0..<demuxer.streamCount { demuxer.avStream(i).pointee.discard = i == index ? AVDISCARD_DEFAULT : AVDISCARD_ALL }
        let decoder = try demuxer.makeDecoder(stream: index)
        var out = EmbeddedCaptions(codec: decoder.codecName, language: languages[pick], cues: [])
        let packet = Packet()
        while try demuxer.read(into: packet) {
            defer { libavcodec.av_packet_unref(packet.pointer) }
            guard packet.streamIndex == index else { continue }
            guard out.cues.count < CaptionFormat.maxCues else { break }
            out.decode(packet, with: decoder)
        }
        out.drain(decoder)
        return out
    }

    /// One packet's cue added; one that cannot be decoded is counted, with the first reason.
    mutating func decode(_ packet: Packet, with decoder: Decoder) {
        do {
            if let cue = try decoder.decodeSubtitle(packet, gapMs: EmbeddedCaptions.openCueMs) { add(cue) }
        } catch {
            skipped += 1
            if firstProblem == nil { firstProblem = "\(error)" }
        }
    }

    /// Decoders that hold a caption until the next command (ccaption) give it up when drained.
    mutating func drain(_ decoder: Decoder) {
        let empty = Packet()
        for _ in 0..<4 {
            guard let cue = try? decoder.decodeSubtitle(empty, gapMs: EmbeddedCaptions.openCueMs), add(cue) else { break }
        }
    }

    /// A cue without an end gives way to the next one (608 and some text tracks say only when a caption starts).
    /// CEA-608 carried in the H.264 video's SEI messages (A/53), fed to the ccaption decoder in
    /// presentation order; nil when the video carries none.
    static func readA53(_ demuxer: Demuxer) throws -> EmbeddedCaptions? {
        guard
            let index = (0..<demuxer.streamCount).first(where: {
                demuxer.avStream($0).pointee.codecpar.pointee.codec_id == AV_CODEC_ID_H264
            })
        else { return nil }
        let stream = demuxer.avStream(index)
        for i in 0..<demuxer.streamCount { demuxer.avStream(i).pointee.discard = i == index ? AVDISCARD_DEFAULT : AVDISCARD_ALL }
        // avcC extradata (MP4, MOV, Matroska) says the NAL length size; otherwise Annex B.
        let par = stream.pointee.codecpar.pointee
        let lengthSize: Int? = par.extradata_size > 4 && par.extradata[0] == 1 ? Int(par.extradata[4] & 3) + 1 : nil
        var found: [(pts: Int64, bytes: [UInt8])] = []
        let packet = Packet()
        while try demuxer.read(into: packet) {
            defer { libavcodec.av_packet_unref(packet.pointer) }
            guard packet.streamIndex == index, let data = packet.pointer.pointee.data, let pts = packet.pts ?? packet.dts else { continue }
            let bytes = A53Captions.triplets(UnsafeRawBufferPointer(start: data, count: packet.size), lengthSize: lengthSize)
            if !bytes.isEmpty { found.append((pts, bytes)) }
        }
        guard !found.isEmpty else { return nil }
        let decoder = try Decoder(codec: AV_CODEC_ID_EIA_608, parameters: nil, timeBase: stream.pointee.time_base)
        var out = EmbeddedCaptions(codec: "a53 \(decoder.codecName)", language: nil, cues: [])
        // Packets come in decode order; captions are written in presentation order.
        for (pts, bytes) in found.sorted(by: { $0.pts < $1.pts }) {
            let p = try Packet.holding(bytes, pts: pts)
            out.decode(p, with: decoder)
        }
        out.drain(decoder)
        return out
    }

    /// A repeat of the last cue (a drained decoder says it again) is not added: false.
    @discardableResult
    mutating func add(_ cue: CaptionCue) -> Bool {
        if let last = cues.last, last.startMs == cue.startMs, last.text == cue.text { return false }
        if let last = cues.indices.last, cues[last].endMs > cue.startMs, cues[last].startMs < cue.startMs {
            cues[last].endMs = cue.startMs
        }
        cues.append(cue)
        return true
    }

    private static func language(_ st: UnsafeMutablePointer<AVStream>) -> String? {
        guard let e = libavutil.av_dict_get(st.pointee.metadata, "language", nil, 0), let v = e.pointee.value else { return nil }
        let s = String(cString: v)
        return s.isEmpty || s == "und" ? nil : s
    }
}
