import Foundation

/// What the local FFmpeg can open and decode, found at run time by LaunchAdMedia and handed to
/// the core as data: demuxer names (`mov`, `matroska`, `hls`, ...) and decoder names (`h264`, ...).
public struct MediaCapabilities: Equatable, Sendable {
    /// Demuxers this FFmpeg has, out of `demuxerNames`.
    public var demuxers: Set<String>
    /// Decoders this FFmpeg has, out of `decoderNames`.
    public var decoders: Set<String>

    /// Capabilities as found (or as a test sets them).
    public init(demuxers: Set<String>, decoders: Set<String>) { self.demuxers = demuxers; self.decoders = decoders }

    /// The names LaunchAdMedia is asked about.
    public static let demuxerNames = ["mov", "matroska", "mpegts", "ogg", "hls", "dash", "avi", "flv"]
    /// The decoder names LaunchAdMedia is asked about (`libdav1d` and `libaom-av1` count as `av1`).
    public static let decoderNames = [
        "h264", "hevc", "vp8", "vp9", "av1", "libdav1d", "libaom-av1", "mpeg4", "mpeg2video",
        "theora", "aac", "mp3", "opus", "vorbis", "ac3", "eac3", "flac"
    ]

    /// The demuxer a MIME type needs; nil for types this player never plays.
    public static func demuxer(forMIME mime: String) -> String? {
        switch mime.lowercased() {
        case "video/mp4", "video/quicktime", "video/3gpp", "video/x-m4v", "audio/mp4": return "mov"
        case "video/webm", "video/x-matroska", "audio/webm": return "matroska"
        case "video/mp2t": return "mpegts"
        case "video/ogg", "application/ogg": return "ogg"
        case "application/x-mpegurl", "application/vnd.apple.mpegurl", "audio/mpegurl": return "hls"
        case "application/dash+xml": return "dash"
        default: return nil
        }
    }

    /// The decoder an RFC 6381 codec (`avc1.42E01E`) or a plain name (`h264`) needs.
    public static func decoder(forCodec raw: String) -> String? {
        let c = raw.trimmingCharacters(in: .whitespaces).lowercased()
        // The names as the IAB's own samples write them.
        if c == "h.264" { return "h264" }
        if c == "h.265" { return "hevc" }
        let head = c.split(separator: ".").first.map(String.init) ?? c
        switch head {
        case "avc1", "avc2", "avc3", "avc4", "h264", "avc": return "h264"
        case "hvc1", "hev1", "hevc", "h265": return "hevc"
        case "vp09", "vp9": return "vp9"
        case "vp08", "vp8": return "vp8"
        case "av01", "av1": return "av1"
        case "mp4v", "mpeg4": return "mpeg4"
        // mp4a.6B and mp4a.69 are MP3 in MP4; the other object types are AAC.
        case "mp4a": return c == "mp4a.6b" || c == "mp4a.69" ? "mp3" : "aac"
        case "aac": return "aac"
        case "opus": return "opus"
        case "vorbis": return "vorbis"
        case "mp3": return "mp3"
        case "ac-3", "ac3": return "ac3"
        case "ec-3", "eac3": return "eac3"
        case "flac", "flac1": return "flac"
        case "theora": return "theora"
        default: return nil
        }
    }

    func canDecode(_ decoder: String) -> Bool {
        if decoder == "av1" { return decoders.contains("av1") || decoders.contains("libdav1d") || decoders.contains("libaom-av1") }
        return decoders.contains(decoder)
    }
}

/// The media file picked for the window, and why (for the `vast` event), with the candidates to
/// try in turn when it turns out not to play.
public struct MediaFileChoice: Equatable, Sendable {
    /// The media file to try first.
    public var file: VASTMediaFile
    /// Why it was picked, in words, for the `vast` event and the HTML report.
    public var reason: String
    /// The next candidates, best first (at most `MediaFileChooser.maxTries` - 1).
    public var fallbacks: [VASTMediaFile] = []

    /// The chosen file, then the fallbacks.
    public var candidates: [VASTMediaFile] { [file] + fallbacks }
}

/// Picks the media file to play. Never VPAID/JavaScript, Flash or interactive ones, nor a type or
/// codec this FFmpeg is known not to open; attributes it cannot read (`codec="H.264"`, `"0"`, an
/// unknown type) are hints, not refusals: such files are tried after the ones whose attributes say
/// they play. Progressive before streaming; then the aspect closest to the window; then the
/// smallest that covers the window without upscaling, else the largest; `maxBitrateKbps` bounds it.
public enum MediaFileChooser {
    /// How many files of one ad are tried before it fails (each failed try costs an open).
    public static let maxTries = 3

    /// The best file of `files` for `window`, with fallbacks; `maxBitrateKbps` refuses files declaring more kbit/s.
    /// Fails with 403 when every file is refused or there is none.
    public static func choose(
        _ files: [VASTMediaFile], window: Size, capabilities: MediaCapabilities,
        maxBitrateKbps: Int? = nil
    ) -> Result<MediaFileChoice, VASTError> {
        var sure: [VASTMediaFile] = [], unsure: [VASTMediaFile] = []
        var refusals: [String] = []
        for f in files {
            switch verdict(f, capabilities: capabilities, maxBitrateKbps: maxBitrateKbps) {
            case .plays: sure.append(f)
            case .unknown: unsure.append(f)
            case .refused(let why): refusals.append(why)
            }
        }
        guard !sure.isEmpty || !unsure.isEmpty else {
            let detail = refusals.isEmpty ? "the ad lists no media file" : refusals.prefix(10).joined(separator: "; ")
            return .failure(VASTError(VASTError.noSupportedMedia, "no media file this player can play: \(detail)"))
        }
        var ranked = rank(sure, window: window)
        ranked += rank(unsure, window: window)
        let pick = ranked[0].file
        let size = pick.width > 0 && pick.height > 0 ? "\(pick.width)x\(pick.height)" : "size not given"
        let hint = sure.isEmpty ? ", its attributes not telling whether it plays" : ""
        let reason =
            "\(ranked[0].kind) \(pick.type) \(size): of \(sure.count + unsure.count) playable of \(files.count), "
            + "the aspect closest to the window, \(ranked[0].how)\(hint)"
        return .success(MediaFileChoice(file: pick, reason: reason, fallbacks: ranked.dropFirst().prefix(maxTries - 1).map(\.file)))
    }

