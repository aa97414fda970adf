import CFFmpeg
import LaunchAdCore

/// Facts about one stream, copied out so nothing borrows the demuxer's memory.
public struct StreamInfo: Sendable {
    public let index: Int
    let mediaType: AVMediaType
    let codecID: AVCodecID
    public let codecName: String
    let timeBase: AVRational
    public let width: Int
    public let height: Int
    let sampleAspect: AVRational
    let pixelFormat: AVPixelFormat
    public let sampleRate: Int
    public let channels: Int
    /// Display-matrix rotation in degrees clockwise, normalised to 0, 90, 180 or 270.
    public let rotation: Int
    let averageFrameRate: AVRational
    let realFrameRate: AVRational
    public let durationSeconds: Double?
    public let frameCount: Int
    public let bitRate: Int
    public let profile: Int32
    public let level: Int32

    init(_ st: UnsafeMutablePointer<AVStream>) {
        let par = st.pointee.codecpar!.pointee
        index = Int(st.pointee.index)
        mediaType = par.codec_type
        codecID = par.codec_id
        codecName = libavcodec.avcodec_get_name(par.codec_id).map { String(cString: $0) } ?? "unknown"
        timeBase = st.pointee.time_base
        width = Int(par.width)
        height = Int(par.height)
        sampleAspect = par.sample_aspect_ratio
        pixelFormat = AVPixelFormat(rawValue: par.format)
        sampleRate = Int(par.sample_rate)
        channels = Int(par.ch_layout.nb_channels)
        // av_display_rotation_get is counter-clockwise; players turn the picture clockwise by its negation.
        let ccw = launchad_stream_rotation(st)
        var cw = Checked.int(-ccw.rounded(), clampedTo: -360...360) % 360
        if cw < 0 { cw += 360 }
        rotation = (cw + 45) / 90 % 4 * 90
        averageFrameRate = st.pointee.avg_frame_rate
        realFrameRate = st.pointee.r_frame_rate
        let d = st.pointee.duration
        durationSeconds = d == noPTS || d <= 0 ? nil : Double(d) * av_q2d(st.pointee.time_base)
        frameCount = Int(st.pointee.nb_frames)
        bitRate = Int(par.bit_rate)
        profile = par.profile
        level = par.level
    }

    /// Seconds for a timestamp in this stream's time base.
    public func seconds(_ ts: Int64) -> Double { Double(ts) * av_q2d(timeBase) }

    /// The size a viewer sees: sample aspect applied to the width, then the rotation.
    public var displaySize: (width: Int, height: Int) {
        var w = width
        if sampleAspect.num > 0, sampleAspect.den > 0, sampleAspect.num != sampleAspect.den {
            w = Checked.rounded(Double(width) * av_q2d(sampleAspect)) ?? width
        }
        return rotation % 180 == 0 ? (w, height) : (height, w)
    }
}
