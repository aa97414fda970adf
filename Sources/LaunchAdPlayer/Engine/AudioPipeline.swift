import Foundation
import LaunchAdCore
import LaunchAdMedia

/// Decodes one audio stream on its own thread, converts it to the device's format and keeps the
/// device's queue topped up; reports the audio clock. Audio is the master clock while it plays.
// unchecked Sendable: owns C objects (the FFmpeg decoder and resampler, used only by the decoding
// thread); what other threads read and change is `Locked`.
final class AudioPipeline: @unchecked Sendable {
    let packets: PacketQueue
    /// Handed to the decoding thread, which frees it (and FFmpeg's own threads) when it ends.
    private var decoder: Decoder?
    private let device: AudioDevice
    private let info: StreamInfo
    private let resampler: Resampler
    private struct State {
        var errors = 0
        /// Media time just after the last sample queued, and whether any was.
        var queuedEnd: Double?
        var muted: Bool
        var aborted = false
        var drained = false
        /// While paused the device plays nothing, so waits for room sleep until resumed.
        var paused = false
    }
    private let state: Locked<State>
    /// How much audio to keep queued ahead: enough to ride out scheduling hiccups, small enough
    /// that pause and mute act quickly.
    private let target = 0.12

    init(decoder: Decoder, device: AudioDevice, info: StreamInfo, muted: Bool, roomMade: ReadGate? = nil) {
        self.decoder = decoder
        self.device = device
        self.info = info
        state = Locked(State(muted: muted))
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
        state.change { $0.aborted = true }
        packets.abort()
        device.setPaused(true)
        device.clear()
    }

    /// Closes the device (on the thread that owns SDL's audio subsystem); the decoding thread,
    /// if still running, then queues into nothing and ends.
    func closeDevice() { device.close() }

    func setPaused(_ p: Bool) {
        state.change {
            $0.paused = p
            device.setPaused(p)
        }
    }
    func setMuted(_ m: Bool) { state.withLock { $0.muted = m } }

    /// True once every sample has been played.
    var isDrained: Bool { state.withLock { $0.drained } }

    /// The media time being heard now, if any audio was queued.
    var clock: Double? {
        state.withLock { s in
            guard let end = s.queuedEnd else { return nil }
            return end - Double(device.queuedBytes) / Double(device.bytesPerSecond) - device.bufferSeconds
        }
    }

    /// Packets the decoder rejected and sound it could not decode or convert.
    var decodeErrors: Int { state.withLock { $0.errors } }

    private var isAborted: Bool { state.withLock { $0.aborted } }
    private func countError() { state.withLock { $0.errors += 1 } }

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
        state.withLock { $0.drained = true }
    }

    /// Sleeps until the device holds at most `limit` bytes, for as long as that takes to play
    /// (SDL's queue has no "drained" signal); `abort` wakes it at once.
    private func waitUntilQueued(atMost limit: Int) {
        enum Step { case done, paused, playing(seconds: Double) }
        while true {
            let step = state.withLock { s -> Step in
                if s.aborted { return .done }
                if s.paused { return .paused }
                let excess = device.queuedBytes - limit
                return excess > 0 ? .playing(seconds: max(0.002, Double(excess) / Double(device.bytesPerSecond))) : .done
            }
            switch step {
            case .done: return
            case .paused: state.wait(until: { $0.aborted || !$0.paused })
            case .playing(let seconds):
                state.wait(until: { $0.aborted || $0.paused }, deadline: Date(timeIntervalSinceNow: seconds))
            }
        }
    }

    private func play(_ frame: Frame) {
        guard var bytes = try? resampler.convert(frame) else { return countError() }
        guard !bytes.isEmpty else { return }
        waitUntilQueued(atMost: Int(target * Double(device.bytesPerSecond)))
        let seconds = Double(bytes.count) / Double(device.bytesPerSecond)
        state.withLock { s in
            guard !s.aborted else { return }
            let start = frame.bestEffortPTS.map(info.seconds) ?? s.queuedEnd ?? 0
            if s.muted { bytes = [UInt8](repeating: 0, count: bytes.count) }
            device.queue(bytes)
            s.queuedEnd = start + seconds
        }
    }
}
