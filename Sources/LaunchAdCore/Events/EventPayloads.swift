/// The `start` event's payload: the creative as displayed.
public struct CreativeStart: Equatable, Sendable {
    /// What it is.
    public enum Kind: String, Sendable { case video, image }
    /// The file or URL played.
    public var file: String
    /// What it is.
    public var kind: Kind
    /// As displayed: rotation and pixel aspect applied.
    public var width: Int
    /// The height, in pixels.
    public var height: Int
    /// Seconds, when the container says.
    public var duration: Double?
    /// The file has a sound track (whether or not a device plays it).
    public var hasAudio: Bool

    /// The payload, field by field.
    public init(file: String, kind: Kind, width: Int, height: Int, duration: Double?, hasAudio: Bool) {
        self.file = file; self.kind = kind; self.width = width; self.height = height
        self.duration = duration; self.hasAudio = hasAudio
    }
}

/// The `window` event's payload.
public struct WindowOpened: Equatable, Sendable {
    /// The output's size (not turned by `--rotate`).
    public var width: Int
    /// The height, in pixels.
    public var height: Int
    /// Whether the window is fullscreen.
    public var fullscreen: Bool
    /// SDL's video driver (x11, wayland, kmsdrm, dummy, ...).
    public var videoDriver: String
    /// SDL's renderer (opengl, software, ...).
    public var renderer: String
    /// `--rotate`, in degrees.
    public var rotate: Int

    /// The payload, field by field.
    public init(width: Int, height: Int, fullscreen: Bool, videoDriver: String, renderer: String, rotate: Int) {
        self.width = width; self.height = height; self.fullscreen = fullscreen
        self.videoDriver = videoDriver; self.renderer = renderer; self.rotate = rotate
    }
}

/// An `error` event's payload.
public struct PlayError: Equatable, Sendable {
    /// What the error adds for the session's own failures.
    public enum Detail: Equatable, Sendable {
        case none
        /// The video ended well before its declared length.
        case truncated(shownMs: Int, declaredMs: Int)
        /// No new picture for `stalledMs`.
        case stalled(shownMs: Int, stalledMs: Int, frames: FrameCounter?)
    }
    /// The failure, as the `code` field writes it.
    public var code: ErrorCode
    /// One line.
    public var message: String
    /// What the session adds to its own failures.
    public var detail: Detail
    /// In a VAST run: the code its Error URIs are sent with.
    public var vastError: Int?
    /// In a VAST run: the ad it belongs to.
    public var adID: String?

    /// An error with `code` and a one-line `message`.
    public init(_ code: ErrorCode, _ message: String, detail: Detail = .none, vastError: Int? = nil, adID: String? = nil) {
        self.code = code; self.message = message; self.detail = detail; self.vastError = vastError; self.adID = adID
    }

    /// A player failure.
    public init(_ code: FailureCode, _ message: String, detail: Detail = .none) {
        self.init(.failure(code), message, detail: detail)
    }

    /// The failure code, when it is the player's (not a VAST code).
    public var failure: FailureCode? {
        if case .failure(let f) = code { return f }
        return nil
    }
}

/// The `end` event's payload, and a VAST ad's `ad_end`.
public struct RunEnd: Equatable, Sendable {
    /// How the run (or the ad) ended.
    public var outcome: Outcome
    /// The ad's shown time (nil when no ad was tried: a launch with no ad).
    public var shownMs: Int?
    /// A video's frame counters.
    public var frames: FrameCounter?
    /// A VAST run: how many ads played.
    public var adsPlayed: Int?
    /// Why there was no ad (`launch`).
    public var reason: NoAdReason?

    /// The payload, field by field.
    public init(outcome: Outcome, shownMs: Int? = nil, frames: FrameCounter? = nil, adsPlayed: Int? = nil, reason: NoAdReason? = nil) {
        self.outcome = outcome; self.shownMs = shownMs; self.frames = frames; self.adsPlayed = adsPlayed; self.reason = reason
    }
}

/// Why `launch` showed no ad.
public enum NoAdReason: String, Sendable {
    /// The cache folder is refused (not the user's, or shared).
    case cacheRefused = "cache_refused"
    /// The cache folder cannot be used.
    case cacheUnavailable = "cache_unavailable"
    /// Nothing cached, and the manifest did not come within `--wait`.
    case noManifest = "no_manifest"
    /// The manifest schedules nothing playable now.
    case nothingScheduled = "nothing_scheduled"
    /// A first launch's network creative did not start within `--wait`.
    case creativeLate = "creative_late"
}

/// Where captions came from.
public enum CaptionSource: String, Sendable {
    /// `--captions`, or a manifest ad's caption file.
    case sidecar
    /// The creative's own caption track.
    case embedded
    /// A VAST ad's `<ClosedCaptionFile>`.
    case vast
}

/// The `captions` event's payload.
public struct CaptionsRead: Equatable, Sendable {
    /// Where the captions came from.
    public var source: CaptionSource
    /// The file or URL read.
    public var file: String
    /// `webvtt`, `srt`, `ttml`, or the decoder's name for a track in the file.
    public var format: String
    /// How many cues were kept.
    public var cues: Int
    /// The captions' language, when known.
    public var language: String?
    /// WebVTT cues that end as or before they start: kept by the spec's parser, never on screen
    /// (in a browser as here), so not in `cues` and not a problem (`CaptionParse.neverShown`).
    public var neverShown: Int

    /// The payload, field by field.
    public init(source: CaptionSource, file: String, format: String, cues: Int, language: String? = nil, neverShown: Int = 0) {
        self.source = source; self.file = file; self.format = format; self.cues = cues; self.language = language
        self.neverShown = neverShown
    }
}

