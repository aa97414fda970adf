import CFFmpeg
import LaunchAdCore

/// The analysis pass's one filter graph: pictures through `videoFilters`, sound through `audioFilters`, each
/// chain with its own source and sink in the same AVFilterGraph, fed from the one decode. Every filter passes
/// its input through untouched and adds its findings as frame metadata, so a chain runs them one after the
/// other on the same frames: the same work as `split` outputs without the extra copies of the references.
final class AnalysisGraph {
    /// blackdetect and silencedetect at their published defaults (d=2); freezedetect at its default noise
    /// (0.001) for runs of 0.1 s and longer; idet, cropdetect at their defaults; signalstats counting pixels
    /// out of broadcast range; ebur128 measuring true peak and writing its figures as metadata; astats
    /// writing the three figures the rules read; aphasemeter measuring, not drawing.
    static let videoFilters = "blackdetect,freezedetect=d=0.1,idet,cropdetect,signalstats=stat=brng"
    static let audioFilters =
        "ebur128=peak=true:metadata=1,silencedetect,"
        + "astats=metadata=1:measure_perchannel=DC_offset+Peak_level+Peak_count:measure_overall=none,aphasemeter=video=0"
    /// Sound decoded before the first picture waits for it (so the graph is set up for the real pictures);
    /// this many blocks (about 20 s of AAC) at most.
    static let soundQueueLimit = 1000

    /// The whole description as the ffmpeg CLI's -filter_complex would take it.
    static func description(video: Bool, audio: Bool) -> String {
        var chains: [String] = []
        if video { chains.append("[vin]\(videoFilters)[vout]") }
        if audio { chains.append("[ain]\(audioFilters)[aout]") }
        return chains.joined(separator: ";")
    }

    private let videoInfo: StreamInfo?
    private let audioInfo: StreamInfo?
    private let onPicture: (Frame) -> Void
    private let onSound: (Frame) -> Void
    private var graph: FilterGraph?
    private var videoSource: FilterGraph.Input?
    private var audioSource: FilterGraph.Input?
    private var queued: [Frame] = []
    private var videoEnded = false, audioEnded = false
    /// Which chains the current graph has: the video chain is input and output 0 when present.
    private var hasVideo = false, hasAudio = false
    private let out = Frame()

    private let threads: Int

    /// Why the sound is not analysed, when its chain cannot be set up for it (32 channels with no
    /// layout: ebur128 and aphasemeter refuse them) while the pictures' can: the pictures are
    /// analysed alone, and the sound's rules say why they have nothing.
    private(set) var soundProblem: String?

    /// `video`/`audio`: the streams to analyse (nil: none); `threads` for the filters (0: one per core).
    /// Filtered frames are handed to the two closures.
    init(video: StreamInfo?, audio: StreamInfo?, threads: Int = 0, onPicture: @escaping (Frame) -> Void, onSound: @escaping (Frame) -> Void)
    {
        self.threads = threads
        videoInfo = video
        // libavfilter's sound filters corrupt memory on rates no sound has (a WAV declaring 1 Hz or
        // 2 GHz crashed `validate` with SIGSEGV): such sound is not analysed, and the rules say why.
        let problem = audio.flatMap { SoundRate.problem($0.sampleRate) }
        audioInfo = problem == nil ? audio : nil
        soundProblem = problem.map { "sound not analysed: " + $0 }
        self.onPicture = onPicture
        self.onSound = onSound
    }

    /// A picture (nil: the end of the pictures), its timestamp already counted from the file's start.
    func picture(_ frame: Frame?) throws {
        guard let info = videoInfo, !videoEnded else { return }
        guard let frame else {
            videoEnded = true
            if graph == nil { try build() }
            try push(nil, video: true)
            return
        }
        let source = FilterGraph.video(frame, timeBase: info.timeBase, label: "vin")
        // A picture of another size or format (a spliced stream) needs a new graph, as the ffmpeg CLI makes one.
        if graph == nil || source.args != videoSource?.args {
            try drain()
            videoSource = source
            try build()
        }
        try push(frame, video: true)
    }

    /// A block of sound (nil: the end), its timestamp in samples from the file's start.
    func sound(_ frame: Frame?) throws {
        guard audioInfo != nil, soundProblem == nil else { return }
        guard let frame else {
            if graph == nil { try build() }
            try push(nil, video: false)
            audioEnded = true
            return
        }
        // A rate that changes mid-stream to one no sound has ends the sound's analysis there.
        if let problem = SoundRate.problem(frame.sampleRate) { soundProblem = "sound not analysed: " + problem; return }
        let source = FilterGraph.audio(frame, label: "ain")
        if graph == nil && videoInfo != nil && !videoEnded && queued.count < Self.soundQueueLimit
            && (audioSource == nil || source.args == audioSource?.args), let copy = libavutil.av_frame_clone(frame.pointer)
        {
            audioSource = source
            queued.append(Frame(taking: copy))
            return
        }
        if graph == nil {
            if audioSource == nil { audioSource = source }
            try build()
        }
        if source.args != audioSource?.args {
            try drain()
            audioSource = source
            try build()
        }
        try push(frame, video: false)
    }

