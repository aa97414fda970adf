import Foundation
import LaunchAdMedia

/// Decodes one audio stream on its own thread, converts it to the device's format and keeps the
/// device's queue topped up; reports the audio clock. Audio is the master clock while it plays.
// unchecked Sendable: owns C objects (the FFmpeg decoder and resampler, used only by the decoding
// thread) and waits on a condition variable (`wake`); `queuedEnd`, `muted`, `aborted`, `drained`
// and `errors` are guarded by `lock`.
final class AudioPipeline: @unchecked Sendable {
    let packets: PacketQueue
    /// Handed to the decoding thread, which frees it (and FFmpeg's own threads) when it ends.
    private var decoder: Decoder?
    private let device: AudioDevice
    private let info: StreamInfo
    private let resampler: Resampler
    private let lock = NSCondition()
    private var errors = 0
    /// Media time just after the last sample queued, and whether any was.
    private var queuedEnd: Double?
    private var muted: Bool
    private var aborted = false
    private var drained = false
    /// While paused the device plays nothing, so waits for room sleep until resumed.
    private var paused = false
    /// How much audio to keep queued ahead: enough to ride out scheduling hiccups, small enough
    /// that pause and mute act quickly.
    private let target = 0.12

    init(decoder: Decoder, device: AudioDevice, info: StreamInfo, muted: Bool, roomMade: ReadGate? = nil) {
        self.decoder = decoder
        self.device = device
        self.info = info
        self.muted = muted
        packets = PacketQueue(secondsPerTick: info.seconds(1), roomMade: roomMade)
        resampler = Resampler.float32(rate: device.rate, channels: device.channels)
    }

    /// Starts the decoding thread; it leaves `group` when it ends.
    func start(in group: DispatchGroup) {
        guard let decoder else { return }
        self.decoder = nil
        startEngineThread("launchad-audio", in: group) { [self] in run(decoder) }
    }

    func abort() {
        lock.lock(); aborted = true; lock.broadcast(); lock.unlock()
        packets.abort()
        device.setPaused(true)
        device.clear()
    }

    /// Closes the device (on the thread that owns SDL's audio subsystem); the decoding thread,
    /// if still running, then queues into nothing and ends.
    func closeDevice() { device.close() }

    func setPaused(_ p: Bool) {
        lock.lock(); paused = p; device.setPaused(p); lock.broadcast(); lock.unlock()
    }
    func setMuted(_ m: Bool) { lock.lock(); muted = m; lock.unlock() }

    /// True once every sample has been played.
    var isDrained: Bool { lock.lock(); defer { lock.unlock() }; return drained }

    /// The media time being heard now, if any audio was queued.
    var clock: Double? {
        lock.lock(); defer { lock.unlock() }
        guard let end = queuedEnd else { return nil }
        return end - Double(device.queuedBytes) / Double(device.bytesPerSecond) - device.bufferSeconds
    }

    /// Packets the decoder rejected and sound it could not decode or convert.
    var decodeErrors: Int { lock.lock(); defer { lock.unlock() }; return errors }

    private var isAborted: Bool { lock.lock(); defer { lock.unlock() }; return aborted }
    private func countError() { lock.lock(); errors += 1; lock.unlock() }

    private func run(_ decoder: Decoder) {
        let frame = Frame()
        func receiveAll() {
            while !isAborted {
                do {
                    guard try decoder.receive(into: frame) == .frame else { return }
                } catch { countError(); return }
                play(frame)
                frame.unref()
            }
        }
        while let packet = packets.get() {
            // A packet the decoder rejects is skipped (and counted), as ffplay does; the clock carries on.
            var sent = false
            repeat {
                do { sent = try decoder.send(packet) } catch { countError(); sent = true }
                receiveAll()
            } while !sent && !isAborted
        }
        guard !isAborted else { return }
        _ = try? decoder.send(nil)
        receiveAll()
        // Let the queue play out before saying the audio is over.
        waitUntilQueued(atMost: 0)
        lock.lock(); drained = true; lock.unlock()
    }

    /// Sleeps until the device holds at most `limit` bytes, for as long as that takes to play
    /// (SDL's queue has no "drained" signal); `abort` wakes it at once.
    private func waitUntilQueued(atMost limit: Int) {
        lock.lock(); defer { lock.unlock() }
        while !aborted {
            if paused { lock.wait(); continue }
            let excess = device.queuedBytes - limit
            guard excess > 0 else { return }
            let seconds = max(0.002, Double(excess) / Double(device.bytesPerSecond))
            _ = lock.wait(until: Date(timeIntervalSinceNow: seconds))
        }
    }

    private func play(_ frame: Frame) {
        guard var bytes = try? resampler.convert(frame) else { return countError() }
        guard !bytes.isEmpty else { return }
        waitUntilQueued(atMost: Int(target * Double(device.bytesPerSecond)))
        let seconds = Double(bytes.count) / Double(device.bytesPerSecond)
        lock.lock(); defer { lock.unlock() }
        guard !aborted else { return }
        let start = frame.bestEffortPTS.map(info.seconds) ?? queuedEnd ?? 0
        if muted { bytes = [UInt8](repeating: 0, count: bytes.count) }
        device.queue(bytes)
        queuedEnd = start + seconds
    }
}
