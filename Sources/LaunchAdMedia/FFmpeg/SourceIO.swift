import CFFmpeg
import Foundation

/// Owns an AVIOContext (and its buffer) that reads from a ByteSource: how every input, a local
/// file or a network creative, reaches the demuxer. Nested opens (a playlist's segments) are refused by the demuxer's
/// protocol whitelist, so these bytes are the only ones FFmpeg sees.
final class SourceIO {
    let context: UnsafeMutablePointer<AVIOContext>
    let reader: Reader

    /// The source and the read position; FFmpeg calls back into it from the demuxing thread.
    final class Reader {
        let source: ByteSource
        var position: Int64 = 0
        /// The last failure, for the error the demuxer reports.
        var failure: String?
        init(_ source: ByteSource) { self.source = source }
    }

    init(_ source: ByteSource) throws {
        let size = 64 * 1024
        guard let buffer = libavutil.av_malloc(size) else { throw MediaError(.outOfMemory, "cannot allocate a read buffer") }
        reader = Reader(source)
        guard
            let ctx = libavformat.avio_alloc_context(
                buffer.assumingMemoryBound(to: UInt8.self), Int32(size), 0,
                Unmanaged.passUnretained(reader).toOpaque(), SourceIO.read, nil, SourceIO.seek)
        else {
            libavutil.av_free(buffer)
            throw MediaError(.outOfMemory, "cannot allocate a read context")
        }
        context = ctx
    }

    deinit {
        // FFmpeg may have replaced the buffer it was given: free the one it holds now.
        withUnsafeMutablePointer(to: &context.pointee.buffer) { libavutil.av_freep($0) }
        var c: UnsafeMutablePointer<AVIOContext>? = context
        libavformat.avio_context_free(&c)
    }

    private static let read: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = {
        opaque, buf, size in
        guard let opaque, let buf, size > 0 else { return launchad_averror_einval() }
        let r = Unmanaged<Reader>.fromOpaque(opaque).takeUnretainedValue()
        do {
            let n = try r.source.read(at: r.position, into: UnsafeMutableRawBufferPointer(start: buf, count: Int(size)))
            guard n > 0 else { return launchad_averror_eof() }
            r.position += Int64(n)
            return Int32(n)
        } catch {
            r.failure = "\(error)"
            return launchad_averror_eio()
        }
    }

    private static let seek: @convention(c) (UnsafeMutableRawPointer?, Int64, Int32) -> Int64 = { opaque, offset, whence in
        guard let opaque else { return -1 }
        let r = Unmanaged<Reader>.fromOpaque(opaque).takeUnretainedValue()
        let size = r.source.size
        switch whence & ~Int32(AVSEEK_FORCE) {
        case Int32(AVSEEK_SIZE): return size ?? -1
        case SEEK_SET: r.position = offset
        case SEEK_CUR: r.position += offset
        case SEEK_END:
            guard let size else { return -1 }
            r.position = size + offset
        default: return -1
        }
        return r.position
    }
}
