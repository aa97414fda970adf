import CFFmpeg
import LaunchAdCore

/// Reads what freezedetect, idet, cropdetect, signalstats, aphasemeter and astats wrote into each filtered
/// frame's metadata into `SignalFacts`. idet's, cropdetect's and astats' figures are running totals: the
/// last frame's are the whole stream's.
struct SignalReader {
    var facts = SignalFacts()
    private var freezeStart: Double?
    private var lastPictureEnd: Double?

    mutating func picture(_ f: Frame, seconds: Double?, frameDuration: Double) {
        if let s = f.metadataNumber("lavfi.freezedetect.freeze_start") { freezeStart = s }
        if let e = f.metadataNumber("lavfi.freezedetect.freeze_end"), let s = freezeStart {
            facts.freezes.append(Interval(s, e))
            freezeStart = nil
        }
        if let t = seconds { lastPictureEnd = t + frameDuration }
        if let x1 = f.metadataInt("lavfi.cropdetect.x1"), let x2 = f.metadataInt("lavfi.cropdetect.x2"),
            let y1 = f.metadataInt("lavfi.cropdetect.y1"), let y2 = f.metadataInt("lavfi.cropdetect.y2")
        {
            facts.active = ActivePicture(x1: x1, x2: x2, y1: y1, y2: y2, width: f.width, height: f.height)
        }
        if let tff = f.metadataInt("lavfi.idet.multiple.tff") {
            facts.fields = FieldCounts(
                tff: tff, bff: f.metadataInt("lavfi.idet.multiple.bff") ?? 0,
                progressive: f.metadataInt("lavfi.idet.multiple.progressive") ?? 0,
                undetermined: f.metadataInt("lavfi.idet.multiple.undetermined") ?? 0,
                repeatedNeither: f.metadataInt("lavfi.idet.repeated.neither") ?? 0,
                repeatedTop: f.metadataInt("lavfi.idet.repeated.top") ?? 0,
                repeatedBottom: f.metadataInt("lavfi.idet.repeated.bottom") ?? 0)
        }
        guard let t = seconds, let y = f.metadataNumber("lavfi.signalstats.YAVG") else { return }
        let woven = ["tff", "bff"].contains(f.metadata("lavfi.idet.multiple.current_frame") ?? "")
        let repeated = ["top", "bottom"].contains(f.metadata("lavfi.idet.repeated.current_frame") ?? "")
        facts.pictures.append(
            PictureReading(
                seconds: t, luma: y, cb: f.metadataNumber("lavfi.signalstats.UAVG") ?? 0,
                cr: f.metadataNumber("lavfi.signalstats.VAVG") ?? 0,
                outOfRange: f.metadataNumber("lavfi.signalstats.BRNG") ?? 0, bitDepth: f.metadataInt("lavfi.signalstats.YBITDEPTH") ?? 8,
                interlaced: woven || repeated))
    }

    mutating func sound(_ f: Frame, seconds: Double?) {
        if let t = seconds, let phase = f.metadataNumber("lavfi.aphasemeter.phase") {
            facts.phase.append(PhaseReading(seconds: t, duration: Double(f.sampleCount) / Double(max(f.sampleRate, 1)), phase: phase))
        }
        var channels: [ChannelLevels] = []
        while let dc = f.metadataNumber("lavfi.astats.\(channels.count + 1).DC_offset") {
            let n = channels.count + 1
            channels.append(
                ChannelLevels(
                    dcOffset: dc, peakLevel: f.metadataNumber("lavfi.astats.\(n).Peak_level") ?? -.infinity,
                    peakCount: f.metadataNumber("lavfi.astats.\(n).Peak_count") ?? 0))
        }
        if !channels.isEmpty { facts.channels = channels }
    }

    /// A freeze still open at the end lasts to the end of the last picture.
    mutating func finish() -> SignalFacts {
        if let s = freezeStart, let e = lastPictureEnd { facts.freezes.append(Interval(s, e)) }
        freezeStart = nil
        return facts
    }
}

extension Frame {
    func metadataInt(_ key: String) -> Int? { metadataNumber(key).flatMap(Checked.rounded) }
}
