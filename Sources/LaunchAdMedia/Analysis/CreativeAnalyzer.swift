import CFFmpeg
import LaunchAdCore

/// `launchad validate`'s one pass over a creative: every packet is read once, counted for the probe
/// facts and decoded; pictures and sound go through one filter graph (AnalysisGraph) whose findings
/// become the analysis facts.
public final class CreativeAnalyzer {
    /// Pictures larger than this (8K) are decoded but not run through the filters: the time and memory
    /// would be out of all proportion to a creative, and no ad format asks for them.
    public static let largestAnalysed = (width: 4096, height: 2304)
    /// blackdetect's black_min_duration default: shorter runs are not reported as black.
    static let blackMinDuration = 2.0
    /// Decoding that stops this far short of the container's duration means a damaged or cut file.
    static let truncationSlack = 0.5

    private let demuxer: Demuxer
    private let videoIndex: Int?
    private let audioIndex: Int?
    private var video: Track?
    private var audio: Track?
    private var facts = AnalysisFacts()
    private var blackStart: Double?
    private var silenceStart: Double?
    private var lastPictureTime: Double?
    private var soundEnd: Double?
    private var capture: PictureCapture?
    private var graph: AnalysisGraph?
    private var signal = SignalReader()

    /// Threads for each decoder and for the filters (0: FFmpeg picks, one per core).
    private let threads: Int

    /// With `pictures`, pictures for the HTML report are taken from the same decode. `threads` > 0 caps the
    /// decoders' and filters' threads: when several creatives are checked at once each gets its share of cores.
    public init(path: String, pictures: PictureRequest? = nil, threads: Int = 0) throws {
        self.threads = threads
        demuxer = try MediaProbe.open(path)
        videoIndex = demuxer.bestStream(AVMEDIA_TYPE_VIDEO)
        audioIndex = demuxer.bestStream(AVMEDIA_TYPE_AUDIO)
        if let pictures, let v = videoIndex {
            let info = demuxer.stream(v)
            capture = PictureCapture(
                pictures, info: info, duration: info.durationSeconds ?? demuxer.duration ?? 0,
                still: demuxer.isStillImage)
        }
    }

    /// Reads and decodes everything; `progress` gets the fraction of the duration read so far.
    public func run(progress: ((Double) -> Void)? = nil) throws -> CreativeFacts {
        let stats = PacketStats(demuxer)
        video = try videoIndex.map { try Track(demuxer, $0, threads: threads, issues: &facts.decodeErrors) } ?? nil
        audio = try audioIndex.map { try Track(demuxer, $0, threads: threads, issues: &facts.decodeErrors) } ?? nil
        var analysedVideo = video?.info
        let most = Self.largestAnalysed
        // By area, so a portrait 2160x3840 picture is analysed like a landscape one.
        if let v = video?.info, v.width * v.height > most.width * most.height {
            signal.facts.picturesNotAnalysed = "\(v.width)x\(v.height) is larger than \(most.width)x\(most.height): pictures not analysed"
            analysedVideo = nil
        }
        if video != nil || audio != nil {
            graph = AnalysisGraph(
                video: analysedVideo, audio: audio?.info, threads: threads,
                onPicture: { [unowned self] in self.readPicture($0) },
                onSound: { [unowned self] in self.readSound($0) })
        }
        let duration = demuxer.duration ?? 0
        let infos = (0..<demuxer.streamCount).map(demuxer.stream)
        let start = demuxer.startSeconds
        let packet = Packet()
        var lastReport = -1.0
        while true {
            do {
                guard try demuxer.read(into: packet) else { break }
            } catch let e as MediaError {
                facts.decodeErrors.append(DecodeIssue(seconds: lastPictureTime, stream: -1, message: e.message))
                break
            }
            stats.add(packet)
            let i = packet.streamIndex
            // Streams found after the header (MPEG-TS) are read past, not analysed.
            if i < infos.count, let t = packet.pts.map({ infos[i].seconds($0) - start }), duration > 0, t - lastReport >= 0.25 {
                lastReport = t
                progress?(min(1, max(0, t / duration)))
            }
            if i == videoIndex { decode(packet, video) } else if i == audioIndex { decode(packet, audio) }
            packet.unref()
        }
        decode(nil, video)
        decode(nil, audio)
        finish()
        facts.pictures = capture?.finish() ?? []
        signal.facts.soundNotAnalysed = graph?.soundProblem
        facts.signal = signal.finish()
        graph = nil
        progress?(1)
        return CreativeFacts(probe: MediaProbe.facts(demuxer, stats), analysis: facts)
    }

