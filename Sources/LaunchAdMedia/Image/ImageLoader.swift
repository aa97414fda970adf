import CFFmpeg
import Foundation
import LaunchAdCore

/// A decoded still picture as tightly packed RGBA bytes, ready for a texture.
public struct RGBAImage: Sendable {
    public let width: Int
    public let height: Int
    public let pixels: [UInt8]
    /// The size stored in the file (larger than width x height when scaled down to maxSide).
    public let sourceWidth: Int
    public let sourceHeight: Int
}

/// Loads PNG and JPEG (and any single picture FFmpeg reads) with libavformat's image demuxers
/// and libavcodec's image decoders, converted to RGBA. EXIF orientation is not applied (FFmpeg 5.1
/// does not export it for JPEG), so creatives must be stored upright.
public enum ImageLoader {
    /// `network` opens an http(s) `path` (the player's remote image ads); without it such a path is refused.
    public static func load(path: String, network: NetworkOpener? = nil) throws -> RGBAImage {
        // An image file's header names its codec, and its decoder needs nothing more: finding
        // the stream info would decode the picture a second time (over a second for 8192x8192).
        var demuxer = try Demuxer(path: path, findStreamInfo: false, network: network)
        if !demuxer.isStillImage || demuxer.bestStream(AVMEDIA_TYPE_VIDEO) == nil { demuxer = try Demuxer(path: path, network: network) }
        guard let index = demuxer.bestStream(AVMEDIA_TYPE_VIDEO) ?? firstVideoStream(demuxer) else {
            throw MediaError(.notAnImage, "\(path) holds no picture")
        }
        let info = demuxer.stream(index)
        guard info.width <= 16384, info.height <= 16384, demuxer.isStillImage || (info.width > 0 && info.height > 0) else {
            throw MediaError(.notAnImage, "\(path): picture size \(info.width)x\(info.height) is not usable")
        }
        let decoder = try demuxer.makeDecoder(stream: index, threads: 1)
        do { return try decode(decoder, demuxer, index, path: path) } catch let e as MediaError {
            // The decoder refuses a picture over `Decoder.maxPixels` before allocating it
            // (EINVAL): a local PNG, JPEG or GIF's header says why in plain words.
            guard e.averror == -EINVAL, !path.contains("://"), let file = FileHandle(forReadingAtPath: path),
                let head = try? file.read(upToCount: PictureHeader.bytesNeeded), let (w, h) = PictureHeader.size(of: head),
                Int64(w) * Int64(h) > Decoder.maxPixels
            else { throw e }
            throw MediaError(.notAnImage, "\(path): picture size \(w)x\(h) is over the \(Decoder.maxPixels)-pixel limit")
        }
    }

    private static func decode(_ decoder: Decoder, _ demuxer: Demuxer, _ index: Int, path: String) throws -> RGBAImage {
        let packet = Packet(), frame = Frame()
        var draining = false
        while true {
            switch try decoder.receive(into: frame) {
            case .frame:
                guard frame.width > 0, frame.height > 0, frame.width <= 16384, frame.height <= 16384 else {
                    throw MediaError(.notAnImage, "\(path): picture size \(frame.width)x\(frame.height) is not usable")
                }
                return try rgba(frame)
            case .endOfStream:
                throw MediaError(.decodeFailed, "\(path): no picture could be decoded")
            case .needsInput:
                if draining { throw MediaError(.decodeFailed, "\(path): no picture could be decoded") }
                var got = false
                while try demuxer.read(into: packet) {
                    defer { libavcodec.av_packet_unref(packet.pointer) }
                    if packet.streamIndex == index { _ = try decoder.send(packet); got = true; break }
                }
                if !got { _ = try decoder.send(nil); draining = true }
            }
        }
    }

    static func firstVideoStream(_ d: Demuxer) -> Int? {
        (0..<d.streamCount).first { d.stream($0).mediaType == AVMEDIA_TYPE_VIDEO }
    }

    /// The longest side a picture keeps: no screen a launch ad fills is wider than 4K, and an
    /// 8192x8192 PNG (256 MB as RGBA) would otherwise take seconds to convert and upload.
    public static let maxSide = 4096

    static func rgba(_ frame: Frame) throws -> RGBAImage {
        var size: (width: Int, height: Int)?
        let longest = max(frame.width, frame.height)
        if longest > maxSide {
            let scale = Double(maxSide) / Double(longest)
            size = (max(1, Int((Double(frame.width) * scale).rounded())), max(1, Int((Double(frame.height) * scale).rounded())))
        }
        let converted = try Scaler(to: AV_PIX_FMT_RGBA, size: size).convert(frame)
        let w = converted.width, h = converted.height
        let stride = Int(converted.pointer.pointee.linesize.0)
        guard let base = converted.pointer.pointee.data.0 else { throw MediaError(.decodeFailed, "empty picture") }
        var pixels = [UInt8](repeating: 0, count: w * h * 4)
        pixels.withUnsafeMutableBytes { dst in
            for row in 0..<h {
                dst.baseAddress!.advanced(by: row * w * 4).copyMemory(from: base.advanced(by: row * stride), byteCount: w * 4)
            }
        }
        return RGBAImage(width: w, height: h, pixels: pixels, sourceWidth: frame.width, sourceHeight: frame.height)
    }
}
