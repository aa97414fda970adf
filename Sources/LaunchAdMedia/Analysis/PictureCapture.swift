import CFFmpeg
import LaunchAdCore

/// Takes the pictures the HTML report shows while `validate` decodes, so they come from the same
/// pass as the rules: at `count` evenly spaced times (0, d/N, 2d/N, ...), the picture on screen at
/// each time (as `snapshot` picks it), turned upright, scaled to fit the requested box and encoded as PNG.
final class PictureCapture {
    private let info: StreamInfo
    private let size: (width: Int, height: Int)
    private var targets: [Double]
    /// The latest picture stamped at or before the next target time, held by reference (no copy).
    private var candidate: (frame: Frame, seconds: Double)?
    private var pictures: [CreativeStill] = []

    init(_ request: PictureRequest, info: StreamInfo, duration: Double, still: Bool) {
        self.info = info
        let n = duration > 0 && !still ? max(1, request.count) : 1
        targets = (0..<n).map { duration * Double($0) / Double(n) }
        let shown = info.displaySize
        // As large as fits the box at the displayed shape: a portrait ad is as tall as a landscape one is wide.
        let fitted = Placement.scaledRect(
            Size(width: max(1, shown.width), height: max(1, shown.height)),
            in: Rect(size: request.box), fit: .fit
        ).size
        size = (max(2, fitted.width / 2 * 2), max(2, fitted.height / 2 * 2))
    }

    /// Sees every decoded picture in order, `seconds` from the start of the file.
    func offer(_ frame: Frame, seconds: Double) {
        // A millisecond of slack for timestamps that round just past a target.
        while let target = targets.first, seconds > target + 0.001 {
            // Nothing shown yet at the target (the first picture starts late): the first one is the answer.
            take(candidate ?? (frame, seconds))
            targets.removeFirst()
        }
        if !targets.isEmpty, let ref = libavutil.av_frame_clone(frame.pointer) {
            candidate = (Frame(taking: ref), seconds)
        }
    }

    /// The pictures, the last one standing in for every target past the end.
    func finish() -> [CreativeStill] {
        if let c = candidate { for _ in targets { take(c) } }
        targets = []
        candidate = nil
        return pictures
    }

    private func take(_ c: (frame: Frame, seconds: Double)) {
        // A slow video (one picture for several targets) gives the same picture again: encode it once.
        if let last = pictures.last, last.seconds == c.seconds {
            pictures.append(last)
            return
        }
        guard let png = try? encode(c.frame) else { return }
        pictures.append(CreativeStill(seconds: c.seconds, width: size.width, height: size.height, png: png))
    }

    private func encode(_ frame: Frame) throws -> [UInt8] {
        guard let copy = libavutil.av_frame_clone(frame.pointer) else { throw MediaError(.outOfMemory, "cannot copy a picture") }
        let picture = Frame(taking: copy)
        let graph = try FilterGraph(
            video: picture, timeBase: info.timeBase,
            filters: ContactSheet.turn(info) + "scale=\(size.width):\(size.height),setsar=1,format=rgb24")
        try graph.push(picture)
        try graph.push(nil)
        let out = Frame()
        guard try graph.pull(into: out) else { throw MediaError(.filterFailed, "no picture came out of the scaler") }
        return [UInt8](try PNGEncoder(width: out.width, height: out.height).encode(out))
    }
}

/// How many pictures `validate` takes for its HTML report, and how large.
public struct PictureRequest: Sendable {
    public var count: Int
    /// The largest picture: each is scaled to fit inside it.
    public var box: Size
    public init(count: Int = 8, box: Size = Size(width: 320, height: 240)) { self.count = count; self.box = box }
}

extension Frame {
    /// Owns a frame av_frame_clone made.
    convenience init(taking pointer: UnsafeMutablePointer<AVFrame>) {
        self.init()
        libavutil.av_frame_move_ref(self.pointer, pointer)
        var p: UnsafeMutablePointer<AVFrame>? = pointer
        libavutil.av_frame_free(&p)
    }
}
