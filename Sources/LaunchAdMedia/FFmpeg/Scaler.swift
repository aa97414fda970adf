import CFFmpeg

/// Converts frames to one pixel format and size (through a SwsScaleContext, remade when the
/// input changes). Used only for pictures the display cannot take as they are (10-bit, yuvj,
/// rgb, ...): yuv420p goes to the screen untouched.
/// Not Sendable: used by the one thread that decodes.
public final class Scaler {
    private var context: SwsScaleContext?
    private var source: (w: Int32, h: Int32, fmt: Int32, fullRange: Bool) = (0, 0, -1, false)
    let target: AVPixelFormat
    private let targetSize: (width: Int, height: Int)?

    /// `size` nil keeps each frame's own size.
    init(to target: AVPixelFormat, size: (width: Int, height: Int)? = nil) {
        self.target = target
        self.targetSize = size
    }

    /// A new frame holding `frame` converted.
    public func convert(_ frame: Frame) throws -> Frame {
        let f = frame.pointer.pointee
        let w = Int32(targetSize?.width ?? Int(f.width)), h = Int32(targetSize?.height ?? Int(f.height))
        let fullRange = frame.isFullRange && !SwsScaleContext.isRGB(AVPixelFormat(rawValue: f.format))
        if context == nil || source != (f.width, f.height, f.format, fullRange) {
            context = nil  // the old one is freed before the new one is made
            context = Scaler.makeContext(f, w, h, target, fullRange: fullRange)
            source = (f.width, f.height, f.format, fullRange)
        }
        guard let context else {
            throw MediaError(
                .convertFailed,
                "cannot convert \(SwsScaleContext.name(AVPixelFormat(rawValue: f.format))) to \(SwsScaleContext.name(target))")
        }
        let out = Frame()
        out.pointer.pointee.width = w
        out.pointer.pointee.height = h
        out.pointer.pointee.format = target.rawValue
        try check(libavutil.av_frame_get_buffer(out.pointer, 0), .outOfMemory, "allocating a converted picture")
        try context.scale(frame, into: out, doing: "converting a picture")
        out.pointer.pointee.pts = f.pts
        out.pointer.pointee.best_effort_timestamp = f.best_effort_timestamp
        return out
    }

    /// A context for one conversion. swscale knows yuvj formats are full range, but not a
    /// yuv420p (VP9) or 10-bit picture tagged full range: it is told before it is set up (set
    /// afterwards, a same-size yuv420p copy would ignore it), or 0x20 would show as 0x12.
    private static func makeContext(_ f: AVFrame, _ w: Int32, _ h: Int32, _ target: AVPixelFormat, fullRange: Bool) -> SwsScaleContext? {
        SwsScaleContext([
            ("srcw", Int64(f.width)), ("srch", Int64(f.height)), ("src_format", Int64(f.format)),
            ("dstw", Int64(w)), ("dsth", Int64(h)), ("dst_format", Int64(target.rawValue)),
            ("sws_flags", Int64(SWS_BILINEAR)), ("src_range", fullRange ? 1 : 0)
        ])
    }
}
