import Foundation
import LaunchAdMedia

/// Decodes one audio stream on its own thread, converts it to the device's format and keeps the
/// device's queue topped up; reports the audio clock. Audio is the master clock while it plays.
final class AudioPipeline: @unchecked Sendable {
    let packets: PacketQueue
    private let decoder: Decoder
    private let device: AudioDevice
    private let info: StreamInfo
    private let resampler: Resampler
    private let lock = NSLock()
    /// Media time just after the last sample queued, and whether any was.
    private var queuedEnd: Double?
    private var muted: Bool
    private var aborted = false
    private var drained = false
    /// How much audio to keep queued ahead: enough to ride out scheduling hiccups, small enough
    /// that pause and mute act quickly.
    private let target = 0.12

    init(decoder: Decoder, device: AudioDevice, info: StreamInfo, muted: Bool) {
        self.decoder = decoder
        self.device = device
        self.info = info
        self.muted = muted
        packets = PacketQueue(secondsPerTick: info.seconds(1))
        resampler = Resampler.float32(rate: device.rate, channels: device.channels)
    }

    /// Starts the decoding thread; it leaves `group` when it ends.
    func start(in group: DispatchGroup) {
        group.enter()
        let t = Thread { [self] in run(); group.leave() }
        t.name = "launchad-audio"
        t.start()
    }

    func abort() {
        lock.lock(); aborted = true; lock.unlock()
        packets.abort()
        device.setPaused(true)
        device.clear()
    }

    func setPaused(_ paused: Bool) { device.setPaused(paused) }
    func setMuted(_ m: Bool) { lock.lock(); muted = m; lock.unlock() }

    /// True once every sample has been played.
    var isDrained: Bool { lock.lock(); defer { lock.unlock() }; return drained }

    /// The media time being heard now, if any audio was queued.
    var clock: Double? {
        lock.lock(); defer { lock.unlock() }
        guard let end = queuedEnd else { return nil }
        return end - Double(device.queuedBytes) / Double(device.bytesPerSecond) - device.bufferSeconds
    }

    private var isAborted: Bool { lock.lock(); defer { lock.unlock() }; return aborted }

    private func run() {
        let frame = Frame()
        func receiveAll() {
            while !isAborted, (try? decoder.receive(into: frame)) == .frame {
                play(frame)
                frame.unref()
            }
        }
        while let packet = packets.get() {
            // A packet the decoder rejects is skipped, as ffplay does; the clock carries on.
            while (try? decoder.send(packet)) == false { receiveAll() }
            receiveAll()
        }
        guard !isAborted else { return }
        _ = try? decoder.send(nil)
        receiveAll()
        // Let the queue play out before saying the audio is over.
        while !isAborted && device.queuedBytes > 0 { Thread.sleep(forTimeInterval: 0.005) }
        lock.lock(); drained = true; lock.unlock()
    }

    private func play(_ frame: Frame) {
        guard var bytes = try? resampler.convert(frame), !bytes.isEmpty else { return }
        let limit = Int(target * Double(device.bytesPerSecond))
        while !isAborted && device.queuedBytes > limit { Thread.sleep(forTimeInterval: 0.005) }
        let seconds = Double(bytes.count) / Double(device.bytesPerSecond)
        lock.lock(); defer { lock.unlock() }
        guard !aborted else { return }
        let start = frame.bestEffortPTS.map(info.seconds) ?? queuedEnd ?? 0
        if muted { bytes = [UInt8](repeating: 0, count: bytes.count) }
        device.queue(bytes)
        queuedEnd = start + seconds
    }
}
