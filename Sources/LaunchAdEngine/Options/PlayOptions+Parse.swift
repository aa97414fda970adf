import LaunchAdCore

/// `launchad play`'s command line.
extension PlayOptions {
    public static let help = """
        usage: launchad play FILE|URL [options]    or    launchad play --vast URL|FILE [options]
        Plays a video (MP4, ...) or image (PNG, JPEG) ad with a skip button, then exits. A FILE or URL
        whose root element is <VAST> is played as a VAST tag.
          --vast URL|FILE        a VAST 2.0-4.3 tag: wrappers followed, a media file chosen, tracking sent
          --vast-timeout S       seconds per VAST document (default \(SpecValue.format(defaults.vast.timeout)))
          --max-wrappers N       wrappers followed at most (default \(defaults.vast.maxWrappers))
          --max-bitrate KBPS     only media files at or under this bitrate
          --allow-http           plain http to hosts other than loopback
        \(playerHelp)
        \(DeliveryOptions.help)
        \(DeliveryOptions.recordHelp)
        Exit codes: 0 completed/skipped/clicked/ended_by_host, 1 error, 2 usage, 3 no_ad/timeout.
        """

    /// Where each default is written: the help texts say these values.
    private static let defaults = PlayOptions()

    /// The options `apply` takes: what the ad looks like and how a run goes. launch takes them
    /// all and preview those that change a picture, so their completions borrow these lines.
    public static let playerHelp = """
          --events FILE          write JSON-lines events to FILE instead of stdout
          --metrics FILE         write Prometheus metrics to FILE (node_exporter's textfile collector) at the end
          --size WxH             window size (default: the ad's size, scaled to fit the display)
          --device NAME          portrait screen: \(DevicePreset.allCases.map(\.rawValue).joined(separator: ", "))
          --fullscreen           desktop fullscreen, cursor hidden (kiosks)
          --fit fit|fill         letterbox (default) or crop the ad to its area
          --layout fullscreen|logo-bottom   with logo-bottom, --logo IMAGE is centred in the band below
          --logo IMAGE           logo for --layout logo-bottom
          --skip-style text|ring  "Skip 5" countdown (default) or a progress ring around "Skip"
          --skip-after S         skip button disabled ("Ad 3") until S seconds have been shown
          --no-skip              no skip button
          --skip-label TEXT      word on the skip button (default "\(defaults.skipLabel)")
          --font FILE            TrueType font for the overlay (default: DejaVu Sans, found at run time)
          --max-duration S       cap a video ad's length
          --duration S           an image ad's length (default \(SpecValue.format(defaults.imageDuration)))
          --link URL             http(s) click-through link: a click on the ad ends it as "clicked"
          --open-links           also open the link with xdg-open
          --no-pause-on-blur     keep playing when the window loses focus or is minimized
          --transition fade|zoom|none   how the ad leaves (default \(defaults.transition.rawValue))
          --fallback IMAGE       image shown when the video cannot play or its first frame is late
          --wait S               how long to wait for the first frame (default \(SpecValue.format(defaults.wait)))
          --stall-timeout S      end a video whose next picture is S seconds overdue: error media_stalled (default \(SpecValue.format(defaults.stallTimeout)))
          --control stdin        read pause, resume, skip, click, mute, unmute, end lines from stdin
          --mute                 start muted (m toggles)
          --rotate 0|90|180|270  turn the whole scene clockwise, for a panel mounted on its side
          --captions FILE|URL    WebVTT, SRT or TTML captions (at most 1 MB); a text track in the file is used too
          --caption-mode auto|on|off   auto (default): captions show while muted; on: always; off: never
          --caption-lang LANG    preferred caption language (VAST files), else the system locale, else the first
        """

    /// Parses `play`'s arguments (everything after the word `play`).
    public static func parse(_ args: [String]) throws -> PlayOptions? {
        try parseWithDelivery(args)?.0
    }

