import CFFmpeg

// Swift-level views of FFmpeg facts, so the player layer never touches FFmpeg's C types.

public enum ColorMatrix: Sendable {
    case bt601, bt709, unspecified
}

extension Demuxer {
    public var bestVideoStream: Int? { bestStream(AVMEDIA_TYPE_VIDEO) }
    public var bestAudioStream: Int? { bestStream(AVMEDIA_TYPE_AUDIO) }

    /// Read by an image demuxer (png_pipe, jpeg_pipe, image2, ...): one picture, not a video.
    public var isStillImage: Bool { formatName == "image2" || formatName.hasSuffix("_pipe") }
}

extension Decoder {
    /// The colour matrix the stream declares, for choosing the YUV-to-RGB conversion.
    public var colorMatrix: ColorMatrix {
        switch context.pointee.colorspace {
        case AVCOL_SPC_BT709: return .bt709
        case AVCOL_SPC_BT470BG, AVCOL_SPC_SMPTE170M, AVCOL_SPC_SMPTE240M: return .bt601
        default: return .unspecified
        }
    }
}

extension Frame {
    /// Whether the picture can go straight into an IYUV texture: yuv420p in limited range, the
    /// only range SDL's YUV conversion knows. Full-range pictures go through swscale.
    public var isYUV420P: Bool { pixelFormat == AV_PIX_FMT_YUV420P && !isFullRange }

    /// Full-range ("pc", JPEG) levels: a yuvj format, or any picture tagged so.
    public var isFullRange: Bool {
        if pointer.pointee.color_range == AVCOL_RANGE_JPEG { return true }
        switch pixelFormat {
        case AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P, AV_PIX_FMT_YUVJ440P, AV_PIX_FMT_YUVJ411P: return true
        default: return false
        }
    }
}

/// A decoded picture's three 8-bit planes, borrowed for an upload: valid only inside
/// `Frame.withYUVPlanes`, which keeps the frame alive meanwhile.
public struct YUVPlanes {
    public let width: Int32, height: Int32
    public let y: UnsafePointer<UInt8>, yPitch: Int32
    public let u: UnsafePointer<UInt8>, uPitch: Int32
    public let v: UnsafePointer<UInt8>, vPitch: Int32
}

extension Frame {
    /// Lends the planes of a planar 8-bit YUV picture (nil for other layouts).
    public func withYUVPlanes<R>(_ body: (YUVPlanes) throws -> R) rethrows -> R? {
        let f = pointer.pointee
        guard let y = f.data.0, let u = f.data.1, let v = f.data.2 else { return nil }
        return try withExtendedLifetime(self) {
            try body(
                YUVPlanes(
                    width: f.width, height: f.height, y: UnsafePointer(y), yPitch: f.linesize.0,
                    u: UnsafePointer(u), uPitch: f.linesize.1, v: UnsafePointer(v), vPitch: f.linesize.2))
        }
    }
}

extension Packet {
    public func unref() { libavcodec.av_packet_unref(pointer) }
}

extension StreamInfo {
    /// One frame's duration from the average frame rate, else 1/25 s.
    public var frameDuration: Double {
        averageFrameRate.num > 0 && averageFrameRate.den > 0 ? 1 / av_q2d(averageFrameRate) : 1.0 / 25
    }
}

extension Scaler {
    /// Converts pictures to yuv420p, for the screen; at `size` when given, else their own.
    public static func toYUV420P(size: (width: Int, height: Int)? = nil) -> Scaler { Scaler(to: AV_PIX_FMT_YUV420P, size: size) }
}

extension Resampler {
    /// Interleaved 32-bit float output, what the SDL audio device is opened with.
    public static func float32(rate: Int, channels: Int) -> Resampler {
        Resampler(outputRate: rate, outputChannels: channels, outputFormat: AV_SAMPLE_FMT_FLT)
    }
}
