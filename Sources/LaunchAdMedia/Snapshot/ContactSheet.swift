import CFFmpeg
import Foundation
import LaunchAdCore

/// `launchad snapshot`: pictures a reviewer looks at instead of reading numbers. libavfilter turns,
/// scales, labels (drawtext) and tiles them; libavcodec encodes the PNG.
public enum ContactSheet {
    public struct Result: Sendable {
        public let width: Int
        public let height: Int
        /// The times of the pictures used, in seconds.
        public let times: [Double]
    }

    /// DejaVu Sans, as Debian installs it; without it the sheet has no time labels.
    static let font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    /// A sheet of `options.count` evenly spaced pictures, or with `options.at` one full-size picture.
    public static func write(_ file: String, _ options: SnapshotOptions) throws -> Result {
        let grabber = try FrameGrabber(path: file)
        let span = grabber.span
        if let at = options.at {
            // A stream of unknown length (raw H.264) is decoded until it ends.
            guard span.duration <= 0 || at <= span.duration else {
                throw MediaError(
                    .pastEnd, "--at \(SpecValue.format(at)) is past the end of \(file) (\(SpecValue.format(span.duration)) s)")
            }
            let frame = try grabber.frame(at: span.start + at)
            let shown = grabber.info.displaySize
            return try render(
                [frame], grabber, filters: turn(grabber.info) + "scale=\(shown.width):\(shown.height),setsar=1,format=rgb24",
                to: options.out)
        }
        // A still image (or a video of unknown length) has one picture to show.
        let n = span.duration > 0 && !grabber.demuxer.isStillImage ? options.count : 1
        let times = (0..<n).map { span.start + span.duration * Double($0) / Double(n) }
        let frames = try times.map { try grabber.frame(at: $0) }
        let shown = grabber.info.displaySize
        let w = options.tileWidth
        let h = max(2, Int((Double(w) * Double(shown.height) / Double(max(shown.width, 1)) / 2).rounded()) * 2)
        var chain = turn(grabber.info) + "scale=\(w):\(h),setsar=1"
        if FileManager.default.fileExists(atPath: font) {
            let size = max(10, min(w, h) / 12)
            chain +=
                ",drawtext=fontfile=\(font):text='%{pts\\:hms}':x=4:y=h-th-4:fontsize=\(size)"
                + ":fontcolor=white:box=1:boxcolor=black@0.6:boxborderw=3"
        }
        var grid = options
        grid.count = n
        chain += ",tile=\(grid.gridColumns)x\(grid.gridRows):padding=4:margin=4:color=0x202020,format=rgb24"
        return try render(frames, grabber, filters: chain, to: options.out)
    }

    /// The filters that turn a picture upright for its display-matrix rotation.
    static func turn(_ info: StreamInfo) -> String {
        switch info.rotation {
        case 90: return "transpose=clock,"
        case 180: return "hflip,vflip,"
        case 270: return "transpose=cclock,"
        default: return ""
        }
    }

    private static func render(_ frames: [Frame], _ grabber: FrameGrabber, filters: String, to path: String) throws -> Result {
        // Times from the start of the video (MPEG-TS clocks start at about 1.4 s), labels too.
        let st = grabber.demuxer.avStream(grabber.index).pointee.start_time
        let startTicks = st == noPTS ? 0 : st
        let times = frames.map { $0.bestEffortPTS.map { grabber.info.seconds($0 - startTicks) } ?? 0 }
        let graph = try FilterGraph(video: frames[0], timeBase: grabber.info.timeBase, filters: filters)
        for f in frames {
            let pts = f.pointer.pointee.best_effort_timestamp
            f.pointer.pointee.pts = pts == noPTS ? pts : pts - startTicks
            try graph.push(f)
        }
        try graph.push(nil)
        let out = Frame()
        guard try graph.pull(into: out) else { throw MediaError(.filterFailed, "the contact sheet filters produced no picture") }
        try PNGEncoder.write(out, to: path)
        return Result(width: out.width, height: out.height, times: times)
    }
}