    /// `play`'s arguments with the outbox's (`--state`, `--beacon-ttl`, `--beacon-wait`).
    public static func parseWithDelivery(_ args: [String]) throws -> (PlayOptions, DeliveryOptions)? {
        var r = ArgumentReader(args)
        var o = PlayOptions()
        var d = DeliveryOptions()
        var durationGiven = false
        while let opt = r.nextOption() {
            if try d.apply(opt, &r) || d.applyRecord(opt, &r) { continue }
            if try o.vast.apply(opt, &r) { continue }
            try o.apply(opt, &r, durationGiven: &durationGiven)
            if opt == "--skip-after" { o.vast.skipAfterGiven = true }
            if opt == "--help" { return nil }
        }
        if let tag = o.vast.tag {
            guard r.positionals.isEmpty else { throw UsageError("play --vast \(tag) takes no FILE, got '\(r.positionals[0])'") }
            o.file = tag
        } else {
            guard r.positionals.count == 1 else {
                throw UsageError(r.positionals.isEmpty ? "play needs a FILE" : "play takes one FILE, got \(r.positionals.count)")
            }
            o.file = r.positionals[0]
        }
        try o.check()
        d.allowHTTP = o.vast.allowHTTP
        try d.check()
        return (o, d)
    }

    /// Applies one option; shared with `launch`, which takes the same presentation options.
    public mutating func apply(_ opt: String, _ r: inout ArgumentReader, durationGiven: inout Bool) throws {
        switch opt {
        case "--help": break
        case "--events": eventsPath = try r.value(for: opt)
        case "--metrics": metricsPath = try r.value(for: opt)
        case "--size":
            let raw = try r.value(for: opt)
            guard let s = Size(parsing: raw), s.width >= 64, s.height >= 64, s.width <= 16384, s.height <= 16384 else {
                throw UsageError("--size takes WxH between 64x64 and 16384x16384, not '\(raw)'")
            }
            size = s
        case "--device": device = try r.choice(for: opt, DevicePreset.self)
        case "--fullscreen": try r.flag(opt); fullscreen = true
        case "--fit": fit = try r.choice(for: opt, FitMode.self)
        case "--layout": layout = try r.choice(for: opt, LayoutMode.self)
        case "--logo": logo = try r.value(for: opt)
        case "--skip-style": skipStyle = try r.choice(for: opt, SkipStyle.self)
        case "--skip-after": skipAfter = try r.double(for: opt, max: 3600)
        case "--no-skip": try r.flag(opt); showSkip = false
        case "--skip-label":
            let label = try r.value(for: opt)
            guard !label.isEmpty, label.count <= 24 else { throw UsageError("--skip-label takes 1 to 24 characters") }
            skipLabel = label
        case "--font": font = try r.value(for: opt)
        case "--max-duration": maxDuration = try r.double(for: opt, min: 0.1, max: 3600)
        case "--duration": imageDuration = try r.double(for: opt, min: 0.1, max: 3600); durationGiven = true
        case "--link":
            let raw = try r.value(for: opt)
            guard Link.isAllowed(raw) else { throw UsageError("--link takes an http or https URL, not '\(raw)'") }
            link = raw
        case "--open-links": try r.flag(opt); openLinks = true
        case "--no-pause-on-blur": try r.flag(opt); pauseOnBlur = false
        case "--transition": transition = try r.choice(for: opt, Transition.self)
        case "--fallback": fallback = try r.value(for: opt)
        case "--wait": wait = try r.double(for: opt, min: 0, max: 600)
        case "--stall-timeout": stallTimeout = try r.double(for: opt, min: 0.5, max: 600)
        case "--control":
            let raw = try r.value(for: opt)
            guard raw == "stdin" else { throw UsageError("--control takes 'stdin', not '\(raw)'") }
            controlStdin = true
        case "--mute": try r.flag(opt); muted = true
        case "--rotate": rotation = try r.rotation(for: opt)
        case "--captions": captions = try r.value(for: opt)
        case "--caption-mode": captionMode = try r.choice(for: opt, CaptionMode.self)
        case "--caption-lang":
            let raw = try r.value(for: opt)
            guard CaptionLanguage.isTag(raw) else {
                throw UsageError("--caption-lang takes a language tag such as en or pt-BR, not '\(raw)'")
            }
            captionLanguage = raw
        default: throw UsageError("unknown option \(opt) (see launchad play --help)")
        }
    }

    /// `linkFromManifest`: `launch` takes each ad's link from the manifest, so `--open-links`
    /// needs no `--link` there.
    public func check(linkFromManifest: Bool = false) throws {
        if layout == .logoBottom && logo == nil { throw UsageError("--layout logo-bottom needs --logo IMAGE") }
        if size != nil && device != nil { throw UsageError("--size and --device cannot be used together") }
        if openLinks && link == nil && !linkFromManifest { throw UsageError("--open-links needs --link URL") }
    }
}