/// The `captions_error` event's payload.
public struct CaptionsProblem: Equatable, Sendable {
    /// Where the captions came from.
    public var source: CaptionSource
    /// The file or URL read.
    public var file: String
    /// The captions' language, when known.
    public var language: String?
    /// Why, in one line.
    public var message: String
    /// Cues skipped as malformed (nil: the whole source was refused).
    public var skipped: Int?

    /// The payload, field by field.
    public init(source: CaptionSource, file: String, language: String? = nil, message: String, skipped: Int? = nil) {
        self.source = source; self.file = file; self.language = language; self.message = message; self.skipped = skipped
    }
}

/// A VAST icon's events: `icon_view`, `icon_click`, `icon_refused`, `icon_error`.
public struct IconEvent: Equatable, Sendable {
    /// Which of them.
    public enum Kind: Equatable, Sendable {
        /// First drawn.
        case view
        /// Clicked; its click-through, if it has one.
        case click(link: String?)
        /// Not drawn, and why.
        case refused(message: String)
        /// Its picture could not be had.
        case error(message: String)
    }
    /// What it is.
    public var kind: Kind
    /// The icon's position among the ad's `<Icon>`s.
    public var index: Int
    /// The icon's `program` (AdChoices, ...), if the tag names one.
    public var program: String?
    /// The ad's shown time (nil for an icon refused before the ad plays).
    public var shownMs: Int?

    /// The payload, field by field.
    public init(_ kind: Kind, index: Int, program: String?, shownMs: Int?) {
        self.kind = kind; self.index = index; self.program = program; self.shownMs = shownMs
    }
}

/// The `vast` event's payload: what the response holds.
public struct VASTResponse: Equatable, Sendable {
    /// The response's VAST version.
    public var version: String
    /// How many `<Ad>` elements it holds.
    public var ads: Int
    /// Ads with a sequence (played in order), and stand-alone ones (the buffet).
    public var pod: Int
    /// Ads without a sequence: stand-ins for a pod ad that fails.
    public var buffet: Int

    /// The payload, field by field.
    public init(version: String, ads: Int, pod: Int, buffet: Int) {
        self.version = version; self.ads = ads; self.pod = pod; self.buffet = buffet
    }
}

/// The `vast_ad` event's payload: one ad resolved and its media file chosen.
public struct VASTAdChosen: Equatable, Sendable {
    /// An icon that will not be drawn, and why.
    public struct SkippedIcon: Equatable, Sendable {
        /// The icon's position among the ad's `<Icon>`s.
        public var index: Int
        /// The icon's `program` (AdChoices, ...), if the tag names one.
        public var program: String?
        /// Why it is not drawn.
        public var reason: String
        /// The skipped icon.
        public init(index: Int, program: String?, reason: String) { self.index = index; self.program = program; self.reason = reason }
    }
    /// The ad's `id`.
    public var adID: String?
    /// Its place in the pod.
    public var sequence: Int?
    /// The ad server that answered (`<AdSystem>`).
    public var adSystem: String?
    /// How many wrappers led to it.
    public var wrappers: Int
    /// The media file chosen.
    public var media: String
    /// Why this media file was chosen.
    public var reason: String
    /// Icons that will be drawn.
    public var icons: Int
    /// The icons that will not be drawn, and why.
    public var iconsSkipped: [SkippedIcon]
    /// URIs the tag listed beyond the per-event cap, by event (said, not silently lost).
    public var urisDropped: [String: Int]

    /// The payload, field by field.
    public init(
        adID: String?, sequence: Int?, adSystem: String?, wrappers: Int, media: String, reason: String,
        icons: Int, iconsSkipped: [SkippedIcon], urisDropped: [String: Int]
    ) {
        self.adID = adID; self.sequence = sequence; self.adSystem = adSystem; self.wrappers = wrappers
        self.media = media; self.reason = reason; self.icons = icons; self.iconsSkipped = iconsSkipped
        self.urisDropped = urisDropped
    }
}

/// The `prefetch_done` event's payload.
public struct PrefetchSummary: Equatable, Sendable {
    /// Nothing failed (the manifest was read, every creative it wants is cached) and the refresh
    /// was not cancelled; ads the manifest refuses may still be `rejected`.
    public var ok: Bool
    /// Creatives downloaded.
    public var downloads: Int
    /// Bytes downloaded.
    public var bytes: Int
    /// `rejected` events: ads the manifest refuses, and the failures.
    public var rejected: Int
    /// What the refresh could not do: the manifest, a creative or a VAST tag not had, the cache not written.
    public var failed: Int
    /// Files removed from the cache.
    public var evicted: Int
    /// The cache's size after the refresh.
    public var cachedBytes: Int
    /// How long it took, in ms.
    public var ms: Int

    /// The payload, field by field.
    public init(ok: Bool, downloads: Int, bytes: Int, rejected: Int, failed: Int, evicted: Int, cachedBytes: Int, ms: Int) {
        self.ok = ok; self.downloads = downloads; self.bytes = bytes; self.rejected = rejected; self.failed = failed
        self.evicted = evicted; self.cachedBytes = cachedBytes; self.ms = ms
    }
}

/// The `download` event's payload: one creative installed in the cache.
public struct Download: Equatable, Sendable {
    /// The ad's id.
    public var id: String
    /// Bytes downloaded.
    public var bytes: Int
    /// How long it took (a manifest's creative).
    public var ms: Int?
    /// The creative's sha256.
    public var sha256: String
    /// A VAST ad's media file.
    public var vast: Bool

    /// The payload, field by field.
    public init(id: String, bytes: Int, ms: Int?, sha256: String, vast: Bool = false) {
        self.id = id; self.bytes = bytes; self.ms = ms; self.sha256 = sha256; self.vast = vast
    }
}
