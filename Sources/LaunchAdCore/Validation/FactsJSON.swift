/// The JSON `launchad probe` prints and `validate --format json` embeds, keys in reading order.
/// Unknown facts are left out rather than written as null.
extension ProbeFacts {
    /// The facts as JSON: container fields, then `streams`.
    public var json: JSONValue {
        var o: [(String, JSONValue)] = [
            ("file", .string(file)), ("container", .string(container)),
            ("format_name", .string(formatName))
        ]
        o.add("duration", durationSeconds.map(JSONValue.double))
        o.append(("size", .int(fileSize)))
        o.add("bit_rate", bitRate.map(JSONValue.int))
        o.add("faststart", faststart.map(JSONValue.bool))
        if stillImage { o.append(("still_image", .bool(true))) }
        o.append(("streams", .array(streams.map(\.json))))
        return .object(o)
    }
}

extension StreamFacts {
    /// The stream as JSON, with ffprobe-like keys (`pix_fmt`, `field_order`, ...).
    public var json: JSONValue {
        var o: [(String, JSONValue)] = [("index", .int(index)), ("type", .string(kind.rawValue)), ("codec", .string(codec))]
        o.add("profile", profile.map(JSONValue.string))
        o.add("level", level.map(JSONValue.int))
        o.add("width", width.map(JSONValue.int))
        o.add("height", height.map(JSONValue.int))
        o.add("display_width", displayWidth.map(JSONValue.int))
        o.add("display_height", displayHeight.map(JSONValue.int))
        o.add("display_aspect_ratio", displayAspect.map(JSONValue.string))
        o.add("rotation", rotation.map(JSONValue.int))
        o.add("pix_fmt", pixelFormat.map(JSONValue.string))
        o.add("color_range", colorRange.map(JSONValue.string))
        o.add("color_space", colorSpace.map(JSONValue.string))
        o.add("color_primaries", colorPrimaries.map(JSONValue.string))
        o.add("color_transfer", colorTransfer.map(JSONValue.string))
        o.add("field_order", fieldOrder.map(JSONValue.string))
        o.add("frame_rate", frameRate.map(JSONValue.double))
        o.add("variable_frame_rate", variableFrameRate.map(JSONValue.bool))
        o.add("keyframes", keyframeCount.map(JSONValue.int))
        o.add("keyframe_interval_max", keyframeIntervalMax.map(JSONValue.double))
        o.add("keyframe_interval_avg", keyframeIntervalAverage.map(JSONValue.double))
        o.add("sample_rate", sampleRate.map(JSONValue.int))
        o.add("channels", channels.map(JSONValue.int))
        o.add("channel_layout", channelLayout.map(JSONValue.string))
        o.add("bit_rate", bitRate.map(JSONValue.int))
        o.add("duration", durationSeconds.map(JSONValue.double))
        return .object(o)
    }
}

extension AnalysisFacts {
    /// The analysis as JSON: counts, loudness, black and silence intervals, and the `signal` totals.
    public var json: JSONValue {
        var o: [(String, JSONValue)] = [
            ("decode_errors", .int(decodeErrors.count)),
            (
                "decode_error_list",
                .array(
                    decodeErrors.map { e in
                        .object([
                            ("time", e.seconds.map(JSONValue.double) ?? .null), ("stream", .int(e.stream)),
                            ("message", .string(e.message))
                        ])
                    })
            ),
            ("video_frames", .int(videoFrames)),
            ("audio_frames", .int(audioFrames))
        ]
        o.add("decoded_until", decodedUntil.map(JSONValue.double))
        o.add("integrated_loudness", integratedLoudness.map(JSONValue.double))
        o.add("loudness_range", loudnessRange.map(JSONValue.double))
        o.add("true_peak", truePeak.map(JSONValue.double))
        o.append(("black", .array(black.map(\.json))))
        o.append(("silence", .array(silence.map(\.json))))
        o.add("first_frame_black", firstFrameBlack.map(JSONValue.bool))
        o.append(("signal", signal.json))
        return .object(o)
    }
}

extension Interval {
    var json: JSONValue { .object([("start", .double(start)), ("end", .double(end)), ("duration", .double(duration))]) }
}

extension Array where Element == (String, JSONValue) {
    mutating func add(_ key: String, _ value: JSONValue?) {
        if let value { append((key, value)) }
    }
}

extension SignalFacts {
    /// The filters' totals; the per-picture and per-block readings stay out (thousands of lines).
    public var json: JSONValue {
        var o: [(String, JSONValue)] = []
        o.add("pictures_not_analysed", picturesNotAnalysed.map(JSONValue.string))
        o.add("sound_not_analysed", soundNotAnalysed.map(JSONValue.string))
        o.append(("freezes", .array(freezes.map(\.json))))
        o.append(("picture_readings", .int(pictures.count)))
        if let f = fields {
            o.append(
                (
                    "idet",
                    .object([
                        ("tff", .int(f.tff)), ("bff", .int(f.bff)), ("progressive", .int(f.progressive)),
                        ("undetermined", .int(f.undetermined)), ("repeated_neither", .int(f.repeatedNeither)),
                        ("repeated_top", .int(f.repeatedTop)), ("repeated_bottom", .int(f.repeatedBottom))
                    ])
                ))
        }
        if let a = active {
            o.append(
                (
                    "active_picture",
                    .object([
                        ("x1", .int(a.x1)), ("x2", .int(a.x2)), ("y1", .int(a.y1)), ("y2", .int(a.y2)),
                        ("width", .int(a.width)), ("height", .int(a.height))
                    ])
                ))
        }
        o.append(("phase_readings", .int(phase.count)))
        o.append(
            (
                "channels",
                .array(
                    channels.map { c in
                        .object([
                            ("dc_offset", .double(c.dcOffset)), ("peak_level", .double(c.peakLevel)), ("peak_count", .double(c.peakCount))
                        ])
                    })
            ))
        return .object(o)
    }
}
