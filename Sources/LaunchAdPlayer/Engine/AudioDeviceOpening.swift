import Foundation

/// Opens the audio output on its own thread while the file is still being probed: a sound
/// server can take tens of milliseconds to answer, and the first picture should not wait for
/// it. The stream's header gives the rate and channels; the pipeline resamples to whatever the
/// device settles on, so the probe finding other values later changes nothing.
// unchecked Sendable: waits on a condition variable (NSCondition, as `Locked` cannot wait); `result` and `abandoned` are guarded by `condition`.
final class AudioDeviceOpening: @unchecked Sendable {
    private let condition = NSCondition()
    private var result: Result<AudioDevice, any Error>?
    private var abandoned = false

    /// Opens once `hold` is open: SDL's audio subsystem is started on the main thread.
    init(rate: Int, channels: Int, after hold: Latch, in group: DispatchGroup) {
        startEngineThread("launchad-aopen", in: group) { [self] in
            hold.wait {}
            condition.lock()
            let needed = !abandoned
            condition.unlock()
            guard needed else { return }
            let opened = Result { try AudioDevice(rate: rate, channels: channels) }
            condition.lock()
            if abandoned {
                condition.unlock()
                (try? opened.get())?.close()  // nobody will take it: closed before the thread ends
                return
            }
            result = opened
            condition.broadcast()
            condition.unlock()
        }
    }

    /// The device, or why there is none, once the opening thread has it.
    func take() throws -> AudioDevice {
        condition.lock()
        while result == nil && !abandoned { condition.wait() }
        let r = result
        result = nil
        condition.unlock()
        guard let r else { throw SDLError(.noAudio, "the run ended before the audio device opened") }
        return try r.get()
    }

    /// The run no longer needs a device (stopped, failed, or the file turned out to have no
    /// usable audio): one already opened is closed here, a later one by its thread.
    func abandon() {
        condition.lock()
        abandoned = true
        let r = result
        result = nil
        condition.broadcast()
        condition.unlock()
        (try? r?.get())?.close()
    }
}
