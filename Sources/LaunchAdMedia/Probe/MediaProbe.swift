import CFFmpeg
import Foundation
import LaunchAdCore

/// `launchad probe`: a creative's facts from its headers and a scan of its packets (no decoding).
public enum MediaProbe {
    public static func probe(_ path: String) throws -> ProbeFacts {
        let demuxer = try MediaProbe.open(path)
        let stats = PacketStats(demuxer)
        let packet = Packet()
        while try demuxer.read(into: packet) {
            stats.add(packet)
            packet.unref()
        }
        return facts(demuxer, stats)
    }

    /// Opens `path`, first turning an empty or missing file into a plain reason.
    static func open(_ path: String) throws -> Demuxer {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            throw MediaError(.fileNotFound, FileProblem(errno: ENOENT, path: path, access: .read).description)
        }
        if isDir.boolValue { throw MediaError(.notMedia, "\(path) is a directory") }
        if fileSize(path) == 0 { throw MediaError(.notMedia, "\(path) is empty") }
        do {
            return try Demuxer(path: path)
        } catch let e as MediaError {
            // FFmpeg says only "Invalid data"; an MP4 with media but no index was cut short or never finished.
            let boxes = TopLevelBoxes.types(path: path)
            if boxes.contains("mdat"), !boxes.contains("moov") {
                throw MediaError(e.code, "\(e.message) (no moov box: the MP4 is cut short or was never finished)", averror: e.averror)
            }
            throw e
        }
    }

    static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// The facts, from the opened input and what its packets said.
    static func facts(_ demuxer: Demuxer, _ stats: PacketStats) -> ProbeFacts {
        let ctx = demuxer.context.pointee
        let isMOV = demuxer.formatName.hasPrefix("mov,")
        var streams: [StreamFacts] = []
        for i in 0..<demuxer.streamCount {
            streams.append(stream(demuxer.avStream(i), demuxer.stream(i), stats, i))
        }
        var facts = ProbeFacts(
            file: demuxer.path, container: container(demuxer), formatName: demuxer.formatName,
            durationSeconds: demuxer.duration, fileSize: fileSize(demuxer.path),
            bitRate: ctx.bit_rate > 0 ? Int(ctx.bit_rate) : nil,
            faststart: isMOV ? TopLevelBoxes.faststart(path: demuxer.path) : nil, streams: streams)
        facts.stillImage = demuxer.isStillImage
        return facts
    }

    /// mp4 or mov by the major brand ("qt  " is QuickTime), else the demuxer's first name.
    static func container(_ demuxer: Demuxer) -> String {
        let name = demuxer.formatName
        guard name.hasPrefix("mov,") else { return String(name.split(separator: ",").first ?? "") }
        let brand = libavutil.av_dict_get(demuxer.context.pointee.metadata, "major_brand", nil, 0)
            .flatMap { $0.pointee.value.map { String(cString: $0) } }
        return brand?.hasPrefix("qt") == true ? "mov" : "mp4"
    }

    static func stream(_ st: UnsafeMutablePointer<AVStream>, _ info: StreamInfo, _ stats: PacketStats, _ i: Int) -> StreamFacts {
        let par = st.pointee.codecpar!.pointee
        let kind: StreamFacts.Kind
        switch par.codec_type {
        case AVMEDIA_TYPE_VIDEO:
            kind = st.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0 ? .attachedPicture : .video
        case AVMEDIA_TYPE_AUDIO: kind = .audio
        case AVMEDIA_TYPE_SUBTITLE: kind = .subtitle
        case AVMEDIA_TYPE_DATA: kind = .data
        default: kind = .other
        }
        var f = StreamFacts(index: i, kind: kind, codec: info.codecName)
        f.profile = libavcodec.avcodec_profile_name(par.codec_id, par.profile).map { String(cString: $0) }
        f.level = par.level > 0 ? Int(par.level) : nil
        f.bitRate = par.bit_rate > 0 ? Int(par.bit_rate) : stats.bitRate(i)
        f.durationSeconds = info.durationSeconds ?? stats.seconds(i)
        if kind == .video {
            f.width = info.width
            f.height = info.height
            let shown = info.displaySize
            f.displayWidth = shown.width
            f.displayHeight = shown.height
            f.displayAspect = aspect(shown.width, shown.height)
            f.rotation = info.rotation
            f.pixelFormat = libavutil.av_get_pix_fmt_name(info.pixelFormat).map { String(cString: $0) }
            f.colorRange = libavutil.av_color_range_name(par.color_range).map { String(cString: $0) }
            f.colorSpace = libavutil.av_color_space_name(par.color_space).map { String(cString: $0) }
            f.colorPrimaries = libavutil.av_color_primaries_name(par.color_primaries).map { String(cString: $0) }
            f.colorTransfer = libavutil.av_color_transfer_name(par.color_trc).map { String(cString: $0) }
            f.fieldOrder = fieldOrder(par.field_order)
            let rate = info.averageFrameRate.num > 0 ? info.averageFrameRate : info.realFrameRate
            f.frameRate = rate.num > 0 && rate.den > 0 ? av_q2d(rate) : nil
            f.variableFrameRate = stats.isVariableFrameRate(i)
            f.keyframeCount = stats.stream(i).keyframeTimes.count
            if let k = stats.keyframeInterval(i) {
                f.keyframeIntervalMax = k.max
                f.keyframeIntervalAverage = k.average
            }
        } else if kind == .audio {
            f.sampleRate = info.sampleRate
            f.channels = info.channels
            var buf = [CChar](repeating: 0, count: 128)
            var layout = par.ch_layout
            if libavutil.av_channel_layout_describe(&layout, &buf, buf.count) > 0 { f.channelLayout = String(cBuffer: buf) }
        }
        return f
    }

    /// "16:9" for 1920x1080: the display size reduced.
    static func aspect(_ w: Int, _ h: Int) -> String? {
        guard w > 0, h > 0 else { return nil }
        var num: Int32 = 0, den: Int32 = 0
        _ = libavutil.av_reduce(&num, &den, Int64(w), Int64(h), 1 << 20)
        return "\(num):\(den)"
    }

    /// The names ffprobe prints.
    static func fieldOrder(_ order: AVFieldOrder) -> String {
        switch order {
        case AV_FIELD_PROGRESSIVE: return "progressive"
        case AV_FIELD_TT: return "tt"
        case AV_FIELD_BB: return "bb"
        case AV_FIELD_TB: return "tb"
        case AV_FIELD_BT: return "bt"
        default: return "unknown"
        }
    }
}
