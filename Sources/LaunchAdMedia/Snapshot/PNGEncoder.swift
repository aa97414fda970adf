import CFFmpeg
import Foundation
import LaunchAdCore

/// Owns a libavcodec PNG encoder for one picture size; rgb24 (or rgba) frames in, PNG file bytes out.
final class PNGEncoder {
    private var context: UnsafeMutablePointer<AVCodecContext>?

    init(width: Int, height: Int, format: AVPixelFormat = AV_PIX_FMT_RGB24) throws {
        guard let codec = libavcodec.avcodec_find_encoder(AV_CODEC_ID_PNG) else {
            throw MediaError(.encoderMissing, "this FFmpeg has no PNG encoder")
        }
        guard let ctx = libavcodec.avcodec_alloc_context3(codec) else {
            throw MediaError(.outOfMemory, "cannot allocate the PNG encoder")
        }
        context = ctx
        ctx.pointee.width = Int32(width)
        ctx.pointee.height = Int32(height)
        ctx.pointee.pix_fmt = format
        ctx.pointee.time_base = AVRational(num: 1, den: 1)
        try check(libavcodec.avcodec_open2(ctx, codec, nil), .encodeFailed, "opening the PNG encoder")
    }

    deinit { libavcodec.avcodec_free_context(&context) }

    /// The PNG file for an rgb24 frame of this encoder's size.
    func encode(_ frame: Frame) throws -> Data {
        guard let ctx = context else { throw MediaError(.encodeFailed, "the PNG encoder is closed") }
        try check(libavcodec.avcodec_send_frame(ctx, frame.pointer), .encodeFailed, "encoding the PNG")
        try check(libavcodec.avcodec_send_frame(ctx, nil), .encodeFailed, "finishing the PNG")
        let packet = Packet()
        var out = Data()
        while true {
            let ret = libavcodec.avcodec_receive_packet(ctx, packet.pointer)
            if ret == AVErr.eof || ret == AVErr.again { break }
            try check(ret, .encodeFailed, "encoding the PNG")
            out.append(packet.pointer.pointee.data, count: packet.size)
            packet.unref()
        }
        guard !out.isEmpty else { throw MediaError(.encodeFailed, "the PNG encoder produced nothing") }
        return out
    }

    /// Encodes an rgb24 frame and writes it to `path`.
    static func write(_ frame: Frame, to path: String) throws {
        let data = try PNGEncoder(width: frame.width, height: frame.height).encode(frame)
        do {
            try data.write(to: URL(fileURLWithPath: path))
        } catch {
            throw MediaError(.writeFailed, FileProblem(error, path: path, access: .write).description)
        }
    }
}
