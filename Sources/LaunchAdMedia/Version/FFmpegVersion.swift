import CFFmpeg

/// The FFmpeg this process runs against (not the headers it was built with): a bug report needs it.
public enum FFmpegVersion {
    /// e.g. "5.1.6-0+deb12u1 (libavutil 57.28.100)". Asked of libavutil alone: the release names
    /// the build of every FFmpeg library, and opening libavformat (about 130 libraries) would
    /// cost `--version` 30 ms.
    public static var runtime: String {
        let release = libavutil.av_version_info().map { String(cString: $0) } ?? "unknown"
        return "\(release) (libavutil \(dotted(libavutil.avutil_version())))"
    }

    /// FFmpeg packs a library version as major << 16 | minor << 8 | micro.
    static func dotted(_ v: UInt32) -> String { "\(v >> 16).\((v >> 8) & 0xFF).\(v & 0xFF)" }
}
