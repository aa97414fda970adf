import CFFmpeg

/// Owns one initialised SwsContext: one conversion, its sizes, formats and ranges fixed when it
/// is made. The only owner of swscale state; `Scaler` and `PictureConverter` keep theirs in one
/// and make a new one when the input changes. Not Sendable: its owners use it on one thread.
final class SwsScaleContext {
    private let pointer: OpaquePointer

    /// An initialised context with `options` (AVOptions of SwsContext) set; nil when swscale
    /// refuses an option or the conversion.
    init?(_ options: [(String, Int64)]) {
        guard let ctx = libswscale.sws_alloc_context() else { return nil }
        let raw = UnsafeMutableRawPointer(ctx)
        for (name, value) in options where libavutil.av_opt_set_int(raw, name, value, 0) < 0 {
            libswscale.sws_freeContext(ctx)
            return nil
        }
        guard libswscale.sws_init_context(ctx, nil, nil) >= 0 else {
            libswscale.sws_freeContext(ctx)
            return nil
        }
        pointer = ctx
    }

    deinit { libswscale.sws_freeContext(pointer) }

    /// Converts `source` into `out`, whose size, format and buffers are already set.
    /// sws_scale_frame reads the planes from the frames themselves (pointers taken from
    /// withUnsafePointer on a copy of `data` would outlive the copy).
    func scale(_ source: Frame, into out: Frame, doing what: String) throws {
        try check(libswscale.sws_scale_frame(pointer, out.pointer, source.pointer), .convertFailed, what)
    }

    /// The source's YUV matrix (`SWS_CS_*`; swscale assumes BT.601 otherwise), for a conversion to RGB.
    func setSourceMatrix(_ space: Int32, fullRange: Bool) {
        _ = libswscale.sws_setColorspaceDetails(
            pointer, libswscale.sws_getCoefficients(space), fullRange ? 1 : 0,
            libswscale.sws_getCoefficients(SWS_CS_DEFAULT), 1, 0, 1 << 16, 1 << 16)
    }

    static func isRGB(_ fmt: AVPixelFormat) -> Bool {
        guard let d = libavutil.av_pix_fmt_desc_get(fmt) else { return false }
        return d.pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB) != 0
    }

    static func name(_ fmt: AVPixelFormat) -> String {
        libavutil.av_get_pix_fmt_name(fmt).map { String(cString: $0) } ?? "unknown"
    }
}
