/// The built-in profiles, as data: a spec file can name the same rules with other limits.
extension Spec {
    /// The names `profile(named:)` knows, as `--profile` and a spec's `extends` take them.
    public static let profileNames = ["iab-ctv", "launch-ad", "app-open"]

    /// The built-in profile called `name`; nil for an unknown name.
    public static func profile(named name: String) -> Spec? {
        switch name {
        case "iab-ctv": return iabCTV
        case "launch-ad": return launchAd
        case "app-open": return appOpen
        default: return nil
        }
    }

    /// After the IAB Tech Lab's Digital Video and CTV Ad Format Guidelines: MP4, H.264 High,
    /// AAC-LC stereo 48 kHz, standard lengths, the 16:9 rendition ladder, -24 LKFS.
    public static let iabCTV = Spec(
        name: "iab-ctv",
        rules: [
            .container: .oneOf(.string("mp4")),
            .videoCodec: .oneOf(.string("h264")),
            .videoProfile: .oneOf(.string("High")),
            .audioCodec: .oneOf(.string("aac")),
            .audioProfile: .oneOf(.string("LC")),
            .audioChannels: .oneOf(.number(2)),
            .audioSampleRate: Limit(allowed: [.number(48000)], warn: [.number(44100)]),
            .duration: Limit(allowed: [.number(6), .number(15), .number(20), .number(30)], tolerance: 1),
            .resolution: Limit(allowed: iabTiers.keys.sorted { RuleName.area($0) > RuleName.area($1) }.map(SpecValue.string)),
            .videoBitrateKbps: Limit(byResolution: iabTiers),
            .scan: .oneOf(.string("progressive")),
            .pixelFormat: .oneOf(.string("yuv420p")),
            .faststart: .oneOf(.bool(true)),
            .decodeErrors: .atMost(0),
            .loudnessIntegrated: Limit(target: -24, tolerance: 2),
            .truePeak: .atMost(-6),
            .blackAtStart: .atMost(0),
            .blackAtEnd: .atMost(0),
            .silenceAtStart: .atMost(0),
            .silenceAtEnd: .atMost(0),
            // Picture and sound quality; the sources of each limit are in docs/validation.md.
            .freezeFrames: .atMost(0.5),
            .flashes: .atMost(3),
            .interlaced: .atMost(5),
            .letterbox: Limit(max: 10, warnAbove: 0),
            .broadcastRange: Limit(warnAbove: 1),
            .colourTags: Limit(allowed: [.string("bt709")], warn: [.string("untagged"), .string("partly tagged")]),
            .keyframeInterval: .atMost(2),
            .frameRate: Limit(allowed: nativeFrameRates.map(SpecValue.number), tolerance: 0.01),
            .avDurationMatch: .atMost(1),
            .videoBitrateFloor: Limit(byResolution: iabTiers.mapValues { Limit(min: $0.min) }),
            .audioPhase: .atMost(5),
            .dcOffset: Limit(warnAbove: 1),
            .audioClipping: .atMost(0)
        ])

    /// Frame rates cameras and editors make natively (film, PAL, NTSC and their doubles).
    public static let nativeFrameRates = [23.976, 24, 25, 29.97, 30, 50, 59.94, 60]

    /// Video bitrate (kbit/s) per 16:9 rendition.
    public static let iabTiers: [String: Limit] = [
        "3840x2160": .between(15_000, 40_000),
        "1920x1080": .between(5_000, 30_000),
        "1280x720": .between(2_500, 15_000),
        "960x540": .between(1_500, 8_000),
        "640x360": .between(600, 4_000)
    ]

    /// This project's own: a launch ad must start at once and look right on a portrait phone.
    public static let launchAd = Spec(
        name: "launch-ad",
        rules: [
            .duration: .atMost(10),
            .faststart: .oneOf(.bool(true)),
            .decodeErrors: .atMost(0),
            .firstFrameBlack: .oneOf(.bool(false)),
            .fileSizeMB: .atMost(5),
            .orientation: .oneOf(.string("portrait")),
            .width: .atMost(1080),
            .height: .atMost(1920),
            .flashes: .atMost(3)
        ])

    /// App-open placements: portrait 320x480 up to 1080x1920, skippable after at most 5 s.
    public static let appOpen = Spec(
        name: "app-open",
        rules: [
            .duration: .atMost(5),
            .orientation: .oneOf(.string("portrait")),
            .width: .between(320, 1080),
            .height: .between(480, 1920),
            .decodeErrors: .atMost(0),
            .flashes: .atMost(3)
        ])
}
