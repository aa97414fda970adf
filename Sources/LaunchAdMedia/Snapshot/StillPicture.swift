import CFFmpeg
import Foundation
import LaunchAdCore

/// One picture of a creative for `launchad preview`: the one on screen at a time, upright, at its
/// displayed size, as RGBA; and PNG files written by libavcodec from RGBA pixels.
public enum StillPicture {
    /// The picture shown at `seconds` and the creative's duration (nil for a still image).
    public static func rgba(_ file: String, at seconds: Double) throws -> (image: RGBAImage, duration: Double?) {
        let grabber = try FrameGrabber(path: file)
        if grabber.demuxer.isStillImage { return (try ImageLoader.load(path: file), nil) }
        let span = grabber.span
        guard span.duration <= 0 || seconds <= span.duration else {
            throw MediaError(
                .pastEnd, "--at \(SpecValue.format(seconds)) is past the end of \(file) (\(SpecValue.format(span.duration)) s)")
        }
        let frame = try grabber.frame(at: span.start + seconds)
        let shown = grabber.info.displaySize
        let graph = try FilterGraph(
            video: frame, timeBase: grabber.info.timeBase,
            filters: ContactSheet.turn(grabber.info) + "scale=\(shown.width):\(shown.height),setsar=1")
        try graph.push(frame)
        try graph.push(nil)
        let out = Frame()
        guard try graph.pull(into: out) else { throw MediaError(.filterFailed, "no picture came out of the scaler") }
        return (try ImageLoader.rgba(out), span.duration > 0 ? span.duration : nil)
    }

    /// Writes tightly packed RGBA pixels as a PNG file (whole or not at all: a temporary file renamed).
    public static func writePNG(rgba pixels: [UInt8], width: Int, height: Int, to path: String) throws {
        let frame = Frame()
        let f = frame.pointer
        f.pointee.width = Int32(width)
        f.pointee.height = Int32(height)
        f.pointee.format = AV_PIX_FMT_RGBA.rawValue
        try check(libavutil.av_frame_get_buffer(f, 0), .outOfMemory, "allocating a \(width)x\(height) picture")
        guard let base = f.pointee.data.0, pixels.count == width * height * 4 else {
            throw MediaError(.encodeFailed, "a \(width)x\(height) picture needs \(width * height * 4) bytes")
        }
        let stride = Int(f.pointee.linesize.0)
        pixels.withUnsafeBytes { src in
            for row in 0..<height {
                base.advanced(by: row * stride).update(
                    from: src.baseAddress!.advanced(by: row * width * 4).assumingMemoryBound(to: UInt8.self),
                    count: width * 4)
            }
        }
        let data = try PNGEncoder(width: width, height: height, format: AV_PIX_FMT_RGBA).encode(frame)
        do {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw MediaError(.writeFailed, FileProblem(error, path: path, access: .write).description)
        }
    }
}
