import CFFmpeg

/// Owns an AVFilterGraph fed by one buffer source and read from one buffer sink:
/// frames go in with `push`, filtered frames (with the filters' metadata) come out of `pull`.
final class FilterGraph {
    private var graph: UnsafeMutablePointer<AVFilterGraph>?
    private let source: UnsafeMutablePointer<AVFilterContext>
    private let sink: UnsafeMutablePointer<AVFilterContext>

    /// A video graph for pictures like `frame`, whose timestamps are in `timeBase`.
    convenience init(video frame: Frame, timeBase: AVRational, filters: String) throws {
        let f = frame.pointer.pointee
        var sar = f.sample_aspect_ratio
        if sar.num <= 0 || sar.den <= 0 { sar = AVRational(num: 1, den: 1) }
        let args = "video_size=\(f.width)x\(f.height):pix_fmt=\(f.format):time_base=\(timeBase.num)/\(timeBase.den)" +
            ":pixel_aspect=\(sar.num)/\(sar.den)"
        try self.init(source: "buffer", args: args, sink: "buffersink", filters: filters)
    }

    /// An audio graph for sound like `frame`; timestamps in 1/sample_rate, as the ffmpeg CLI does.
    convenience init(audio frame: Frame, filters: String) throws {
        let f = frame.pointer.pointee
        let format = av_get_sample_fmt_name(AVSampleFormat(rawValue: f.format)).map { String(cString: $0) } ?? "fltp"
        var args = "time_base=1/\(f.sample_rate):sample_rate=\(f.sample_rate):sample_fmt=\(format)"
        // A file that names no layout (WAV, some MOV) gets the usual one for its channel count,
        // which is what the ffmpeg CLI assumes too.
        var layout = AVChannelLayout()
        if f.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC {
            av_channel_layout_default(&layout, f.ch_layout.nb_channels)
        } else {
            var given = f.ch_layout
            av_channel_layout_copy(&layout, &given)
        }
        defer { av_channel_layout_uninit(&layout) }
        var buf = [CChar](repeating: 0, count: 128)
        av_channel_layout_describe(&layout, &buf, buf.count)
        args += ":channel_layout=\(String(cString: buf))"
        try self.init(source: "abuffer", args: args, sink: "abuffersink", filters: filters)
    }

    private init(source sourceName: String, args: String, sink sinkName: String, filters: String) throws {
        guard let g = launchad_avfilter_graph_alloc() else { throw MediaError("filter_failed", "cannot load libavfilter or allocate a filter graph") }
        var src: UnsafeMutablePointer<AVFilterContext>?
        var snk: UnsafeMutablePointer<AVFilterContext>?
        do {
            try check(launchad_avfilter_graph_create_filter(&src, launchad_avfilter_get_by_name(sourceName), "in", args, nil, g),
                      "filter_failed", "creating the \(sourceName) source (\(args))")
            try check(launchad_avfilter_graph_create_filter(&snk, launchad_avfilter_get_by_name(sinkName), "out", nil, nil, g),
                      "filter_failed", "creating the \(sinkName) sink")
            var outputs = launchad_avfilter_inout_alloc(), inputs = launchad_avfilter_inout_alloc()
            // parse_ptr replaces these with whatever it did not link; free both either way.
            defer { launchad_avfilter_inout_free(&outputs); launchad_avfilter_inout_free(&inputs) }
            guard let o = outputs, let i = inputs else { throw MediaError("out_of_memory", "cannot allocate filter links") }
            o.pointee.name = av_strdup("in")
            o.pointee.filter_ctx = src
            i.pointee.name = av_strdup("out")
            i.pointee.filter_ctx = snk
            try check(launchad_avfilter_graph_parse_ptr(g, filters, &inputs, &outputs, nil), "filter_failed", "setting up filters '\(filters)'")
            try check(launchad_avfilter_graph_config(g, nil), "filter_failed", "configuring filters '\(filters)'")
        } catch {
            var dead: UnsafeMutablePointer<AVFilterGraph>? = g
            launchad_avfilter_graph_free(&dead)
            throw error
        }
        graph = g
        source = src!
        sink = snk!
    }

    deinit {
        launchad_avfilter_graph_free(&graph)
    }

    /// Feeds a frame (its data is taken, leaving it blank), or nil for the end of input.
    func push(_ frame: Frame?) throws {
        try check(launchad_av_buffersrc_add_frame_flags(source, frame?.pointer, 0), "filter_failed", "feeding the analysis filters")
    }

    /// The next filtered frame into `frame`; false when the graph needs input or is finished.
    func pull(into frame: Frame) throws -> Bool {
        frame.unref()
        let ret = launchad_av_buffersink_get_frame(sink, frame.pointer)
        if ret == AVErr.again || ret == AVErr.eof { return false }
        try check(ret, "filter_failed", "reading the analysis filters")
        return true
    }
}

extension Frame {
    /// A value a filter wrote into this frame's metadata (lavfi.r128.I, lavfi.black_start, ...).
    func metadata(_ key: String) -> String? {
        guard let e = av_dict_get(pointer.pointee.metadata, key, nil, 0), let v = e.pointee.value else { return nil }
        return String(cString: v)
    }

    func metadataNumber(_ key: String) -> Double? { metadata(key).flatMap(Double.init) }
}
