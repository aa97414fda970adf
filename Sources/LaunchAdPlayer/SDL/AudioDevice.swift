import CSDL2
import Foundation
import LaunchAdCore

/// Owns an opened SDL audio output in queue mode (SDL_QueueAudio), float samples.
// unchecked Sendable: the device is used from the audio thread and the main thread; every SDL
// call on it happens under `open`, and after `close` none does.
/// An open SDL audio output fed Float32 samples through `queue`; every call is a no-op once `close()` has run.
public final class AudioDevice: @unchecked Sendable {
    let id: SDL_AudioDeviceID
    /// Whether the device is still open. The player closes it on the main thread before it stops
    /// SDL's audio subsystem: closing it later, from whichever thread let go of it last, freed
    /// SDL's device twice.
    private let open = Locked(true)
    /// The sample rate the device settled on, in Hz (may differ from the one asked for).
    public let rate: Int
    /// The channel count the device settled on (may differ from the one asked for).
    public let channels: Int
    /// Bytes per second of queued audio, for the clock.
    public let bytesPerSecond: Int
    /// The device's own buffer, in seconds: audio leaves the queue this long before it is heard.
    public let bufferSeconds: Double
    private let ownsSubsystem: Bool

    /// Opens the default output. Throws when there is no usable audio device.
    public init(rate: Int, channels: Int) throws {
        // Normally the player has started the subsystem on the main thread; standalone use starts it here.
        ownsSubsystem = libsdl.SDL_WasInit(SDL_INIT_AUDIO) == 0
        if ownsSubsystem, SDLHints.initSubSystem(SDL_INIT_AUDIO) < 0 {
            throw SDLError(.noAudio, "no audio driver")
        }
        var want = SDL_AudioSpec()
        want.freq = Int32(rate)
        want.format = launchad_sdl_audio_f32sys()
        want.channels = UInt8(max(1, min(channels, 8)))
        want.samples = 1024
        var have = SDL_AudioSpec()
        let changes = Int32(SDL_AUDIO_ALLOW_FREQUENCY_CHANGE | SDL_AUDIO_ALLOW_CHANNELS_CHANGE)
        let dev = libsdl.SDL_OpenAudioDevice(nil, 0, &want, &have, changes)
        guard dev != 0 else {
            let err = SDLError(.noAudio, "cannot open an audio device")
            if ownsSubsystem { libsdl.SDL_QuitSubSystem(SDL_INIT_AUDIO) }
            throw err
        }
        id = dev
        self.rate = Int(have.freq)
        self.channels = Int(have.channels)
        bytesPerSecond = Int(have.freq) * Int(have.channels) * 4
        bufferSeconds = Double(have.samples) / Double(have.freq)
    }

    deinit { close() }

    /// Closes the device; later calls do nothing, and the other methods become no-ops.
    public func close() {
        let wasOpen = open.withLock { isOpen in
            defer { isOpen = false }
            if isOpen { libsdl.SDL_CloseAudioDevice(id) }
            return isOpen
        }
        if wasOpen && ownsSubsystem { libsdl.SDL_QuitSubSystem(SDL_INIT_AUDIO) }
    }

    private func ifOpen<T: Sendable>(_ otherwise: T, _ body: () -> T) -> T {
        open.withLock { isOpen -> T in isOpen ? body() : otherwise }
    }

    /// SDL's current audio driver, e.g. "pulseaudio" or "alsa"; "none" when there is none.
    public var driverName: String { libsdl.SDL_GetCurrentAudioDriver().map { String(cString: $0) } ?? "none" }

    /// Queues interleaved native-endian Float32 samples at `rate` x `channels`; does nothing once closed.
    public func queue(_ bytes: [UInt8]) {
        ifOpen(()) { bytes.withUnsafeBytes { _ = libsdl.SDL_QueueAudio(id, $0.baseAddress, UInt32($0.count)) } }
    }

    /// Bytes queued and not yet handed to the device; 0 once closed.
    public var queuedBytes: Int { ifOpen(0) { Int(libsdl.SDL_GetQueuedAudioSize(id)) } }

    /// Pauses or resumes output (SDL opens a device paused).
    public func setPaused(_ paused: Bool) { ifOpen(()) { libsdl.SDL_PauseAudioDevice(id, paused ? 1 : 0) } }

    /// Drops everything queued and not yet handed to the device.
    public func clear() { ifOpen(()) { libsdl.SDL_ClearQueuedAudio(id) } }
}
