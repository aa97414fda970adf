import CFFmpeg
import Foundation
import LaunchAdCore
import Synchronization

/// Owns an opened input (AVFormatContext). Reads packets; makes decoders for its streams.
// unchecked Sendable: owns the AVFormatContext; used by one thread at a time (handed over, never shared).
public final class Demuxer: @unchecked Sendable {
    public let path: String
    let context: UnsafeMutablePointer<AVFormatContext>
    private let abortFlag: AbortFlag

    /// Opens `path` and reads enough to know its streams. Without `findStreamInfo`, only the
    /// header is read: enough for an image decoder, and it saves decoding the picture once more.
    /// `abort`, when given, interrupts the open and the probing too (its owner may stop first).
    /// `network` opens an http(s) `path`; without it such a path is refused.
    public init(path: String, findStreamInfo: Bool = true, abort: AbortFlag = AbortFlag(), network opener: NetworkOpener? = nil) throws {
        self.path = path
        abortFlag = abort
        guard let ctx = libavformat.avformat_alloc_context() else { throw MediaError(.outOfMemory, "cannot allocate a format context") }
        // Lets a blocked read return when abort() is called (a skip or an end while reading).
        ctx.pointee.interrupt_callback.callback = { opaque in
            guard let opaque else { return 0 }
            return Unmanaged<AbortFlag>.fromOpaque(opaque).takeUnretainedValue().isSet ? 1 : 0
        }
        ctx.pointee.interrupt_callback.opaque = Unmanaged.passUnretained(abortFlag).toOpaque()
        var opened: UnsafeMutablePointer<AVFormatContext>? = ctx
        let remote = NetworkOpener.isNetwork(path)
        // Every input, local or network, is read through one byte source launchad opened, and
        // the demuxer may open nothing by itself: a playlist's segments, a manifest's files or
        // a reference are never reached.
        let io: SourceIO
        do {
            io = try SourceIO(
                remote ? NetworkOpener.open(path, with: opener, isAborted: { [abort] in abort.isSet }) : FileByteSource(path: path))
        } catch {
            libavformat.avformat_free_context(ctx)
            throw error
        }
        ctx.pointee.pb = io.context
        network = remote ? io : nil
        local = remote ? nil : io
        // The container is known before any demuxer runs, and only the allowed ones run.
        var format: UnsafePointer<AVInputFormat>?
        let probed = libavformat.av_probe_input_buffer2(io.context, &format, path, nil, 0, 0)
        guard probed >= 0, let format else {
            libavformat.avformat_free_context(ctx)
            if let why = io.reader.failure { throw MediaError(.openFailed, "cannot open \(path): \(why)", averror: probed) }
            throw MediaError(.notMedia, "\(path) is not a media file FFmpeg can read: \(MediaError.text(probed))", averror: probed)
        }
        let name = String(cString: format.pointee.name)
        guard !Set(name.split(separator: ",").map(String.init)).isDisjoint(with: remote ? Demuxer.networkFormats : Demuxer.fileFormats)
        else {
            libavformat.avformat_free_context(ctx)
            // Said in a user's words: FFmpeg calls a JSON manifest "tedcaptions".
            let head = remote ? Data() : (FileHandle(forReadingAtPath: path).flatMap { try? $0.read(upToCount: 4096) } ?? Data())
            throw MediaError(.notMedia, RefusedContainer.describe(path: path, format: name, head: head))
        }
        var options: OpaquePointer?
        _ = libavutil.av_dict_set(&options, "protocol_whitelist", "none", 0)
        let ret = libavformat.avformat_open_input(&opened, path, format, &options)
        libavutil.av_dict_free(&options)
        guard ret >= 0, let opened else {
            // avformat_open_input frees the context on failure.
            if let why = io.reader.failure { throw MediaError(.openFailed, "cannot open \(path): \(why)", averror: ret) }
            if ret == launchad_averror_invaliddata() {
                throw MediaError(.notMedia, "\(path) is not a media file FFmpeg can read: \(MediaError.text(ret))", averror: ret)
            }
            let code: FailureCode = ret == -ENOENT ? .fileNotFound : ret == -EACCES ? .permissionDenied : .openFailed
            throw MediaError(code, "cannot open \(path): \(MediaError.text(ret))", averror: ret)
        }
        context = opened
        if findStreamInfo { try self.findStreamInfo() }
    }

