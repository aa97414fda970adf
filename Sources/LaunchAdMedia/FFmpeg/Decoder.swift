import CFFmpeg

/// Owns an AVCodecContext opened for one stream.
// unchecked Sendable: owns the AVCodecContext; used by one thread at a time (handed over, never shared).
public final class Decoder: @unchecked Sendable {
    let context: UnsafeMutablePointer<AVCodecContext>
    public let codecName: String

    public enum Received { case frame, needsInput, endOfStream }

    convenience init(stream: UnsafeMutablePointer<AVStream>, threads: Int, slicesOnly: Bool = false) throws {
        try self.init(
            codec: stream.pointee.codecpar.pointee.codec_id, parameters: stream.pointee.codecpar, timeBase: stream.pointee.time_base,
            threads: threads, slicesOnly: slicesOnly)
    }

    /// `parameters` nil: a decoder fed by hand rather than from a stream (CEA-608 from A53 bytes).
    /// `slicesOnly`: no frame threads, whose every thread delays the first picture by one.
    init(
        codec id: AVCodecID, parameters: UnsafeMutablePointer<AVCodecParameters>?, timeBase: AVRational, threads: Int = 0,
        slicesOnly: Bool = false
    ) throws {
        guard let codec = libavcodec.avcodec_find_decoder(id) else {
            let name = libavcodec.avcodec_get_name(id).map { String(cString: $0) } ?? "unknown"
            throw MediaError(.decoderMissing, "no decoder for codec \(name)")
        }
        guard let ctx = libavcodec.avcodec_alloc_context3(codec) else { throw MediaError(.outOfMemory, "cannot allocate a decoder") }
        context = ctx
        codecName = String(cString: codec.pointee.name)
        if let parameters {
            try check(libavcodec.avcodec_parameters_to_context(ctx, parameters), .decoderFailed, "configuring the \(codecName) decoder")
        }
        ctx.pointee.pkt_timebase = timeBase
        // No picture larger than this is ever allocated: a 746 KB PNG declaring 16000x16000 took
        // 950 MB to decode (the largest files launchad plays are 8192x8192).
        ctx.pointee.max_pixels = Decoder.maxPixels
        ctx.pointee.thread_count = Int32(threads)
        if slicesOnly { ctx.pointee.thread_type = FF_THREAD_SLICE }
        try check(libavcodec.avcodec_open2(ctx, codec, nil), .decoderFailed, "opening the \(codecName) decoder")
    }

    /// The most pixels one decoded picture may have: 8192x8192 (or 16384x4096).
    public static let maxPixels: Int64 = 8192 * 8192

    deinit {
        var c: UnsafeMutablePointer<AVCodecContext>? = context
        libavcodec.avcodec_free_context(&c)
    }

    /// Sends a packet, or nil to drain. Returns false when the decoder must be read from first.
    public func send(_ packet: Packet?) throws -> Bool {
        let ret = libavcodec.avcodec_send_packet(context, packet?.pointer)
        if ret == AVErr.again { return false }
        if ret == AVErr.eof { return true }
        try check(ret, .decodeFailed, "\(codecName) decoding")
        return true
    }

    public func receive(into frame: Frame) throws -> Received {
        let ret = libavcodec.avcodec_receive_frame(context, frame.pointer)
        if ret == AVErr.again { return .needsInput }
        if ret == AVErr.eof { return .endOfStream }
        try check(ret, .decodeFailed, "\(codecName) decoding")
        return .frame
    }

    /// Whether FFmpeg decodes several pictures at once (frame threads) for this stream.
    public var usesFrameThreads: Bool { context.pointee.active_thread_type & FF_THREAD_FRAME != 0 }

    /// Pictures the decoder holds back before giving one out, to put them in display order
    /// (H.264's and HEVC's B-frame reorder delay; 0 for most other codecs).
    public var reorderDelay: Int { Int(context.pointee.has_b_frames) }

    /// Whether the stream is known to be progressive: an interlaced one may carry a picture's two
    /// fields in two packets.
    public var isProgressive: Bool { context.pointee.field_order == AV_FIELD_PROGRESSIVE }

    /// Forgets buffered state (after a seek).
    public func flush() { libavcodec.avcodec_flush_buffers(context) }
}
