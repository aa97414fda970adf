import Foundation
import LaunchAdCore

/// Opens the audio output on its own thread while the file is still being probed: a sound
/// server can take tens of milliseconds to answer, and the first picture should not wait for
/// it. The stream's header gives the rate and channels; the pipeline resamples to whatever the
/// device settles on, so the probe finding other values later changes nothing.
final class AudioDeviceOpening: Sendable {
    private struct State {
        var result: Result<AudioDevice, any Error>?
        var abandoned = false
    }
    private let state = Locked(State())

    /// Opens once `hold` is open: SDL's audio subsystem is started on the main thread.
    init(rate: Int, channels: Int, after hold: Latch, in group: DispatchGroup) {
        startEngineThread("launchad-aopen", in: group) { [state] in
            hold.wait {}
            guard !state.withLock({ $0.abandoned }) else { return }
            let opened = Result { try AudioDevice(rate: rate, channels: channels) }
            let kept = state.change { s -> Bool in
                guard !s.abandoned else { return false }
                s.result = opened
                return true
            }
            // Nobody will take it: closed before the thread ends.
            if !kept { (try? opened.get())?.close() }
        }
    }

    /// The device, or why there is none, once the opening thread has it.
    func take() throws -> AudioDevice {
        let r = state.wait(
            until: { $0.result != nil || $0.abandoned },
            then: { s, _ in
                defer { s.result = nil }
                return s.result
            })
        guard let r else { throw SDLError(.noAudio, "the run ended before the audio device opened") }
        return try r.get()
    }

    /// The run no longer needs a device (stopped, failed, or the file turned out to have no
    /// usable audio): one already opened is closed here, a later one by its thread.
    func abandon() {
        let r = state.change { s in
            s.abandoned = true
            defer { s.result = nil }
            return s.result
        }
        (try? r?.get())?.close()
    }
}
