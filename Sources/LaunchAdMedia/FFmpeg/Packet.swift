import CFFmpeg

/// Owns one AVPacket.
// unchecked Sendable: owns the AVPacket; used by one thread at a time (handed over, never shared).
public final class Packet: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<AVPacket>

    public init() {
        guard let p = libavcodec.av_packet_alloc() else { fatalError("av_packet_alloc: out of memory") }
        pointer = p
    }

    deinit {
        var p: UnsafeMutablePointer<AVPacket>? = pointer
        libavcodec.av_packet_free(&p)
    }

    public var streamIndex: Int { Int(pointer.pointee.stream_index) }
    public var size: Int { Int(pointer.pointee.size) }
    public var pts: Int64? { pointer.pointee.pts == noPTS ? nil : pointer.pointee.pts }
    public var dts: Int64? { pointer.pointee.dts == noPTS ? nil : pointer.pointee.dts }
    public var isKeyframe: Bool { pointer.pointee.flags & AV_PKT_FLAG_KEY != 0 }
    /// The packet's duration in its stream's time base (0 when the container does not say).
    public var durationTicks: Int64 { pointer.pointee.duration }

    /// Moves this packet's data into a new Packet, leaving this one blank for the next read.
    public func moveOut() -> Packet {
        let moved = Packet()
        libavcodec.av_packet_move_ref(moved.pointer, pointer)
        return moved
    }
}
