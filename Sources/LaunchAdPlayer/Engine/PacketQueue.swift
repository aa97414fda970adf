import Foundation
import LaunchAdMedia

/// Packets from the read thread to one decoder thread. Unbounded by itself: the read thread
/// watches `bytes` and `seconds` and stops reading while the queues hold enough (ffplay's rule).
// unchecked Sendable: waits on a condition variable (NSCondition, as `Locked` cannot wait); every field is read and written under `cond`.
final class PacketQueue: @unchecked Sendable {
    private let cond = NSCondition()
    /// Told whenever a packet is taken, so a reader waiting for room wakes at once.
    private let roomMade: ReadGate?
    private var items: [Packet] = []
    private var head = 0
    private(set) var bytes = 0
    private var durationTicks: Int64 = 0
    private var finished = false
    private var aborted = false
    let secondsPerTick: Double

    init(secondsPerTick: Double, roomMade: ReadGate? = nil) {
        self.secondsPerTick = secondsPerTick
        self.roomMade = roomMade
    }

    func put(_ packet: Packet) {
        cond.lock(); defer { cond.unlock() }
        items.append(packet)
        bytes += packet.size
        durationTicks += packet.durationTicks
        cond.signal()
    }

    /// No more packets will come; `get` returns nil once the queue is empty.
    func finish() { cond.lock(); finished = true; cond.broadcast(); cond.unlock() }

    func abort() { cond.lock(); aborted = true; cond.broadcast(); cond.unlock() }

    /// The next packet, waiting for one; nil at the end or after abort.
    func get() -> Packet? {
        cond.lock()
        while head == items.count && !finished && !aborted { cond.wait() }
        guard !aborted, head < items.count else { cond.unlock(); return nil }
        let p = items[head]
        head += 1
        if head > 64 { items.removeFirst(head); head = 0 }
        bytes -= p.size
        durationTicks -= p.durationTicks
        cond.unlock()
        roomMade?.signal()
        return p
    }

    /// Whether the decoder has enough buffered: 25 packets and a second of media.
    var hasEnough: Bool {
        cond.lock(); defer { cond.unlock() }
        let count = items.count - head
        return aborted || (count > 25 && (durationTicks == 0 || Double(durationTicks) * secondsPerTick > 1.0))
    }

    var totalBytes: Int { cond.lock(); defer { cond.unlock() }; return bytes }
}

/// The read thread's wait for room in the packet queues: woken when a decoder takes a packet or
/// the engine stops, instead of polling.
// unchecked Sendable: waits on a condition variable (NSCondition, as `Locked` cannot wait); the flag is read and written under `cond`.
final class ReadGate: @unchecked Sendable {
    private let cond = NSCondition()
    private var stopped = false

    func signal() { cond.lock(); cond.broadcast(); cond.unlock() }
    func stop() { cond.lock(); stopped = true; cond.broadcast(); cond.unlock() }

    /// Waits while `full()` holds (checked under the gate's lock, so no wake-up is missed);
    /// false once stopped. The 0.25 s bound only covers a queue that drains without a `get`.
    func waitForRoom(_ full: () -> Bool) -> Bool {
        cond.lock(); defer { cond.unlock() }
        while !stopped && full() { _ = cond.wait(until: Date(timeIntervalSinceNow: 0.25)) }
        return !stopped
    }
}
