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

    /// The first picture at or after `seconds` (the last one when `seconds` is past the end).
    func frame(at seconds: Double) throws -> Frame {
        try demuxer.seek(to: seconds)
        decoder.flush()
        // Half a frame of slack so a picture stamped a rounding error early still counts.
        let wanted = seconds - info.frameDuration / 2
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
                    if (picture.bestEffortPTS.map(info.seconds) ?? seconds) >= wanted { return picture }
                    last = picture
                }
            }
        }
    }
}
