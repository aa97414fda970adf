import CFFmpeg
import LaunchAdCore

/// What the packets of each stream say without decoding them: sizes, keyframes, timestamps.
/// Fed by the probe's packet scan, or by the analysis pass as it reads.
final class PacketStats {
    struct Stream {
        var packets = 0
        var bytes = 0
        var keyframeTimes: [Double] = []
        var timestamps: [Int64] = []
        var first: Int64?
        var end: Int64?
    }

    private(set) var streams: [Stream]
    private let timeBases: [AVRational]

    init(_ demuxer: Demuxer) {
        timeBases = (0..<demuxer.streamCount).map { demuxer.avStream($0).pointee.time_base }
        streams = Array(repeating: Stream(), count: demuxer.streamCount)
    }

    func add(_ packet: Packet) {
        let i = packet.streamIndex
        guard i >= 0, i < streams.count else { return }
        streams[i].packets += 1
        streams[i].bytes += packet.size
        guard let ts = packet.pts ?? packet.dts else { return }
        streams[i].timestamps.append(ts)
        if packet.isKeyframe { streams[i].keyframeTimes.append(Double(ts) * av_q2d(timeBases[i])) }
        streams[i].first = min(streams[i].first ?? ts, ts)
        let end = ts + max(packet.pointer.pointee.duration, 0)
        streams[i].end = max(streams[i].end ?? end, end)
    }

    /// What stream `i`'s packets said; nothing for a stream that appeared after the header.
    func stream(_ i: Int) -> Stream { i < streams.count ? streams[i] : Stream() }

    /// Seconds between the first and last timestamps (plus the last packet's duration).
    func seconds(_ i: Int) -> Double? {
        guard i < streams.count, let a = streams[i].first, let b = streams[i].end, b > a else { return nil }
        return Double(b - a) * av_q2d(timeBases[i])
    }

    /// Bits per second from the bytes read, when the container gives no figure.
    func bitRate(_ i: Int) -> Int? {
        guard let s = seconds(i), s > 0 else { return nil }
        // One packet over a tick of 1/2^31 s would be 10^19 bits a second: no number then.
        return Checked.rounded(Double(streams[i].bytes) * 8 / s)
    }

    /// (largest, average) seconds between consecutive keyframes; nil with fewer than two.
    func keyframeInterval(_ i: Int) -> (max: Double, average: Double)? {
        let k = stream(i).keyframeTimes.sorted()
        guard k.count >= 2 else { return nil }
        let gaps = zip(k.dropFirst(), k).map { $0 - $1 }
        return (gaps.max()!, (k.last! - k.first!) / Double(gaps.count))
    }

    /// Whether frame durations vary: the presentation-order gaps between pictures differ by more than
    /// a tick of rounding (and 1%) from the usual gap.
    func isVariableFrameRate(_ i: Int) -> Bool? {
        let ts = stream(i).timestamps.sorted()
        guard ts.count >= 3 else { return nil }
        let gaps = zip(ts.dropFirst(), ts).map { $0 - $1 }.filter { $0 > 0 }
        guard !gaps.isEmpty else { return nil }
        let usual = gaps.sorted()[gaps.count / 2]
        let slack = max(Int64(2), usual / 100)
        return gaps.contains { abs($0 - usual) > slack }
    }
}