    /// What a network creative may be: one self-contained file (no playlist, no references).
    static let networkFormats: Set<String> = ["mov", "mp4", "matroska", "webm", "png_pipe", "jpeg_pipe", "gif", "webp_pipe", "bmp_pipe"]
    /// What a local or cached file may be: the same, plus the self-contained containers that
    /// validation and earlier creatives use (MPEG-TS, plain audio) and single pictures named by
    /// extension (image2, which reads only these bytes here). HLS, DASH, concat lists are not.
    static let fileFormats: Set<String> = networkFormats.union(["image2", "mpegts", "wav", "mp3", "aac", "ogg", "flac"])

    /// The byte source of a network creative, or of a local file (kept alive as long as the input).
    private let network: SourceIO?
    private let local: SourceIO?

    /// Reads (and decodes) enough of the input to know every stream's parameters.
    public func findStreamInfo() throws {
        let info = libavformat.avformat_find_stream_info(context, nil)
        if info < 0 {
            // Throwing from init runs deinit, which closes the input: closing it here too freed
            // it twice (found by Fuzz/MediaFuzz.swift, a broken GIF).
            throw MediaError(.notMedia, "\(path) is not a media file FFmpeg can read: \(MediaError.text(info))", averror: info)
        }
    }

    deinit {
        var c: UnsafeMutablePointer<AVFormatContext>? = context
        libavformat.avformat_close_input(&c)
    }

    /// Makes blocking reads return an error from now on.
    public func abort() { abortFlag.set(); network?.reader.source.cancel() }

    public var formatName: String { String(cString: context.pointee.iformat.pointee.name) }
    public var streamCount: Int { Int(context.pointee.nb_streams) }

    /// The container's duration in seconds, if known.
    public var duration: Double? {
        let d = context.pointee.duration
        return d == noPTS || d <= 0 ? nil : Double(d) / Double(launchad_av_time_base())
    }

    public var bitRate: Int { Int(context.pointee.bit_rate) }

    func avStream(_ index: Int) -> UnsafeMutablePointer<AVStream> {
        precondition(index >= 0 && index < streamCount, "stream index out of range")
        return context.pointee.streams[index]!
    }

    /// The stream FFmpeg judges best of a type (the one a player would pick), if any.
    func bestStream(_ type: AVMediaType) -> Int? {
        let i = libavformat.av_find_best_stream(context, type, -1, -1, nil, 0)
        guard i >= 0 else { return nil }
        // An attached picture (cover art) is not a video.
        if type == AVMEDIA_TYPE_VIDEO, avStream(Int(i)).pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0 { return nil }
        return Int(i)
    }

    public func stream(_ index: Int) -> StreamInfo { StreamInfo(avStream(index)) }

    /// Reads the next packet into `packet`; false at the end of the input.
    public func read(into packet: Packet) throws -> Bool {
        let ret = libavformat.av_read_frame(context, packet.pointer)
        if ret == AVErr.eof { return false }
        if ret < 0 {
            if context.pointee.pb != nil, libavformat.avio_feof(context.pointee.pb) != 0 { return false }
            throw MediaError(.readFailed, "reading \(path): \(MediaError.text(ret))", averror: ret)
        }
        return true
    }

    /// Seeks to the keyframe at or before `seconds`.
    public func seek(to seconds: Double) throws {
        let ts = Checked.int64(seconds * Double(launchad_av_time_base())) ?? 0
        try check(libavformat.avformat_seek_file(context, -1, Int64.min, ts, ts, 0), .seekFailed, "seeking \(path)")
    }

    /// A decoder for one of this input's streams.
    public func makeDecoder(stream index: Int, threads: Int = 0, slicesOnly: Bool = false) throws -> Decoder {
        try Decoder(stream: avStream(index), threads: threads, slicesOnly: slicesOnly)
    }
}

/// Set once to make FFmpeg's blocking calls (open, probe, read) on a Demuxer return.
public final class AbortFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    public init() {}
    public func set() { flag.store(true, ordering: .relaxed) }
    public var isSet: Bool { flag.load(ordering: .relaxed) }
}
