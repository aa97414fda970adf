import CFFmpeg

/// Owns a SwrContext turning decoded audio of any layout, rate and format into interleaved
/// samples of the output device's format. Rebuilt when the input changes mid-stream.
// unchecked Sendable: owns the SwrContext; used by one thread at a time (handed over, never shared).
public final class Resampler: @unchecked Sendable {
    private var context: OpaquePointer?
    private var inputKey: (rate: Int32, fmt: Int32, channels: Int32, order: UInt32, mask: UInt64) = (0, -1, 0, 0, 0)
    public let outputRate: Int
    public let outputChannels: Int
    let outputFormat: AVSampleFormat
    public var bytesPerSample: Int { Int(libavutil.av_get_bytes_per_sample(outputFormat)) * outputChannels }

    init(outputRate: Int, outputChannels: Int, outputFormat: AVSampleFormat) {
        self.outputRate = outputRate
        self.outputChannels = outputChannels
        self.outputFormat = outputFormat
    }

    deinit { libswresample.swr_free(&context) }

    /// Converts one frame; returns interleaved bytes in the output format.
    public func convert(_ frame: Frame) throws -> [UInt8] {
        let f = frame.pointer
        try configure(for: f)
        let inCount = Int32(f.pointee.nb_samples)
        let maxOut = libswresample.swr_get_out_samples(context, inCount) + 32
        var out = [UInt8](repeating: 0, count: Int(maxOut) * bytesPerSample)
        let converted: Int32 = try out.withUnsafeMutableBufferPointer { buf in
            var dst: UnsafeMutablePointer<UInt8>? = buf.baseAddress
            let src = withUnsafePointer(to: f.pointee.extended_data) { $0.pointee }
            let n = withUnsafeMutablePointer(to: &dst) { dstPtr in
                src!.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: Int(f.pointee.ch_layout.nb_channels)) { srcPtr in
                    libswresample.swr_convert(context, dstPtr, maxOut, srcPtr, inCount)
                }
            }
            return try check(n, .resampleFailed, "converting audio")
        }
        out.removeSubrange((Int(converted) * bytesPerSample)...)
        return out
    }

    private func configure(for f: UnsafeMutablePointer<AVFrame>) throws {
        let l = f.pointee.ch_layout
        let key = (f.pointee.sample_rate, f.pointee.format, l.nb_channels, l.order.rawValue, l.u.mask)
        if context != nil && key == inputKey { return }
        libswresample.swr_free(&context)
        var outLayout = AVChannelLayout()
        libavutil.av_channel_layout_default(&outLayout, Int32(outputChannels))
        defer { libavutil.av_channel_layout_uninit(&outLayout) }
        var inLayout = AVChannelLayout()
        if libavutil.av_channel_layout_check(&f.pointee.ch_layout) == 0 || f.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC {
            libavutil.av_channel_layout_default(&inLayout, max(1, f.pointee.ch_layout.nb_channels))
        } else {
            _ = libavutil.av_channel_layout_copy(&inLayout, &f.pointee.ch_layout)
        }
        defer { libavutil.av_channel_layout_uninit(&inLayout) }
        try check(
            libswresample.swr_alloc_set_opts2(
                &context, &outLayout, outputFormat, Int32(outputRate),
                &inLayout, AVSampleFormat(rawValue: f.pointee.format), f.pointee.sample_rate, 0, nil),
            .resampleFailed, "setting up the audio converter")
        try check(libswresample.swr_init(context), .resampleFailed, "starting the audio converter")
        inputKey = key
    }
}
