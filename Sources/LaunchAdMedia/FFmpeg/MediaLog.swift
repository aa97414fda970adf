import CFFmpeg
import Foundation

/// FFmpeg's own log: quiet by default, since every failure reaches the user as an event with
/// FFmpeg's text; LAUNCHAD_FFMPEG_LOG=warning (or info, debug) shows it on stderr.
public enum MediaLog {
    public static func configure() {
        let levels: [String: Int32] = [
            "quiet": AV_LOG_QUIET, "error": AV_LOG_ERROR, "warning": AV_LOG_WARNING,
            "info": AV_LOG_INFO, "debug": AV_LOG_DEBUG
        ]
        let asked = ProcessInfo.processInfo.environment["LAUNCHAD_FFMPEG_LOG"].flatMap { levels[$0] }
        libavutil.av_log_set_level(asked ?? AV_LOG_FATAL)
    }
}
