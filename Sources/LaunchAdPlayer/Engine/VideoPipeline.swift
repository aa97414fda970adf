import Foundation
import LaunchAdCore
import LaunchAdMedia

/// Decodes the video stream on its own thread into yuv420p pictures for the screen. Only other
/// pixel formats go through swscale; yuv420p goes to the texture as decoded.
// unchecked Sendable: owns C objects (the FFmpeg decoder and the scaler's SwsContext) that only
// the decoding thread touches, with `scaledSize`; what other threads read is `Locked`.
final class VideoPipeline: @unchecked Sendable {
    let packets: PacketQueue
    let pictures = PictureQueue()
    /// Handed to the decoding thread, which frees it (and FFmpeg's own threads) when it ends.
    private var decoder: Decoder?
    private let info: StreamInfo
    private var scaler: Scaler?
    private var scaledSize: (Int, Int)?
    private let state = Locked((errors: 0, aborted: false))
    private let firstPicture: @Sendable () -> Void

    /// `firstPicture` is called on the decoding thread once the first picture is queued.
    init(decoder: Decoder, info: StreamInfo, roomMade: ReadGate? = nil, firstPicture: @escaping @Sendable () -> Void = {}) {
        self.decoder = decoder
        self.info = info
        self.firstPicture = firstPicture
        packets = PacketQueue(secondsPerTick: info.seconds(1), roomMade: roomMade)
    }

    /// Starts the decoding thread; it leaves `group` when it ends.
    func start(in group: DispatchGroup) {
        guard let decoder else { return }
        self.decoder = nil
        startEngineThread("launchad-video", in: group) { [self] in run(decoder) }
    }

    func abort() {
        state.withLock { $0.aborted = true }
        packets.abort()
        pictures.abort()
    }

    /// Packets the decoder rejected and pictures it flagged corrupt.
    var decodeErrors: Int { state.withLock { $0.errors } }
    private var isAborted: Bool { state.withLock { $0.aborted } }

    private func run(_ decoder: Decoder) {
        let frame = Frame()
        var lastPTS: Double?
        let frameDuration = info.frameDuration
        var firstPut: Int64?
        var decodedTwice: Int64?
        var announced = false
        func receiveAll() -> Bool {
            while !isAborted {
                guard let r = try? decoder.receive(into: frame) else { countError(); return true }
                guard r == .frame else { return true }
                if let twice = decodedTwice, frame.bestEffortPTS == twice {
                    decodedTwice = nil
                    frame.unref()
                    continue
                }
                if firstPut == nil { firstPut = frame.bestEffortPTS }
                if frame.isCorrupt { countError() }
                // Timestamps can be missing in broken files: continue from the last one.
                let pts = frame.bestEffortPTS.map(info.seconds) ?? (lastPTS.map { $0 + frameDuration } ?? 0)
                lastPTS = pts
                guard let picture = displayable(frame.moveOut(), pts: pts) else { countError(); continue }
                if !pictures.put(picture) { return false }
                if !announced { announced = true; firstPicture() }
            }
            return false
        }
        var next = packets.get()
        // H.264 and HEVC give a picture out only once `reorderDelay` later ones are decoded. A
        // stream's first keyframe is its first picture shown anyway, so it is decoded alone and
        // drained: on screen without that wait (two pictures' decoding, about 11 ms at 1080p).
        // The decoder is then flushed and given it again to decode the rest from; that second
        // copy of the picture is dropped. Not with frame threads (over 1080p60), where decoding
        // the first picture twice costs more than it saves, nor when the stream is not known to
        // be progressive (a field-coded picture comes in two packets: one alone is half of it).
        if let first = next, first.isKeyframe, decoder.reorderDelay > 0, !decoder.usesFrameThreads, decoder.isProgressive {
            if (try? decoder.send(first)) == true, (try? decoder.send(nil)) == true {
                if !receiveAll() { return }
                decodedTwice = firstPut
            }
            decoder.flush()
        }
        while let packet = next ?? packets.get() {
            next = nil
            var sent = false
            repeat {
                do { sent = try decoder.send(packet) } catch { countError(); sent = true }
                if !receiveAll() { return }
            } while !sent && !isAborted
        }
        guard !isAborted else { return }
        _ = try? decoder.send(nil)
        _ = receiveAll()
        pictures.finish()
    }

    private func displayable(_ frame: Frame, pts: Double) -> DecodedPicture? {
        let longest = max(frame.width, frame.height)
        if frame.isYUV420P && longest <= ImageLoader.maxSide { return DecodedPicture(frame: frame, pts: pts) }
        // Pictures over 4096 px a side (an 8192x8192 creative is 96 MB a picture, three queued
        // and one in a texture) are scaled down on the way: no screen shows more.
        var size: (Int, Int)?
        if longest > ImageLoader.maxSide {
            let scale = Double(ImageLoader.maxSide) / Double(longest)
            size = (max(2, Int(Double(frame.width) * scale) & ~1), max(2, Int(Double(frame.height) * scale) & ~1))
        }
        if scaler == nil || scaledSize?.0 != size?.0 || scaledSize?.1 != size?.1 {
            scaler = Scaler.toYUV420P(size: size.map { (width: $0.0, height: $0.1) })
            scaledSize = size
        }
        guard let converted = try? scaler!.convert(frame) else { return nil }
        return DecodedPicture(frame: converted, pts: pts)
    }

    private func countError() { state.withLock { $0.errors += 1 } }
}
