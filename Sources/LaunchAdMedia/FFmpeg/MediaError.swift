import CFFmpeg
import LaunchAdCore

/// A failure in the media layer, with FFmpeg's own text captured where the call failed.
public struct MediaError: Error, CustomStringConvertible, Equatable {
    /// Stable, for the `error` event's `code`: open_failed, no_video_stream, decoder_missing, ...
    public let code: FailureCode
    public let message: String
    /// The AVERROR value, when there was one.
    public let averror: Int32?

    public init(_ code: FailureCode, _ message: String, averror: Int32? = nil) {
        self.code = code
        self.message = message
        self.averror = averror
    }

    public var description: String { message }

    /// av_strerror's text for an AVERROR code.
    public static func text(_ err: Int32) -> String {
        var buf = [CChar](repeating: 0, count: Int(launchad_av_error_max_string_size()))
        _ = libavutil.av_strerror(err, &buf, buf.count)
        return String(cBuffer: buf)
    }
}

/// Throws a MediaError for a negative FFmpeg return value; returns the value otherwise.
@discardableResult
func check(_ ret: Int32, _ code: FailureCode, _ what: @autoclosure () -> String) throws -> Int32 {
    if ret < 0 { throw MediaError(code, "\(what()): \(MediaError.text(ret))", averror: ret) }
    return ret
}

enum AVErr {
    static let again = launchad_averror_eagain()
    static let eof = launchad_averror_eof()
}

let noPTS = launchad_av_nopts_value()
