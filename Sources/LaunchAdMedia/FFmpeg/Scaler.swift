import CFFmpeg

/// Owns a SwsContext converting frames to one pixel format and size. Used only for pictures the
/// display cannot take as they are (10-bit, yuvj, rgb, ...): yuv420p goes to the screen untouched.
public final class Scaler: @unchecked Sendable {
    private var context: OpaquePointer?
    private var source: (w: Int32, h: Int32, fmt: Int32) = (0, 0, -1)
    public let target: AVPixelFormat
    private let targetSize: (width: Int, height: Int)?

    /// `size` nil keeps each frame's own size.
    public init(to target: AVPixelFormat, size: (width: Int, height: Int)? = nil) {
        self.target = target
        self.targetSize = size
    }

    deinit { sws_freeContext(context) }

    /// A new frame holding `frame` converted.
    public func convert(_ frame: Frame) throws -> Frame {
        let f = frame.pointer.pointee
        let w = Int32(targetSize?.width ?? Int(f.width)), h = Int32(targetSize?.height ?? Int(f.height))
        if context == nil || source != (f.width, f.height, f.format) {
            sws_freeContext(context)
            context = sws_getContext(f.width, f.height, AVPixelFormat(rawValue: f.format), w, h, target,
                                     Int32(SWS_BILINEAR), nil, nil, nil)
            source = (f.width, f.height, f.format)
            guard context != nil else {
                throw MediaError("convert_failed", "cannot convert \(Scaler.name(AVPixelFormat(rawValue: f.format))) to \(Scaler.name(target))")
            }
        }
        let out = Frame()
        out.pointer.pointee.width = w
        out.pointer.pointee.height = h
        out.pointer.pointee.format = target.rawValue
        try check(av_frame_get_buffer(out.pointer, 0), "out_of_memory", "allocating a converted picture")
        let srcData = withUnsafePointer(to: frame.pointer.pointee.data) {
            $0.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { $0 }
        }
        let srcLines = withUnsafePointer(to: frame.pointer.pointee.linesize) {
            $0.withMemoryRebound(to: Int32.self, capacity: 8) { $0 }
        }
        let dstData = withUnsafeMutablePointer(to: &out.pointer.pointee.data) {
            $0.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { $0 }
        }
        let dstLines = withUnsafeMutablePointer(to: &out.pointer.pointee.linesize) {
            $0.withMemoryRebound(to: Int32.self, capacity: 8) { $0 }
        }
        try check(sws_scale(context, srcData, srcLines, 0, f.height, dstData, dstLines), "convert_failed", "converting a picture")
        out.pointer.pointee.pts = f.pts
        out.pointer.pointee.best_effort_timestamp = f.best_effort_timestamp
        return out
    }

    public static func name(_ fmt: AVPixelFormat) -> String {
        av_get_pix_fmt_name(fmt).map { String(cString: $0) } ?? "unknown"
    }
}