    /// `pool` best first: each round takes the best of what is left.
    static func rank(_ pool: [VASTMediaFile], window: Size) -> [(file: VASTMediaFile, kind: String, how: String)] {
        var left = pool
        var out: [(file: VASTMediaFile, kind: String, how: String)] = []
        while !left.isEmpty, out.count < maxTries {
            let best = best(left, window: window)
            out.append(best)
            left.remove(at: left.firstIndex(of: best.file)!)
        }
        return out
    }

    static func best(_ playable: [VASTMediaFile], window: Size) -> (file: VASTMediaFile, kind: String, how: String) {
        let progressive = playable.filter { $0.delivery != "streaming" }
        let pool = progressive.isEmpty ? playable : progressive
        let target = aspect(window)
        let best = pool.map { distance(aspect(Size(width: $0.width, height: $0.height)), target) }.min() ?? 0
        // Files within 1 % of the best aspect count as the same shape.
        let shaped = pool.filter { distance(aspect(Size(width: $0.width, height: $0.height)), target) <= best + 0.01 }
        let covering = shaped.filter { covers($0, window) }
        let kind = progressive.isEmpty ? "streaming" : "progressive"
        if let smallest = covering.min(by: { area($0) < area($1) }) {
            return (smallest, kind, "the smallest covering \(window) without upscaling")
        }
        return (shaped.max(by: { area($0) < area($1) })!, kind, "the largest (none covers \(window))")
    }

    /// The progressive files this player can play by their attributes: the ready-to-serve renditions.
    public static func readyRenditions(_ files: [VASTMediaFile], capabilities: MediaCapabilities) -> [VASTMediaFile] {
        files.filter { $0.delivery != "streaming" && verdict($0, capabilities: capabilities, maxBitrateKbps: nil) == .plays }
    }

    /// Why a file cannot be played here; nil when it may be.
    static func refusal(_ f: VASTMediaFile, capabilities: MediaCapabilities, maxBitrateKbps: Int?) -> String? {
        if case .refused(let why) = verdict(f, capabilities: capabilities, maxBitrateKbps: maxBitrateKbps) { return why }
        return nil
    }

    enum Verdict: Equatable { case plays, unknown, refused(String) }

    /// What the attributes say: it plays, they cannot tell (unknown type or codec text), or it never plays here.
    static func verdict(_ f: VASTMediaFile, capabilities: MediaCapabilities, maxBitrateKbps: Int?) -> Verdict {
        let name = f.url.split(separator: "/").last.map(String.init) ?? f.url
        let type = f.type.lowercased()
        // An interactive unit (VPAID, SIMID, MRAID) never plays; any other apiFramework on a video
        // type (the IAB's own samples write `apiFramework="VAST"`) is only an unknown hint.
        var sure = true
        if let api = f.apiFramework?.trimmingCharacters(in: .whitespaces), !api.isEmpty {
            let lower = api.lowercased()
            guard MediaCapabilities.demuxer(forMIME: type) != nil, !["vpaid", "simid", "mraid"].contains(where: lower.hasPrefix) else {
                return .refused("\(name): \(api) (interactive) is not played")
            }
            sure = false
        }
        if type.contains("javascript") || type.contains("flash") || type.contains("shockwave") || type.contains("vpaid") {
            return .refused("\(name): \(f.type) is not played")
        }
        guard Link.isAllowed(f.url) else { return .refused("\(name): only http(s) media URLs are played") }
        if let cap = maxBitrateKbps, let b = f.bitrate, b > cap { return .refused("\(name): \(b) kbit/s is over --max-bitrate \(cap)") }
        if let demuxer = MediaCapabilities.demuxer(forMIME: type) {
            guard capabilities.demuxers.contains(demuxer) else { return .refused("\(name): this player cannot open \(f.type)") }
            if f.delivery == "streaming" && demuxer != "hls" && demuxer != "dash" {
                return .refused("\(name): streaming \(f.type) is not played")
            }
        } else {
            sure = false
        }
        for codec in (f.codec ?? "").split(separator: ",") where !codec.trimmingCharacters(in: .whitespaces).isEmpty {
            // `H.264`, `avc`, `0`: text that names no codec is no reason to refuse the file. A
            // codec this FFmpeg lacks makes it a last resort (the label may be wrong).
            guard let d = MediaCapabilities.decoder(forCodec: String(codec)), capabilities.canDecode(d) else { sure = false; continue }
        }
        return sure ? .plays : .unknown
    }

    static func aspect(_ s: Size) -> Double { s.width > 0 && s.height > 0 ? Double(s.width) / Double(s.height) : 0 }

    /// How far apart two aspects are (log scale, so 2:1 and 1:2 are as far from 1:1); an unknown one is far.
    static func distance(_ a: Double, _ b: Double) -> Double { a > 0 && b > 0 ? abs(log(a / b)) : 10 }

    static func covers(_ f: VASTMediaFile, _ window: Size) -> Bool {
        f.width > 0 && f.height > 0 && (f.width >= window.width || f.height >= window.height)
    }

    static func area(_ f: VASTMediaFile) -> Int { max(0, f.width) * max(0, f.height) }
}