    /// Sets up the graph for the sources known (a stand-in from the stream's parameters for one not seen
    /// yet), then feeds it the sound that waited.
    private func build() throws {
        let video = videoInfo != nil && !videoEnded
        if video && videoSource == nil, let info = videoInfo { videoSource = Self.guess(video: info) }
        if audioInfo != nil && audioSource == nil, let info = audioInfo { audioSource = Self.guess(audio: info) }
        var inputs: [FilterGraph.Input] = [], outputs: [FilterGraph.Output] = []
        if video, let v = videoSource { inputs.append(v); outputs.append(.init(label: "vout", filter: "buffersink")) }
        if let a = audioSource, !audioEnded { inputs.append(a); outputs.append(.init(label: "aout", filter: "abuffersink")) }
        hasVideo = video
        hasAudio = audioSource != nil && !audioEnded
        // Nothing left to analyse (a stream that ended without a frame): no graph.
        guard !inputs.isEmpty else { graph = nil; return }
        do {
            graph = try FilterGraph(
                inputs: inputs, outputs: outputs, filters: Self.description(video: video, audio: hasAudio),
                threads: threads)
        } catch let e as MediaError where hasAudio {
            try withoutSound(e, video: video ? inputs.first : nil)
            return
        }
        let waiting = queued
        queued = []
        for q in waiting { try push(q, video: false) }
    }

    /// The graph with the pictures' chain alone (none for a file without pictures), after the
    /// one with the sound's failed with `error`; a failure of the pictures' chain is theirs.
    private func withoutSound(_ error: MediaError, video: FilterGraph.Input?) throws {
        if let video {
            graph = try FilterGraph(
                inputs: [video], outputs: [.init(label: "vout", filter: "buffersink")],
                filters: Self.description(video: true, audio: false), threads: threads)
        } else {
            graph = nil
        }
        let reason = error.message.split(separator: ":").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? error.message
        let channels = audioInfo.map { "\($0.channels) channels" } ?? "the sound"
        soundProblem = "sound not analysed: the loudness and phase filters cannot take \(channels) with this channel layout (\(reason))"
        hasAudio = false
        audioSource = nil
        queued = []
    }

    private func push(_ frame: Frame?, video: Bool) throws {
        guard let graph else { return }
        if video ? !hasVideo : !hasAudio { return }
        let i = video ? 0 : (hasVideo ? 1 : 0)
        try graph.push(frame, input: i)
        while try graph.pull(into: out, output: i) { video ? onPicture(out) : onSound(out) }
    }

    /// Ends the current graph, reading what its filters still hold.
    private func drain() throws {
        guard graph != nil else { return }
        // A chain whose stream has ended has had its end already.
        if hasVideo && !videoEnded { try push(nil, video: true) }
        if hasAudio && !audioEnded { try push(nil, video: false) }
        graph = nil
    }

    private static func guess(video info: StreamInfo) -> FilterGraph.Input {
        var sar = info.sampleAspect
        if sar.num <= 0 || sar.den <= 0 { sar = AVRational(num: 1, den: 1) }
        return .init(
            label: "vin", filter: "buffer",
            args: "video_size=\(info.width)x\(info.height):pix_fmt=\(info.pixelFormat.rawValue)"
                + ":time_base=\(info.timeBase.num)/\(info.timeBase.den):pixel_aspect=\(sar.num)/\(sar.den)")
    }

    private static func guess(audio info: StreamInfo) -> FilterGraph.Input {
        // For sound the stream's `format` field is its sample format.
        let format =
            libavutil.av_get_sample_fmt_name(AVSampleFormat(rawValue: info.pixelFormat.rawValue)).map { String(cString: $0) } ?? "fltp"
        var layout = AVChannelLayout()
        libavutil.av_channel_layout_default(&layout, Int32(max(1, info.channels)))
        defer { libavutil.av_channel_layout_uninit(&layout) }
        var buf = [CChar](repeating: 0, count: 128)
        _ = libavutil.av_channel_layout_describe(&layout, &buf, buf.count)
        return .init(
            label: "ain", filter: "abuffer",
            args:
                "time_base=1/\(info.sampleRate):sample_rate=\(info.sampleRate):sample_fmt=\(format):channel_layout=\(String(cBuffer: buf))")
    }
}
