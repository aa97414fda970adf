import CFFmpeg
import LaunchAdCore

extension MediaCapabilities {
    /// What this process's FFmpeg can open and decode, asked of libavformat and libavcodec at
    /// run time (a Debian build without a decoder, or a newer one with more, answers for itself),
    /// within what a network creative may be (one self-contained file: no HLS or DASH playlist).
    public static func local() -> MediaCapabilities {
        let demuxers = demuxerNames.filter { libavformat.av_find_input_format($0) != nil && Demuxer.networkFormats.contains($0) }
        let decoders = decoderNames.filter { libavcodec.avcodec_find_decoder_by_name($0) != nil }
        return MediaCapabilities(demuxers: Set(demuxers), decoders: Set(decoders))
    }
}