    /// Sends one packet (nil: the end) and takes every picture or sound it yields.
    private func decode(_ packet: Packet?, _ track: Track?) {
        guard let track, !track.finished else { return }
        let at = packet?.pts.map { track.seconds($0) }
        var sent = false, stalls = 0
        while !sent {
            do {
                // false while the decoder has frames to hand out before it takes more.
                sent = try track.decoder.send(packet)
            } catch let e as MediaError {
                issue(at, track, e.message)
                sent = true
            } catch { sent = true }
            guard receive(track, at) else { return }
            // A decoder that neither takes input nor gives output would spin here forever.
            stalls += 1
            if stalls > 100 {
                issue(at, track, "the \(track.decoder.codecName) decoder stopped taking input")
                return
            }
        }
    }

    /// Takes every frame the decoder has; false once it has ended or failed.
    private func receive(_ track: Track, _ at: Double?) -> Bool {
        while true {
            let got: Decoder.Received
            do { got = try track.decoder.receive(into: track.frame) } catch let e as MediaError {
                issue(at, track, e.message)
                return false
            } catch { return false }
            switch got {
            case .needsInput: return true
            case .endOfStream:
                track.finished = true
                filter(nil, track)
                return false
            case .frame:
                if track.frame.decodeErrorFlags != 0 || track.frame.isCorrupt {
                    issue(
                        track.frame.bestEffortPTS.map { track.seconds($0) } ?? at, track,
                        "damaged \(track.isVideo ? "picture" : "sound") (errors concealed)")
                }
                if track.isVideo { facts.videoFrames += 1 } else { facts.audioFrames += 1 }
                if track.isVideo, let capture, let pts = track.frame.bestEffortPTS {
                    capture.offer(track.frame, seconds: track.seconds(pts))
                }
                reached(track.frame, track)
                filter(track.frame, track)
            }
        }
    }

    /// Notes how far decoding has got: the end of this picture or sound.
    private func reached(_ f: Frame, _ track: Track) {
        guard let pts = f.bestEffortPTS else { return }
        let length = track.isVideo ? track.info.frameDuration : Double(f.sampleCount) / Double(max(f.sampleRate, 1))
        let end = track.seconds(pts) + length
        facts.decodedUntil = max(facts.decodedUntil ?? end, end)
    }

    private func issue(_ seconds: Double?, _ track: Track, _ message: String) {
        facts.decodeErrors.append(DecodeIssue(seconds: seconds, stream: track.info.index, message: message))
    }

    /// Pushes a decoded frame (nil: the end) into the analysis graph; what comes out is read as it comes.
    private func filter(_ frame: Frame?, _ track: Track) {
        guard track.analysable, let graph else { return }
        do {
            if let frame {
                if !track.isVideo { signal.facts.audioChannels = frame.channelCount }
                let tb = track.info.timeBase
                let pts = frame.bestEffortPTS ?? noPTS
                // Times start at the file's start, as the ffmpeg CLI shifts them. Video keeps the stream's
                // time base; audio counts samples, as the CLI feeds them.
                let shifted = pts == noPTS ? pts : pts - track.startTicks
                frame.pointer.pointee.pts =
                    track.isVideo || pts == noPTS
                    ? shifted : libavutil.av_rescale_q(shifted, tb, AVRational(num: 1, den: Int32(frame.sampleRate)))
            }
            try track.isVideo ? graph.picture(frame) : graph.sound(frame)
        } catch let e as MediaError {
            issue(frame?.bestEffortPTS.map { track.seconds($0) }, track, "analysis: \(e.message)")
            track.analysable = false
        } catch {}
    }

    private func readPicture(_ f: Frame) {
        guard let track = video else { return }
        if facts.firstFrameBlack == nil { facts.firstFrameBlack = f.metadata("lavfi.black_start") != nil }
        if let s = f.metadataNumber("lavfi.black_start") { blackStart = s }
        if let e = f.metadataNumber("lavfi.black_end"), let s = blackStart {
            addBlack(s, e)
            blackStart = nil
        }
        let pts = f.pointer.pointee.pts
        if pts != noPTS { lastPictureTime = track.info.seconds(pts) }
        signal.picture(f, seconds: pts == noPTS ? nil : track.info.seconds(pts), frameDuration: track.info.frameDuration)
    }

