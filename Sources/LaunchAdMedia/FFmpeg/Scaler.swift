import CFFmpeg

/// Owns a SwsContext converting frames to one pixel format and size. Used only for pictures the
/// display cannot take as they are (10-bit, yuvj, rgb, ...): yuv420p goes to the screen untouched.
// unchecked Sendable: owns the SwsContext; used by one thread at a time (handed over, never shared).
public final class Scaler: @unchecked Sendable {
    private var context: OpaquePointer?
    private var source: (w: Int32, h: Int32, fmt: Int32, fullRange: Bool) = (0, 0, -1, false)
    let target: AVPixelFormat
    private let targetSize: (width: Int, height: Int)?

    /// `size` nil keeps each frame's own size.
    init(to target: AVPixelFormat, size: (width: Int, height: Int)? = nil) {
        self.target = target
        self.targetSize = size
    }

    deinit { sws_freeContext(context) }

    /// A new frame holding `frame` converted.
    public func convert(_ frame: Frame) throws -> Frame {
        let f = frame.pointer.pointee
        let w = Int32(targetSize?.width ?? Int(f.width)), h = Int32(targetSize?.height ?? Int(f.height))
        let fullRange = frame.isFullRange && !Scaler.isRGB(AVPixelFormat(rawValue: f.format))
        if context == nil || source != (f.width, f.height, f.format, fullRange) {
            sws_freeContext(context)
            context = Scaler.makeContext(f, w, h, target, fullRange: fullRange)
            source = (f.width, f.height, f.format, fullRange)
            guard context != nil else {
                throw MediaError("convert_failed", "cannot convert \(Scaler.name(AVPixelFormat(rawValue: f.format))) to \(Scaler.name(target))")
            }
        }
        let out = Frame()
        out.pointer.pointee.width = w
        out.pointer.pointee.height = h
        out.pointer.pointee.format = target.rawValue
        try check(av_frame_get_buffer(out.pointer, 0), "out_of_memory", "allocating a converted picture")
        // sws_scale_frame reads the planes from the frames themselves (pointers taken from
        // withUnsafePointer on a copy of `data` would outlive the copy).
        try check(sws_scale_frame(context, out.pointer, frame.pointer), "convert_failed", "converting a picture")
        out.pointer.pointee.pts = f.pts
        out.pointer.pointee.best_effort_timestamp = f.best_effort_timestamp
        return out
    }

    /// A context for one conversion. swscale knows yuvj formats are full range, but not a
    /// yuv420p (VP9) or 10-bit picture tagged full range: it is told before it is set up (set
    /// afterwards, a same-size yuv420p copy would ignore it), or 0x20 would show as 0x12.
    private static func makeContext(_ f: AVFrame, _ w: Int32, _ h: Int32, _ target: AVPixelFormat, fullRange: Bool) -> OpaquePointer? {
        makeContext([
            ("srcw", Int64(f.width)), ("srch", Int64(f.height)), ("src_format", Int64(f.format)),
            ("dstw", Int64(w)), ("dsth", Int64(h)), ("dst_format", Int64(target.rawValue)),
            ("sws_flags", Int64(SWS_BILINEAR)), ("src_range", fullRange ? 1 : 0),
        ])
    }

    /// An initialised context with `options` (AVOptions of SwsContext) set, or nil.
    static func makeContext(_ options: [(String, Int64)]) -> OpaquePointer? {
        guard let ctx = sws_alloc_context() else { return nil }
        let raw = UnsafeMutableRawPointer(ctx)
        for (name, value) in options where av_opt_set_int(raw, name, value, 0) < 0 {
            sws_freeContext(ctx)
            return nil
        }
        guard sws_init_context(ctx, nil, nil) >= 0 else {
            sws_freeContext(ctx)
            return nil
        }
        return ctx
    }

    static func isRGB(_ fmt: AVPixelFormat) -> Bool {
        guard let d = av_pix_fmt_desc_get(fmt) else { return false }
        return d.pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB) != 0
    }

    static func name(_ fmt: AVPixelFormat) -> String {
        av_get_pix_fmt_name(fmt).map { String(cString: $0) } ?? "unknown"
    }
}
