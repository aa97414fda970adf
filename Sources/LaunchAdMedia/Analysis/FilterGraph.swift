import CFFmpeg
import LaunchAdCore

/// Owns an AVFilterGraph fed by buffer sources and read from buffer sinks: frames go in with `push`,
/// filtered frames (with the filters' metadata) come out of `pull`. One graph may hold several chains
/// (the analysis pass has a picture chain and a sound chain), each with its own source and sink.
final class FilterGraph {
    /// A buffer source: its label in the filter description and its filter and arguments.
    struct Input { var label: String; var filter: String; var args: String }
    /// A buffer sink and its label.
    struct Output { var label: String; var filter: String }

    private var graph: UnsafeMutablePointer<AVFilterGraph>?
    private let sources: [UnsafeMutablePointer<AVFilterContext>]
    private let sinks: [UnsafeMutablePointer<AVFilterContext>]

    /// A video graph for pictures like `frame`, whose timestamps are in `timeBase`.
    convenience init(video frame: Frame, timeBase: AVRational, filters: String) throws {
        try self.init(
            inputs: [Self.video(frame, timeBase: timeBase, label: "in")], outputs: [Output(label: "out", filter: "buffersink")],
            filters: filters)
    }

    /// An audio graph for sound like `frame`; timestamps in 1/sample_rate, as the ffmpeg CLI does.
    convenience init(audio frame: Frame, filters: String) throws {
        try self.init(inputs: [Self.audio(frame, label: "in")], outputs: [Output(label: "out", filter: "abuffersink")], filters: filters)
    }

    /// The source for pictures like `frame`.
    static func video(_ frame: Frame, timeBase: AVRational, label: String) -> Input {
        let f = frame.pointer.pointee
        var sar = f.sample_aspect_ratio
        if sar.num <= 0 || sar.den <= 0 { sar = AVRational(num: 1, den: 1) }
        let args =
            "video_size=\(f.width)x\(f.height):pix_fmt=\(f.format):time_base=\(timeBase.num)/\(timeBase.den)"
            + ":pixel_aspect=\(sar.num)/\(sar.den)"
        return Input(label: label, filter: "buffer", args: args)
    }

    /// The source for sound like `frame`.
    static func audio(_ frame: Frame, label: String) -> Input {
        let f = frame.pointer.pointee
        let format = libavutil.av_get_sample_fmt_name(AVSampleFormat(rawValue: f.format)).map { String(cString: $0) } ?? "fltp"
        var args = "time_base=1/\(f.sample_rate):sample_rate=\(f.sample_rate):sample_fmt=\(format)"
        // A file that names no layout (WAV, some MOV) gets the usual one for its channel count,
        // which is what the ffmpeg CLI assumes too.
        var layout = AVChannelLayout()
        if f.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC {
            libavutil.av_channel_layout_default(&layout, f.ch_layout.nb_channels)
        } else {
            var given = f.ch_layout
            _ = libavutil.av_channel_layout_copy(&layout, &given)
        }
        defer { libavutil.av_channel_layout_uninit(&layout) }
        var buf = [CChar](repeating: 0, count: 128)
        _ = libavutil.av_channel_layout_describe(&layout, &buf, buf.count)
        args += ":channel_layout=\(String(cBuffer: buf))"
        return Input(label: label, filter: "abuffer", args: args)
    }

    /// `filters` names each input and output by its label: "[vin]blackdetect[vout];[ain]ebur128[aout]"
    /// (a single chain with one input and one output may leave the labels out).
    init(inputs: [Input], outputs: [Output], filters: String, threads: Int = 0) throws {
        guard let g = libavfilter.avfilter_graph_alloc() else {
            throw MediaError(.filterFailed, "cannot load libavfilter or allocate a filter graph")
        }
        // Slice threads of filters that have them (signalstats); 0 lets libavfilter use every core.
        g.pointee.nb_threads = Int32(threads)
        var srcs: [UnsafeMutablePointer<AVFilterContext>] = []
        var snks: [UnsafeMutablePointer<AVFilterContext>] = []
        do {
            for i in inputs {
                var ctx: UnsafeMutablePointer<AVFilterContext>?
                try check(
                    libavfilter.avfilter_graph_create_filter(&ctx, libavfilter.avfilter_get_by_name(i.filter), i.label, i.args, nil, g),
                    .filterFailed, "creating the \(i.filter) source (\(i.args))")
                srcs.append(ctx!)
            }
            for o in outputs {
                var ctx: UnsafeMutablePointer<AVFilterContext>?
                try check(
                    libavfilter.avfilter_graph_create_filter(&ctx, libavfilter.avfilter_get_by_name(o.filter), o.label, nil, nil, g),
                    .filterFailed, "creating the \(o.filter) sink")
                snks.append(ctx!)
            }
            // The sources' outputs are the description's open inputs, and the other way round.
            var open = Self.links(zip(inputs.map(\.label), srcs))
            var ends = Self.links(zip(outputs.map(\.label), snks))
            // parse_ptr replaces these with whatever it did not link; free both either way.
            defer { libavfilter.avfilter_inout_free(&open); libavfilter.avfilter_inout_free(&ends) }
            try check(
                libavfilter.avfilter_graph_parse_ptr(g, filters, &ends, &open, nil), .filterFailed, "setting up filters '\(filters)'")
            try check(libavfilter.avfilter_graph_config(g, nil), .filterFailed, "configuring filters '\(filters)'")
        } catch {
            var dead: UnsafeMutablePointer<AVFilterGraph>? = g
            libavfilter.avfilter_graph_free(&dead)
            throw error
        }
        graph = g
        sources = srcs
        sinks = snks
    }

    /// A linked list of AVFilterInOut naming each context's pad 0.
    private static func links<S: Sequence>(_ pairs: S) -> UnsafeMutablePointer<AVFilterInOut>?
    where S.Element == (String, UnsafeMutablePointer<AVFilterContext>) {
        var head: UnsafeMutablePointer<AVFilterInOut>?
        for (label, ctx) in Array(pairs).reversed() {
            guard let link = libavfilter.avfilter_inout_alloc() else { continue }
            link.pointee.name = libavutil.av_strdup(label)
            link.pointee.filter_ctx = ctx
            link.pointee.pad_idx = 0
            link.pointee.next = head
            head = link
        }
        return head
    }

    deinit {
        libavfilter.avfilter_graph_free(&graph)
    }

    /// Feeds a frame to input `input` (its data is taken, leaving it blank), or nil for the end of that input.
    func push(_ frame: Frame?, input: Int = 0) throws {
        try check(
            libavfilter.av_buffersrc_add_frame_flags(sources[input], frame?.pointer, 0), .filterFailed, "feeding the analysis filters")
    }

    /// The next filtered frame from output `output` into `frame`; false when it needs input or is finished.
    func pull(into frame: Frame, output: Int = 0) throws -> Bool {
        frame.unref()
        let ret = libavfilter.av_buffersink_get_frame(sinks[output], frame.pointer)
        if ret == AVErr.again || ret == AVErr.eof { return false }
        try check(ret, .filterFailed, "reading the analysis filters")
        return true
    }
}

extension Frame {
    /// A value a filter wrote into this frame's metadata (lavfi.r128.I, lavfi.black_start, ...).
    func metadata(_ key: String) -> String? {
        guard let e = libavutil.av_dict_get(pointer.pointee.metadata, key, nil, 0), let v = e.pointee.value else { return nil }
        return String(cString: v)
    }

    func metadataNumber(_ key: String) -> Double? { metadata(key).flatMap(Double.init) }
}
