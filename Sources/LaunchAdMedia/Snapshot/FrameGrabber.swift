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
            throw MediaError(.noVideoStream, "\(path) has no video to take pictures from")
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
        do {
            return try frame(at: seconds, rewind: false)
        } catch let e as MediaError where e.code == .noPicture || e.code == .seekFailed {
            // Some containers seek to a point the decoder cannot start from (MPEG-TS), or cannot seek
            // by time at all (raw H.264): decode from the start instead.
            return try frame(at: seconds, rewind: true)
        }
    }

    private func frame(at seconds: Double, rewind: Bool) throws -> Frame {
        // A millisecond of slack for timestamps that round just past the time asked for.
        let until = seconds + 0.001
        var last: Frame?
        if let p = pending, time(p) <= until, seeksMislead || keyframe(before: seconds) <= time(p) {
            // Decoding on from the picture after the previous one is no slower than seeking
            // (and, once a seek has gone wrong in this file, the only way that is sure).
            last = p
        } else {
            if rewind {
                seeksMislead = true
                // Byte 0 is where decoding can always start; containers that seek by time only (MP4)
                // land exactly on their first keyframe.
                if libavformat.avformat_seek_file(demuxer.context, -1, 0, 0, 0, AVSEEK_FLAG_BYTE) < 0 { try demuxer.seek(to: span.start) }
            } else {
                try demuxer.seek(to: seconds)
            }
            decoder.flush()
        }
        pending = nil
        var stalls = 0
        while true {
            let more = try demuxer.read(into: packet)
            defer { packet.unref() }
            if more && packet.streamIndex != index { continue }
            var sent = false
            while !sent {
                // send is false while the decoder has pictures to hand out first.
                sent = (try? decoder.send(more ? packet : nil)) ?? true
                stalls = sent ? 0 : stalls + 1
                if stalls > 100 { throw MediaError(.decodeFailed, "the \(info.codecName) decoder stopped taking input") }
                while true {
                    let got = try decoder.receive(into: frame)
                    if got == .needsInput { break }
                    if got == .endOfStream {
                        guard let last else { throw MediaError(.noPicture, "no picture decodes near \(SpecValue.format(seconds)) s") }
                        return last
                    }
                    let picture = frame.moveOut()
                    if time(picture) > until {
                        guard let last else {
                            // The seek landed past the time asked for; from the start, the first picture is the answer.
                            if rewind { return picture }
                            throw MediaError(.noPicture, "the seek to \(SpecValue.format(seconds)) s landed past it")
                        }
                        pending = picture
                        return last
                    }
                    last = picture
                }
            }
        }
    }

    /// The picture decoded past the previous time asked for: the next call may start from it.
    private var pending: Frame?
    /// Set once a seek in this file has landed where no picture could be decoded, or past the time.
    private var seeksMislead = false

    private func time(_ f: Frame) -> Double { f.bestEffortPTS.map(info.seconds) ?? 0 }

    /// The time of the keyframe a seek to `seconds` would land on, from the demuxer's index;
    /// infinity when the index does not say (then a seek is the only safe way).
    private func keyframe(before seconds: Double) -> Double {
        let st = demuxer.avStream(index)
        guard let ts = Checked.int64((seconds / av_q2d(info.timeBase)).rounded(.down)) else { return .infinity }
        guard let e = libavformat.avformat_index_get_entry_from_timestamp(st, ts, AVSEEK_FLAG_BACKWARD) else { return .infinity }
        return info.seconds(e.pointee.timestamp)
    }
}