    private func readSound(_ f: Frame) {
        if let v = f.metadataNumber("lavfi.r128.I") { facts.integratedLoudness = v }
        if let v = f.metadataNumber("lavfi.r128.LRA") { facts.loudnessRange = v }
        if let v = f.metadataNumber("lavfi.r128.true_peak") { facts.truePeak = v > 0 ? 20 * log10(v) : -.infinity }
        let rate = Double(f.sampleRate)
        // One short-term and one momentary reading per 100 ms block, stamped at the end of the sound that carried it.
        if f.pointer.pointee.pts != noPTS {
            let t = Double(f.pointer.pointee.pts) / rate + Double(f.sampleCount) / rate
            if let v = f.metadataNumber("lavfi.r128.S") { facts.shortTermLoudness.append(LoudnessPoint(t, v)) }
            if let v = f.metadataNumber("lavfi.r128.M") { facts.momentaryLoudness.append(LoudnessPoint(t, v)) }
        }
        if let s = f.metadataNumber("lavfi.silence_start") { silenceStart = s }
        if let e = f.metadataNumber("lavfi.silence_end"), let s = silenceStart {
            facts.silence.append(Interval(s, e))
            silenceStart = nil
        }
        if f.pointer.pointee.pts != noPTS { soundEnd = Double(f.pointer.pointee.pts) / rate + Double(f.sampleCount) / rate }
        signal.sound(f, seconds: f.pointer.pointee.pts == noPTS ? nil : Double(f.pointer.pointee.pts) / rate)
    }

    private func addBlack(_ start: Double, _ end: Double) {
        if end - start >= Self.blackMinDuration { facts.black.append(Interval(start, end)) }
    }

    /// Closes what is still open at the end, as the filters do when they are freed, and checks
    /// that decoding reached the end the container promised.
    private func finish() {
        // blackdetect ends an open run at the last picture's timestamp; silencedetect at the sound's end.
        if let s = blackStart, let t = lastPictureTime { addBlack(s, t) }
        if let s = silenceStart, let e = soundEnd { facts.silence.append(Interval(s, e)) }
        if let duration = demuxer.duration, let reached = facts.decodedUntil, reached < duration - Self.truncationSlack {
            facts.decodeErrors.append(
                DecodeIssue(
                    seconds: reached, stream: -1,
                    message: "decoding stopped at \(fmt(reached)) s of \(fmt(duration)) s: the file is cut short or damaged"))
        } else if facts.videoFrames + facts.audioFrames == 0, videoIndex != nil || audioIndex != nil {
            facts.decodeErrors.append(DecodeIssue(seconds: nil, stream: -1, message: "nothing could be decoded"))
        }
    }

    private func fmt(_ d: Double) -> String { String(format: "%.2f", d) }
}

extension Demuxer {
    /// The container's first timestamp in seconds (0 for MP4; about 1.4 for MPEG-TS).
    var startSeconds: Double {
        let s = context.pointee.start_time
        return s == noPTS ? 0 : Double(s) / Double(launchad_av_time_base())
    }
}

/// A decoded stream and what it runs through.
private final class Track {
    let info: StreamInfo
    let decoder: Decoder
    let frame = Frame()
    var finished = false
    /// false once the filters have failed: decoding goes on, analysis of this stream stops.
    var analysable = true
    var isVideo: Bool { info.mediaType == AVMEDIA_TYPE_VIDEO }

    /// The file's start time in this stream's time base: timestamps are reported from it.
    let startTicks: Int64

    /// Seconds from the start of the file for a timestamp of this stream.
    func seconds(_ ts: Int64) -> Double { info.seconds(ts - startTicks) }

    /// nil, with the reason noted, when the stream has no decoder here.
    init?(_ demuxer: Demuxer, _ index: Int, threads: Int, issues: inout [DecodeIssue]) throws {
        info = demuxer.stream(index)
        let start = demuxer.context.pointee.start_time
        startTicks = start == noPTS ? 0 : libavutil.av_rescale_q(start, launchad_av_time_base_q(), info.timeBase)
        do {
            decoder = try demuxer.makeDecoder(stream: index, threads: threads)
        } catch let e as MediaError {
            issues.append(DecodeIssue(seconds: nil, stream: index, message: e.message))
            return nil
        }
    }
}
