import CFFmpeg

/// Owns one AVFrame.
// unchecked Sendable: owns the AVFrame; used by one thread at a time (handed over, never shared).
public final class Frame: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<AVFrame>

    public init() {
        guard let p = libavutil.av_frame_alloc() else { fatalError("av_frame_alloc: out of memory") }
        pointer = p
    }

    deinit {
        var p: UnsafeMutablePointer<AVFrame>? = pointer
        libavutil.av_frame_free(&p)
    }

    public var width: Int { Int(pointer.pointee.width) }
    public var height: Int { Int(pointer.pointee.height) }
    var pixelFormat: AVPixelFormat { AVPixelFormat(rawValue: pointer.pointee.format) }
    var sampleFormat: AVSampleFormat { AVSampleFormat(rawValue: pointer.pointee.format) }
    public var sampleCount: Int { Int(pointer.pointee.nb_samples) }
    public var sampleRate: Int { Int(pointer.pointee.sample_rate) }
    public var channelCount: Int { Int(pointer.pointee.ch_layout.nb_channels) }
    /// best_effort_timestamp, in the stream's time base.
    public var bestEffortPTS: Int64? {
        let t = pointer.pointee.best_effort_timestamp
        return t == noPTS ? nil : t
    }
    public var decodeErrorFlags: Int32 { pointer.pointee.decode_error_flags }
    public var isCorrupt: Bool { pointer.pointee.flags & AV_FRAME_FLAG_CORRUPT != 0 }

    /// Moves this frame's data into a new Frame, leaving this one blank for the next decode.
    public func moveOut() -> Frame {
        let moved = Frame()
        libavutil.av_frame_move_ref(moved.pointer, pointer)
        return moved
    }

    public func unref() { libavutil.av_frame_unref(pointer) }
}
