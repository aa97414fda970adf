import Foundation
import LaunchAdCore
import LaunchAdMedia

/// What the engine learned when it opened the creative.
public struct VideoFacts: Sendable {
    /// The decoded picture's size in pixels, before sample aspect and rotation.
    public let codedSize: Size
    /// Sample aspect and rotation applied.
    public let displaySize: Size
    /// Clockwise degrees to turn the picture.
    public let rotation: Int
    /// Length in seconds, the container's or else the video stream's; nil when unknown.
    public let duration: Double?
    /// Whether the file has an audio stream (not whether a device plays it).
    public let hasAudio: Bool
    /// The YUV-to-RGB matrix the decoder reports, for the video texture.
    public let colorMatrix: ColorMatrix
    /// One frame's duration in seconds, from the average frame rate (1/25 s when unknown).
    public let frameDuration: Double
    /// A single picture (PNG, JPEG, ...) rather than a video: the image loader shows it.
    public let isStillImage: Bool

    /// What is known of a still image before it is decoded.
    static let still = VideoFacts(
        codedSize: Size(width: 0, height: 0), displaySize: Size(width: 0, height: 0), rotation: 0,
        duration: nil, hasAudio: false, colorMatrix: .unspecified, frameDuration: 0, isStillImage: true)
}

/// ffplay's model: a read thread feeding a video and an audio decoder thread through packet
/// queues; the caller's (main) thread takes pictures and the clock. Opening happens on the read
/// thread too, so a slow source never blocks the window or the first-frame deadline.
/// Opens and decodes one video creative on its own threads, for `AdPlayer` to draw and time.
public final class PlaybackEngine: Sendable {
    /// How far opening the creative has got: still opening, ready with what it learned, or failed.
    public enum State: Sendable {
        case opening
        case ready(VideoFacts)
        case failed(MediaError)
    }

    private let source: String
    /// Opens an http(s) `source`; nil refuses one.
    private let network: NetworkOpener?
    private let events: EventSink
    /// What the read thread publishes and the others read. The demuxer and decoders are C
    /// objects the engine's threads own; the pipelines are thread-safe themselves.
    private struct Shared {
        var state: State = .opening
        var video: VideoPipeline?
        var audio: AudioPipeline?
        var aborted = false
        var startMuted: Bool
        var headerDisplaySize: Size?
    }
    private let shared: Locked<Shared>
    /// The read thread's wait for room in the packet queues.
    private let readGate = ReadGate()

    /// Total bytes of packets waiting before the read thread pauses (ffplay's 15 MiB).
    static let maxQueuedBytes = 15 * 1024 * 1024

    /// An engine for `source` (a path or URL), muted or not from the start; `network` opens an
    /// http(s) source; `wake` is called (on an engine thread) when `state` changes and when the
    /// first picture is decoded. Nothing happens until `start()`.
    public init(
        source: String, muted: Bool, events: EventSink, network: NetworkOpener? = nil, wake: @escaping @Sendable () -> Void = {}
    ) {
        self.source = source
        self.network = network
        shared = Locked(Shared(startMuted: muted))
        self.events = events
        self.wake = wake
    }

    private let wake: @Sendable () -> Void

    /// Every thread the engine started; `stop` waits for them so nothing outlives a run.
    private let threads = DispatchGroup()

    /// Starts the read thread, which opens the source and then feeds the decoders; `state` tells how it went.
    /// `holdingAudio`: the audio device opens only after `releaseAudio()` (the caller is still
    /// starting SDL's audio subsystem while the file opens).
    public func start(holdingAudio: Bool = false) {
        if !holdingAudio { audioHold.open() }
        startEngineThread("launchad-read", in: threads) { [self] in readLoop() }
    }

    /// SDL's audio subsystem has been started (or failed to): the audio device may open.
    public func releaseAudio() { audioHold.open() }

    private let audioHold = Latch()

    /// Where opening stands; safe to read from any thread.
    public var state: State { shared.withLock { $0.state } }

    /// The video's display size as the container's header gives it, known as soon as the header
    /// is read and before the streams are probed (which decodes the first pictures): the window
    /// can open at it meanwhile. nil for a still image or when the header does not say.
    public var headerDisplaySize: Size? { shared.withLock { $0.headerDisplaySize } }

