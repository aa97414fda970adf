import CFFmpeg
import LaunchAdCore

/// Finds the picture shown at a given time: seeks to the keyframe before it and decodes forward.
final class FrameGrabber {
    let demuxer: Demuxer
    let index: Int
    let info: StreamInfo
    private let decoder: Decoder
    private let packet = Packet()
    private let frame = Frame()

    init(path: String) throws {
        demuxer = try MediaProbe.open(path)
        guard let i = demuxer.bestStream(AVMEDIA_TYPE_VIDEO) else {
            throw MediaError("no_video_stream", "\(path) has no video to take pictures from")
        }
        index = i
        info = demuxer.stream(i)
        decoder = try demuxer.makeDecoder(stream: i)
    }

    /// The video's first timestamp and its length, in seconds.
    var span: (start: Double, duration: Double) {
        let st = demuxer.avStream(index).pointee.start_time
        let start = st == noPTS ? 0 : info.seconds(st)
        return (start, info.durationSeconds ?? demuxer.duration ?? 0)
    }

    /// The picture on screen at `seconds`: the last one stamped at or before it (the first one
    /// when `seconds` comes before any, the last one when it is past the end).
    func frame(at seconds: Double) throws -> Frame {
        try demuxer.seek(to: seconds)
        decoder.flush()
        // A millisecond of slack for timestamps that round just past the time asked for.
        let until = seconds + 0.001
        var last: Frame?
        while true {
            let more = try demuxer.read(into: packet)
            defer { packet.unref() }
            if more && packet.streamIndex != index { continue }
            var sent = false
            while !sent {
                // send is false while the decoder has pictures to hand out first.
                sent = (try? decoder.send(more ? packet : nil)) ?? true
                while true {
                    let got = try decoder.receive(into: frame)
                    if got == .needsInput { break }
                    if got == .endOfStream {
                        guard let last else { throw MediaError("decode_failed", "no picture decodes near \(SpecValue.format(seconds)) s") }
                        return last
                    }
                    let picture = frame.moveOut()
                    if (picture.bestEffortPTS.map(info.seconds) ?? seconds) > until { return last ?? picture }
                    last = picture
                }
            }
        }
    }
}
