import LaunchAdCore
import LaunchAdEngine

/// Every kind of event line, for launchad-events(7): each kind's name and fields come from sample
/// `LaunchEvent` values through the one encoder (`name`, `fields`), so the page says what the lines
/// hold; the one-line summaries and the page that tells more are written here. `EventCatalogTests`
/// holds the list to the kinds `EventGoldenTests` writes.
struct EventCatalog {
    struct Entry {
        /// Values of one kind; together they carry every field the kind can have.
        var samples: [LaunchEvent]
        var summary: String
        /// The docs page (docs/NAME.md, /usr/share/doc/launchad/NAME.md) that tells more.
        var page: String

        var name: String { samples[0].name }

        /// The fields after `event` and `t_ms`, in the order the lines have them, each once.
        var fields: [String] {
            var seen: [String] = []
            for sample in samples { for (key, _) in sample.fields where !seen.contains(key) { seen.append(key) } }
            return seen
        }
    }

    /// The groups of the page, in order, each with its kinds.
    static let groups: [(title: String, entries: [Entry])] = [
        ("The ad on screen (play, launch, each ad of a VAST run)", screen),
        ("Captions and VAST icons", captionsAndIcons),
        ("Problems", problems),
        ("VAST", vast),
        ("launch, prefetch and the cache", cache),
        ("The outbox and metrics", outbox)
    ]

    static var entries: [Entry] { groups.flatMap(\.entries) }

    private static let frames: FrameCounter = {
        var f = FrameCounter()
        f.pictureReady()
        f.presented(pictureTime: 0, audioClock: 0)
        return f
    }()

    private static let screen: [Entry] = [
        Entry(
            samples: [.start(CreativeStart(file: "ad.mp4", kind: .video, width: 1, height: 1, duration: 1, hasAudio: true))],
            summary: "the creative is open (an image: decoded); its size as displayed", page: "playing"),
        Entry(
            samples: [.window(WindowOpened(width: 1, height: 1, fullscreen: false, videoDriver: "x11", renderer: "r", rotate: 0))],
            summary: "the window opened", page: "displays"),
        Entry(samples: [.firstFrame(fallback: false)], summary: "the first picture is on screen", page: "playing"),
        Entry(samples: [.skipAvailable(shownMs: 0)], summary: "the skip button works from now on", page: "playing"),
        Entry(samples: [.quartile(25)], summary: "25, 50 or 75 % of the ad's length shown", page: "playing"),
        Entry(samples: [.progress(mark: "10%", shownMs: 0)], summary: "a VAST progress offset reached", page: "vast"),
        Entry(samples: [.pause(reason: .focusLost, shownMs: 0)], summary: "playback paused, and why", page: "playing"),
        Entry(samples: [.resume(reason: .focusLost, shownMs: 0)], summary: "playback resumed", page: "playing"),
        Entry(samples: [.mute], summary: "sound turned off (m, or a control line)", page: "playing"),
        Entry(samples: [.unmute], summary: "sound turned on", page: "playing"),
        Entry(
            samples: [.skip(via: .pointer, shownMs: 0)], summary: "the viewer, the host or the window manager skipped the ad",
            page: "playing"),
        Entry(samples: [.click(link: "https://example.com/", shownMs: 0)], summary: "the ad was clicked", page: "playing"),
        Entry(samples: [.complete(shownMs: 0, frames: frames)], summary: "the ad played to its end", page: "playing"),
        Entry(samples: [.fallback(reason: .noAd)], summary: "the fallback image replaces the ad", page: "playing"),
        Entry(samples: [.waitExpired(waitedMs: 0)], summary: "no first frame within --wait", page: "playing"),
        Entry(
            samples: [.end(RunEnd(outcome: .noAd, shownMs: 0, frames: frames, adsPlayed: 1, reason: .creativeLate))],
            summary: "the run is over, with its outcome: always the last line, exactly once", page: "playing"),
        Entry(
            samples: [.ready], summary: "embedding only: the prepared ad's first picture is decoded, present shows it at once",
            page: "embedding")
    ]

    private static let captionsAndIcons: [Entry] = [
        Entry(samples: [.caption(text: "t", atMs: 0)], summary: "a caption put on screen", page: "playing"),
        Entry(
            samples: [.captions(CaptionsRead(source: .vast, file: "a.vtt", format: "webvtt", cues: 1, language: "en", neverShown: 1))],
            summary: "a caption source was read", page: "playing"),
        Entry(
            samples: [.captionsError(CaptionsProblem(source: .vast, file: "a.vtt", language: "en", message: "m", skipped: 1))],
            summary: "a caption source, or some of its cues, refused", page: "playing"),
        Entry(samples: [.icon(IconEvent(.view, index: 0, program: "p", shownMs: 0))], summary: "a VAST icon was drawn", page: "vast"),
        Entry(
            samples: [.icon(IconEvent(.click(link: nil), index: 0, program: "p", shownMs: 0))], summary: "a VAST icon was clicked",
            page: "vast"),
        Entry(
            samples: [.icon(IconEvent(.refused(message: "m"), index: 0, program: "p", shownMs: 0))],
            summary: "a VAST icon refused by the rules for pictures", page: "vast"),
        Entry(
            samples: [.icon(IconEvent(.error(message: "m"), index: 0, program: "p", shownMs: nil))],
            summary: "a VAST icon's picture could not be had", page: "vast")
    ]

