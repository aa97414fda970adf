import CFFmpeg

/// The FFmpeg this process runs against (not the headers it was built with): a bug report needs it.
public enum FFmpegVersion {
    /// e.g. "5.1.6-0+deb12u1 (libavformat 59.27.100, libavcodec 59.37.100)".
    public static var runtime: String {
        let release = String(cString: av_version_info())
        return "\(release) (libavformat \(dotted(avformat_version())), libavcodec \(dotted(avcodec_version())))"
    }

    /// FFmpeg packs a library version as major << 16 | minor << 8 | micro.
    static func dotted(_ v: UInt32) -> String { "\(v >> 16).\((v >> 8) & 0xFF).\(v & 0xFF)" }
}
