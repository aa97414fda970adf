import Foundation
import LaunchAdCore
import LaunchAdMedia

/// Packets from the read thread to one decoder thread. Unbounded by itself: the read thread
/// watches `bytes` and `seconds` and stops reading while the queues hold enough (ffplay's rule).
final class PacketQueue: Sendable {
    private struct State {
        var items: [Packet] = []
        var head = 0
        var bytes = 0
        var durationTicks: Int64 = 0
        var finished = false
        var aborted = false
        var count: Int { items.count - head }
    }
    private let state = Locked(State())
    /// Told whenever a packet is taken, so a reader waiting for room wakes at once.
    private let roomMade: ReadGate?
    let secondsPerTick: Double

    init(secondsPerTick: Double, roomMade: ReadGate? = nil) {
        self.secondsPerTick = secondsPerTick
        self.roomMade = roomMade
    }

    func put(_ packet: Packet) {
        state.change {
            $0.items.append(packet)
            $0.bytes += packet.size
            $0.durationTicks += packet.durationTicks
        }
    }

    /// No more packets will come; `get` returns nil once the queue is empty.
    func finish() { state.change { $0.finished = true } }

    func abort() { state.change { $0.aborted = true } }

    /// The next packet, waiting for one; nil at the end or after abort.
    func get() -> Packet? {
        let packet = state.wait(
            until: { $0.count > 0 || $0.finished || $0.aborted },
            then: { s, _ -> Packet? in
                guard !s.aborted, s.count > 0 else { return nil }
                let p = s.items[s.head]
                s.head += 1
                if s.head > 64 { s.items.removeFirst(s.head); s.head = 0 }
                s.bytes -= p.size
                s.durationTicks -= p.durationTicks
                return p
            })
        if packet != nil { roomMade?.signal() }
        return packet
    }

    /// Whether the decoder has enough buffered: 25 packets and a second of media.
    var hasEnough: Bool {
        state.withLock { s in
            s.aborted || (s.count > 25 && (s.durationTicks == 0 || Double(s.durationTicks) * secondsPerTick > 1.0))
        }
    }

    var totalBytes: Int { state.withLock { $0.bytes } }
}

/// The read thread's wait for room in the packet queues: woken when a decoder takes a packet or
/// the engine stops, instead of polling.
final class ReadGate: Sendable {
    /// Counts the wake-ups, so a waiter sees one that came while it looked at the queues.
    private let state = Locked((stopped: false, wakes: 0))

    func signal() { state.change { $0.wakes &+= 1 } }
    func stop() { state.change { $0.stopped = true } }

    /// Waits while `full()` holds; false once stopped. The 0.25 s bound only covers a queue that
    /// drains without a `get`.
    func waitForRoom(_ full: () -> Bool) -> Bool {
        while true {
            let seen = state.withLock { $0 }
            if seen.stopped { return false }
            if !full() { return true }
            state.wait(
                until: { $0.stopped || $0.wakes != seen.wakes }, deadline: Date(timeIntervalSinceNow: 0.25))
        }
    }
}