    private static let problems: [Entry] = [
        Entry(
            samples: [
                .error(PlayError(.vast(303), "m", vastError: 303, adID: "a")),
                .error(PlayError(.mediaStalled, "m", detail: .stalled(shownMs: 0, stalledMs: 0, frames: frames))),
                .error(PlayError(.mediaTruncated, "m", detail: .truncated(shownMs: 0, declaredMs: 0)))
            ],
            summary: "something went wrong, with a stable code; the run may go on (a fallback) or end", page: "playing"),
        Entry(samples: [.audioUnavailable(message: "m")], summary: "no sound device: the ad plays silent", page: "playing"),
        Entry(samples: [.fontMissing(message: "m")], summary: "no font for the skip label: drawn without text", page: "playing"),
        Entry(samples: [.logoUnavailable(message: "m")], summary: "the --logo image cannot be shown", page: "playing"),
        Entry(samples: [.readError(message: "m")], summary: "the file broke while reading; what was read still plays", page: "playing"),
        Entry(samples: [.renderError(message: "m")], summary: "a picture could not be drawn", page: "playing"),
        Entry(samples: [.linkOpenFailed(link: "l", message: "m")], summary: "--open-links: the opener failed", page: "playing"),
        Entry(
            samples: [.controlError(line: "l", message: "m")], summary: "a control line not understood or that could not act",
            page: "playing")
    ]

    private static let vast: [Entry] = [
        Entry(
            samples: [.vast(VASTResponse(version: "4.2", ads: 1, pod: 1, buffet: 0))], summary: "the VAST response was read", page: "vast"),
        Entry(
            samples: [
                .vastAd(
                    VASTAdChosen(
                        adID: "a", sequence: 1, adSystem: "s", wrappers: 0, media: "m", reason: "r", icons: 0, iconsSkipped: [],
                        urisDropped: ["start": 1]))
            ],
            summary: "one ad resolved and its media file chosen", page: "vast"),
        Entry(
            samples: [.mediaFallback(media: "m", code: .notMedia, message: "m")], summary: "a media file did not open: the next one plays",
            page: "vast"),
        Entry(
            samples: [.adEnd(adID: "a", sequence: 1, end: RunEnd(outcome: .noAd, shownMs: 0, frames: frames, reason: .creativeLate))],
            summary: "one ad of a VAST run ended (the run's end comes after the last)", page: "vast")
    ]

    private static let cache: [Entry] = [
        Entry(samples: [.cacheHit(id: "a", sha256: "s", file: "f")], summary: "launch shows a cached ad", page: "launch-and-cache"),
        Entry(samples: [.cacheMiss(reason: .empty)], summary: "launch has no cached ad to show at once", page: "launch-and-cache"),
        Entry(samples: [.stream(id: "a", url: "u")], summary: "a first launch plays the ad from the network", page: "launch-and-cache"),
        Entry(
            samples: [.handoff(via: .appWindow, appPID: 1, waitedMs: 0)], summary: "the ad's last picture gave way to the app",
            page: "kiosks"),
        Entry(
            samples: [.appNotStarted(app: "a", message: "m")], summary: "the --then app could not be started (launch exits 127)",
            page: "launch-and-cache"),
        Entry(samples: [.prefetchStart(manifest: "m")], summary: "a refresh of the cache started", page: "launch-and-cache"),
        Entry(
            samples: [
                .prefetchDone(PrefetchSummary(ok: true, downloads: 0, bytes: 0, rejected: 0, failed: 0, evicted: 0, cachedBytes: 0, ms: 0))
            ],
            summary: "the refresh ended, with its counts", page: "launch-and-cache"),
        Entry(
            samples: [.rejected(id: "a", reason: "r", field: "f")], summary: "an ad, the manifest or the cache refused by a refresh",
            page: "launch-and-cache"),
        Entry(
            samples: [.download(Download(id: "a", bytes: 0, ms: 0, sha256: "s", vast: true))],
            summary: "a creative was downloaded and verified",
            page: "launch-and-cache"),
        Entry(
            samples: [.evicted(id: "a", sha256: "s", bytes: 0, reason: "r")], summary: "a cached creative was removed",
            page: "launch-and-cache"),
        Entry(samples: [.notModified(id: "a", url: "u")], summary: "the server said nothing changed (304)", page: "launch-and-cache"),
        Entry(
            samples: [.manifestRejected(ManifestRefusal(.badSignature, "m"), manifest: "u")],
            summary:
                "with --trust-key, a manifest refused (reason: unsigned, bad_signature, unknown_key, rollback, expired, malformed): "
                + "nothing of it is used or kept, the last verified one keeps playing",
            page: "launch-and-cache")
    ]

    private static let outbox: [Entry] = [
        Entry(
            samples: [.outboxError(reason: "r")],
            summary: "the outbox had a problem with an item (not queued, or waiting for credentials); the ad still plays", page: "outbox"),
        Entry(
            samples: [.outboxUnavailable(reason: "r")], summary: "the state folder cannot be used: the ad plays, nothing is queued",
            page: "outbox"),
        Entry(
            samples: [.reportRefused(reason: "r")], summary: "a manifest's play-record collector refused at launch: no record this run",
            page: "outbox"),
        Entry(
            samples: [.metricsUnavailable(reason: "r")], summary: "--metrics cannot be written: said once, the run goes on without it",
            page: "kiosks")
    ]
}