    /// Stops every thread; safe to call more than once. With `wait`, returns once they have
    /// ended (bounded: an open blocked in the kernel, e.g. on a FIFO, is left behind).
    public func stop(wait: Bool = false) {
        let (v, a) = shared.withLock { s in
            s.aborted = true
            return (s.video, s.audio)
        }
        // Interrupts the open and the probing too, not only reads.
        abortFlag.set()
        audioHold.open()
        readGate.stop()
        v?.abort()
        a?.abort()
        if wait {
            _ = threads.wait(timeout: .now() + 1)
            // The device dies here, on the caller's (main) thread, before SDL's audio subsystem
            // stops: not on whichever engine thread happens to let go of the pipeline last.
            audio?.closeDevice()
        }
    }

    /// Set by `stop`; handed to the demuxer so FFmpeg's blocking calls return.
    private let abortFlag = AbortFlag()

    /// Pauses or resumes the sound; the caller stops taking pictures itself.
    public func setPaused(_ paused: Bool) { audio?.setPaused(paused) }
    /// Mutes or unmutes the sound; before the audio is open, sets how it starts.
    public func setMuted(_ muted: Bool) {
        let a = shared.withLock { s in
            s.startMuted = muted
            return s.audio
        }
        a?.setMuted(muted)
    }

    /// The pipelines once open; published by the read thread, read by the main thread.
    var video: VideoPipeline? { shared.withLock { $0.video } }
    var audio: AudioPipeline? { shared.withLock { $0.audio } }

    /// The audio clock while audio is playing; nil when there is none or it has played out.
    public var audioClock: Double? {
        guard let audio, !audio.isDrained else { return nil }
        return audio.clock
    }

    /// Whether sound plays through a device: false without an audio stream or a usable device.
    public var hasAudioOutput: Bool { audio != nil }
    /// True when all the sound has been played, or there is none.
    public var audioDrained: Bool { audio?.isDrained ?? true }
    /// True when the decoder has finished and every decoded picture has been taken.
    public var videoDrained: Bool { video?.pictures.isDrained ?? false }
    /// Packets the decoders rejected and pictures or sound they had to conceal, both streams.
    public var decodeErrors: Int { (video?.decodeErrors ?? 0) + (audio?.decodeErrors ?? 0) }

    private var isAborted: Bool { shared.withLock { $0.aborted } }

    private func fail(_ e: MediaError) {
        shared.withLock { $0.state = .failed(e) }
        wake()
    }

    private func readLoop() {
        var audioOpening: AudioDeviceOpening?
        // Whatever path ends the read, a device opened for nothing is closed.
        defer { audioOpening?.abandon() }
        guard let d = openHeader(&audioOpening) else { return }
        guard let vIndex = d.bestVideoStream else {
            return fail(MediaError(.noVideoStream, "\(source) has no video stream"))
        }
        let vInfo = d.stream(vIndex)
        let vDecoder: Decoder
        let threading = DecoderThreading.forPlayback(width: vInfo.width, height: vInfo.height, framesPerSecond: 1 / vInfo.frameDuration)
        do { vDecoder = try d.makeDecoder(stream: vIndex, slicesOnly: threading == .slices) } catch let e as MediaError {
            return fail(e)
        } catch {
            return fail(MediaError(.decoderFailed, "\(error)"))
        }
        let videoPipe = VideoPipeline(decoder: vDecoder, info: vInfo, roomMade: readGate, firstPicture: wake)
        // Stopped while opening: no audio device for a run that is over.
        guard !isAborted else { return }
        let audioPipe = openAudio(d, opening: audioOpening)
        audioOpening = nil
        let ds = vInfo.displaySize
        let facts = VideoFacts(
            codedSize: Size(width: vInfo.width, height: vInfo.height),
            displaySize: Size(width: ds.width, height: ds.height),
            rotation: vInfo.rotation, duration: d.duration ?? vInfo.durationSeconds,
            // The file's, not the device's (`audio_unavailable` tells about that).
            hasAudio: d.bestAudioStream != nil, colorMatrix: vDecoder.colorMatrix, frameDuration: vInfo.frameDuration,
            isStillImage: d.isStillImage)
        let published = shared.withLock { s -> Bool in
            guard !s.aborted else { return false }
            s.video = videoPipe
            s.audio = audioPipe?.pipe
            audioPipe?.pipe.setMuted(s.startMuted)
            s.state = .ready(facts)
            return true
        }
        guard published else { return }
        wake()
        videoPipe.start(in: threads)
        audioPipe?.pipe.start(in: threads)
        pump(d, video: (videoPipe, vIndex), audio: audioPipe)
    }

