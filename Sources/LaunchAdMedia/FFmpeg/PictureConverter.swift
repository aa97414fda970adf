import CFFmpeg

/// Converts and scales decoded yuv420p pictures once, with swscale's SIMD code and slice
/// threads, straight into packed 32-bit RGB memory the caller owns (a locked streaming texture
/// of exactly the drawn size), so a software renderer only has to copy it.
public final class PictureConverter: @unchecked Sendable {
    /// Byte order of a pixel in memory; the fourth byte is unused.
    public enum Layout: Sendable { case bgrx, rgbx }

    private let layout: Layout
    private let threads: Int
    private var context: OpaquePointer?
    private var key: (w: Int32, h: Int32, fmt: Int32, dw: Int, dh: Int, matrix: Int32) = (0, 0, -1, 0, 0, -1)

    public init(layout: Layout, threads: Int) {
        self.layout = layout
        self.threads = max(1, threads)
    }

    deinit { sws_freeContext(context) }

    /// Writes `frame` scaled to `width`x`height` into `pixels` (rows `pitch` bytes apart), with
    /// `matrix`'s coefficients (unspecified: BT.601 up to 576 lines, BT.709 above, as SDL does).
    public func convert(_ frame: Frame, width: Int, height: Int, matrix: ColorMatrix, into pixels: UnsafeMutableRawPointer, pitch: Int) throws {
        let f = frame.pointer.pointee
        let space: Int32
        switch matrix {
        case .bt709: space = SWS_CS_ITU709
        case .bt601: space = SWS_CS_ITU601
        case .unspecified: space = f.height > 576 ? SWS_CS_ITU709 : SWS_CS_ITU601
        }
        if context == nil || key != (f.width, f.height, f.format, width, height, space) {
            sws_freeContext(context)
            context = makeContext(f, width, height, space: space, fullRange: frame.isFullRange)
            key = (f.width, f.height, f.format, width, height, space)
        }
        guard let context else { throw MediaError("convert_failed", "cannot convert \(Scaler.name(AVPixelFormat(rawValue: f.format))) to packed RGB") }
        let out = Frame()
        out.pointer.pointee.width = Int32(width)
        out.pointer.pointee.height = Int32(height)
        out.pointer.pointee.format = target.rawValue
        try check(launchad_frame_wrap(out.pointer, pixels.assumingMemoryBound(to: UInt8.self), Int32(pitch), Int32(height)),
                  "out_of_memory", "wrapping a texture")
        try check(sws_scale_frame(context, out.pointer, frame.pointer), "convert_failed", "converting a picture")
    }

    private var target: AVPixelFormat { layout == .bgrx ? AV_PIX_FMT_BGR0 : AV_PIX_FMT_RGB0 }

    private func makeContext(_ f: AVFrame, _ w: Int, _ h: Int, space: Int32, fullRange: Bool) -> OpaquePointer? {
        guard let ctx = Scaler.makeContext([
            ("srcw", Int64(f.width)), ("srch", Int64(f.height)), ("src_format", Int64(f.format)),
            ("dstw", Int64(w)), ("dsth", Int64(h)), ("dst_format", Int64(target.rawValue)),
            ("sws_flags", Int64(SWS_BILINEAR)), ("src_range", fullRange ? 1 : 0), ("dst_range", 1), ("threads", Int64(threads)),
        ]) else { return nil }
        // The source's matrix (swscale assumes BT.601 otherwise); the RGB side has none.
        _ = sws_setColorspaceDetails(ctx, sws_getCoefficients(space), fullRange ? 1 : 0,
                                     sws_getCoefficients(SWS_CS_DEFAULT), 1, 0, 1 << 16, 1 << 16)
        return ctx
    }
}