    /// Opens the source and probes its streams, starting the audio device's opening as soon as
    /// the header names an audio stream; nil when there is nothing more to read (a still image,
    /// published as such, or a failure, published as the state).
    private func openHeader(_ audioOpening: inout AudioDeviceOpening?) -> Demuxer? {
        do {
            // Only the header first: a still image is decoded once, by the image loader, not
            // also here to learn its size.
            let d = try Demuxer(path: source, findStreamInfo: false, abort: abortFlag, network: network)
            if d.isStillImage {
                shared.withLock { s in if !s.aborted { s.state = .ready(VideoFacts.still) } }
                wake()
                return nil
            }
            if let v = d.bestVideoStream {
                let size = d.stream(v).displaySize
                if size.width > 0, size.height > 0 {
                    shared.withLock { $0.headerDisplaySize = Size(width: size.width, height: size.height) }
                    wake()
                }
            }
            // The header names the audio stream: its device opens while the streams are probed.
            if let a = d.bestAudioStream {
                let want = PlaybackEngine.deviceFormat(d.stream(a))
                audioOpening = AudioDeviceOpening(rate: want.rate, channels: want.channels, after: audioHold, in: threads)
            }
            try d.findStreamInfo()
            return d
        } catch let e as MediaError {
            fail(e)
        } catch {
            fail(MediaError(.openFailed, "\(error)"))
        }
        return nil
    }

    /// Reads packets into the pipelines' queues until the end, an error or a stop, pausing while
    /// the queues hold enough; then tells the pipelines no more will come.
    private func pump(_ d: Demuxer, video: (pipe: VideoPipeline, index: Int), audio audioPipe: (pipe: AudioPipeline, index: Int)?) {
        let videoPipe = video.pipe, vIndex = video.index
        let packet = Packet()
        let aIndex = audioPipe?.index
        // ffplay's rule: stop reading while the queues hold 15 MiB, or enough of both streams.
        func full() -> Bool {
            let queued = videoPipe.packets.totalBytes + (audioPipe?.pipe.packets.totalBytes ?? 0)
            return queued > PlaybackEngine.maxQueuedBytes || (videoPipe.packets.hasEnough && (audioPipe?.pipe.packets.hasEnough ?? true))
        }
        while !isAborted {
            guard readGate.waitForRoom(full) else { break }
            do {
                guard try d.read(into: packet) else { break }
            } catch {
                // A truncated or damaged file ends where it breaks; what was read still plays.
                if !isAborted { events.emit(.readError(message: "\(error)")) }
                break
            }
            if packet.streamIndex == vIndex {
                videoPipe.packets.put(packet.moveOut())
            } else if packet.streamIndex == aIndex {
                audioPipe?.pipe.packets.put(packet.moveOut())
            } else {
                packet.unref()
            }
        }
        videoPipe.packets.finish()
        audioPipe?.pipe.packets.finish()
    }

    /// What to ask the device for: the stream's rate (48 kHz when the header does not say), at
    /// most stereo; the pipeline resamples to whatever the device settles on.
    static func deviceFormat(_ info: StreamInfo) -> (rate: Int, channels: Int) {
        (SoundRate.plausible.contains(info.sampleRate) ? info.sampleRate : 48000, min(2, max(1, info.channels)))
    }

    /// The audio stream's pipeline, or nil when the file has none or no device can play it
    /// (the ad then plays silently and an event says why).
    private func openAudio(_ d: Demuxer, opening: AudioDeviceOpening?) -> (pipe: AudioPipeline, index: Int)? {
        guard let index = d.bestAudioStream else { opening?.abandon(); return nil }
        let info = d.stream(index)
        do {
            let decoder: Decoder
            do {
                if let problem = SoundRate.problem(info.sampleRate) { throw MediaError(.decodeFailed, problem) }
                decoder = try d.makeDecoder(stream: index, threads: 1)
            } catch {
                opening?.abandon()
                throw error
            }
            let want = PlaybackEngine.deviceFormat(info)
            let device = try opening?.take() ?? audioHold.wait { try AudioDevice(rate: want.rate, channels: want.channels) }
            let muted = shared.withLock { $0.startMuted }
            return (AudioPipeline(decoder: decoder, device: device, info: info, muted: muted, roomMade: readGate), index)
        } catch {
            // ALSA's own lines were kept off stderr: the first says why (no sound card).
            let alsa = SDLAudio.alsaComplaint.map { " (ALSA: \($0))" } ?? ""
            events.emit(.audioUnavailable(message: "playing without sound: \(error)\(alsa)"))
            return nil
        }
    }

    /// The pictures waiting, oldest first.
    var queuedTimestamps: [Double] { video?.pictures.timestamps ?? [] }

    func popPictures(_ n: Int) -> DecodedPicture? { video?.pictures.pop(n) }
}
