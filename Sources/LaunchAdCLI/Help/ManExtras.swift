/// What a man page says beyond its `--help` text, as mpv's and curl's pages do: EXAMPLES,
/// ENVIRONMENT, FILES, and whether the command writes events (an EVENTS section pointing at
/// launchad-events(7)). The examples name the package's sample files, as they are in a folder
/// holding a copy of /usr/share/doc/launchad/examples (`samplesFolder`); one with an `exit` runs
/// as printed there, offline and without a display, with that status: `DocsExamplesTests` runs
/// each one in such a folder.
struct ManExtras {
    struct Example: Equatable {
        var what: String
        var command: String
        /// The status it ends with when run in a copy of the samples folder; nil: not run there
        /// (it needs a server, a display or an app).
        var exit: Int32?
    }

    var examples: [Example] = []
    /// Names of `variables`.
    var environment: [String] = []
    /// Names of `paths`.
    var files: [String] = []
    var writesEvents = false

    /// Where the package puts the sample files the examples name (scripts/package.sh).
    static let samplesFolder = "/usr/share/doc/launchad/examples"
    /// Those files, from the tree's Media/.
    static let samples = ["manifest.json", "sample-ad.mp4", "sample-ad.vtt", "fallback.png", "logo.png"]

    static let variables: [(name: String, text: String)] = [
        ("DISPLAY", "the X11 display the window opens on; x11 is chosen when it is set (see docs/displays.md)"),
        ("WAYLAND_DISPLAY", "the Wayland display, chosen when DISPLAY is not set (its socket in XDG_RUNTIME_DIR)"),
        ("SDL_VIDEODRIVER", "SDL's video driver, when set: x11, wayland, kmsdrm (bare KMS), offscreen or dummy (no window)"),
        ("SDL_AUDIODRIVER", "SDL's audio driver, when set (dummy: no sound device; the run says audio_unavailable otherwise)"),
        ("XDG_CACHE_HOME", "the cache folder's parent: $XDG_CACHE_HOME/launchad, else ~/.cache/launchad (--cache wins)"),
        ("XDG_STATE_HOME", "the outbox's parent: $XDG_STATE_HOME/launchad, else ~/.local/state/launchad (--state wins)"),
        ("HOME", "where ~/.cache and ~/.local/state are when the XDG variables are not set"),
        ("NOTIFY_SOCKET", "set by systemd for a Type=notify unit: READY=1 at the first frame, STATUS= lines (see docs/kiosks.md)"),
        ("WATCHDOG_USEC", "set by systemd's WatchdogSec=: WATCHDOG=1 every half of it while pictures come on time"),
        ("LC_ALL, LC_MESSAGES, LANG", "the caption language preferred when --caption-lang is not given"),
        ("LAUNCHAD_FFMPEG_LOG", "warning, info or debug: FFmpeg's own messages on stderr (silent otherwise)"),
        (
            "LAUNCHAD_CLICKHOUSE_CREDENTIALS, LAUNCHAD_CLICKHOUSE_USER, LAUNCHAD_CLICKHOUSE_KEY, LAUNCHAD_CLICKHOUSE_URL",
            "ClickHouse credentials: a file (mode 600), else a user and key (see docs/outbox.md)"
        )
    ]

    static let paths: [(name: String, text: String)] = [
        ("~/.cache/launchad/", "the creative cache: index.json, the creatives by sha256, lock (see docs/launch-and-cache.md)"),
        ("~/.local/state/launchad/outbox/", "beacons and play records waiting to be delivered (see docs/outbox.md)"),
        ("/etc/default/launchad", "the settings of the shipped systemd units: LAUNCHAD_MANIFEST, KIOSK_APP, LAUNCHAD_OPTIONS"),
        ("~/.config/launchad/environment", "the same settings for the user units (the prefetch and outbox timers)"),
        (
            "/var/lib/launchad/metrics/launchad.prom",
            "where a kiosk writes --metrics: the group launchad may; the node exporter reads it through a link in its own folder"
        ),
        ("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", "the overlay's font unless --font names one (fonts-dejavu-core)"),
        ("/usr/share/doc/launchad/", "the full documentation, one page per subject")
    ]

    static func of(_ command: String?) -> ManExtras {
        switch command {
        case nil: return main
        case "play": return play
        case "launch": return launch
        case "prefetch": return prefetch
        case "schedule": return schedule
        case "outbox": return outbox
        case "fleet": return fleet
        case "manifest": return manifest
        default: return media(command!)
        }
    }

    private static let screen = ["DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER", "SDL_AUDIODRIVER"]
    private static let systemd = ["NOTIFY_SOCKET", "WATCHDOG_USEC"]
    private static let clickhouse =
        "LAUNCHAD_CLICKHOUSE_CREDENTIALS, LAUNCHAD_CLICKHOUSE_USER, LAUNCHAD_CLICKHOUSE_KEY, LAUNCHAD_CLICKHOUSE_URL"
    private static let metrics = "/var/lib/launchad/metrics/launchad.prom"
    private static let font = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"

    private static let main = ManExtras(
        examples: [
            Example(
                what: "A creative's facts, then a check against the default profile.", command: "launchad probe sample-ad.mp4", exit: 0),
            Example(what: "", command: "launchad validate sample-ad.mp4", exit: 0),
            Example(what: "A video ad in a window, \"Skip 5\" counting down; events on stdout.", command: "launchad play sample-ad.mp4"),
            Example(
                what: "A kiosk: the cached ad full screen, then the app.",
                command: "launchad launch --manifest https://ads.example.com/manifest.json --fullscreen --then /usr/bin/kiosk-app")
        ],
        environment: variables.map(\.name), files: paths.map(\.name), writesEvents: true)

    private static let play = ManExtras(
        examples: [
            Example(what: "A video ad in a window; the events on stdout.", command: "launchad play sample-ad.mp4"),
            Example(
                what: "An image ad for 3 s on an iPhone SE's screen, with a click-through link.",
                command: "launchad play fallback.png --duration 3 --device iphone-se --link https://example.com"),
            Example(what: "Muted, with captions.", command: "launchad play sample-ad.mp4 --mute --captions sample-ad.vtt"),
            Example(
                what: "A VAST tag: wrappers followed, a media file chosen, beacons sent; the events to a file.",
                command: "launchad play --vast https://ads.example.com/vast.xml --events events.jsonl"),
            Example(
                what: "Full screen on a panel mounted on its side, with metrics for the node exporter.",
                command: "launchad play sample-ad.mp4 --fullscreen --rotate 90 --metrics \(metrics)")
        ],
        environment: screen + systemd + ["LC_ALL, LC_MESSAGES, LANG", "LAUNCHAD_FFMPEG_LOG", "XDG_STATE_HOME", "HOME", clickhouse],
        files: ["~/.local/state/launchad/outbox/", metrics, font], writesEvents: true)

    private static let launch = ManExtras(
        examples: [
            Example(
                what: "A kiosk session: the cached ad full screen, the cache refreshed meanwhile, then the app.",
                command: "launchad launch --manifest https://ads.example.com/manifest.json --fullscreen --then /usr/bin/kiosk-app"),
            Example(
                what: "The sample manifest, for a phone's screen.",
                command: "launchad launch --manifest manifest.json --device android-hd"),
            Example(
                what: "As the shipped units run it (settings in /etc/default/launchad).",
                command: "sudo systemctl enable --now launchad-cage.service")
        ],
        environment: screen + systemd + ["XDG_CACHE_HOME", "XDG_STATE_HOME", "HOME", "LAUNCHAD_FFMPEG_LOG", clickhouse],
        files: ["~/.cache/launchad/", "~/.local/state/launchad/outbox/", "/etc/default/launchad", metrics, font], writesEvents: true)

    private static let prefetch = ManExtras(
        examples: [
            Example(
                what: "Cache the sample manifest's ads for a phone's screen.",
                command: "launchad prefetch --manifest manifest.json --device android-hd", exit: 0),
            Example(
                what: "Refresh from a server, keeping at most 50 MB.",
                command: "launchad prefetch --manifest https://ads.example.com/manifest.json --cache-limit 50MB"),
            Example(
                what: "Every 30 minutes, as the shipped user timer does (events in the journal).",
                command: "systemctl --user enable --now launchad-prefetch.timer")
        ],
        environment: ["XDG_CACHE_HOME", "XDG_STATE_HOME", "HOME"],
        files: ["~/.cache/launchad/", "~/.local/state/launchad/outbox/", "/etc/default/launchad", "~/.config/launchad/environment"],
        writesEvents: true)

    private static let schedule = ManExtras(
        examples: [
            Example(
                what: "Which ad would show on Christmas Eve at 18:00 in Berlin, and why not the others (exit 3: nothing is cached yet).",
                command: "launchad schedule --manifest manifest.json --at 2026-12-24T18:00:00+01:00", exit: 3),
            Example(
                what: "The same as JSON, for a portrait screen.",
                command: "launchad schedule --manifest manifest.json --screen 1080x1920 --format json", exit: 3)
        ],
        environment: ["XDG_CACHE_HOME", "HOME"], files: ["~/.cache/launchad/"])

    private static let outbox = ManExtras(
        examples: [
            Example(what: "What waits to be delivered, as JSON.", command: "launchad outbox status", exit: 0),
            Example(what: "Deliver it now.", command: "launchad outbox flush", exit: 0),
            Example(
                what: "Every 15 minutes, as the shipped user timer does.",
                command: "systemctl --user enable --now launchad-outbox-flush.timer")
        ],
        environment: ["XDG_STATE_HOME", "HOME", clickhouse], files: ["~/.local/state/launchad/outbox/", "~/.config/launchad/environment"])

    private static let fleet = ManExtras(
        examples: [
            Example(what: "The play records' table, for clickhouse-client.", command: "launchad fleet schema", exit: 0),
            Example(
                what: "The fleet's last day as an HTML report.",
                command: "launchad fleet report --clickhouse https://ch.example.com:8443 --since 24h --format html --out fleet.html")
        ],
        environment: [clickhouse])

    private static let manifest = ManExtras(
        examples: [
            Example(what: "A key pair, made once, offline (no password: -W).", command: "minisign -G -W -p launchad.pub -s launchad.key"),
            Example(what: "Sign the manifest: manifest.json.minisig beside it.", command: "minisign -S -s launchad.key -m manifest.json"),
            Example(
                what: "Check it as the screens will, before publishing both files.",
                command: "launchad manifest verify manifest.json --trust-key launchad.pub")
        ])

    /// probe, validate, snapshot, preview: a file in, facts or pictures out.
    private static func media(_ command: String) -> ManExtras {
        let examples: [Example]
        switch command {
        case "probe": examples = [Example(what: "A creative's facts as JSON.", command: "launchad probe sample-ad.mp4", exit: 0)]
        case "validate":
            examples = [
                Example(what: "Check a creative against the default profile.", command: "launchad validate sample-ad.mp4", exit: 0),
                Example(
                    what: "Against the IAB's CTV profile, as an HTML report (exit 1: the portrait sample is no CTV spot).",
                    command: "launchad validate sample-ad.mp4 --profile iab-ctv --format html --output report.html", exit: 1),
                Example(
                    what: "A VAST tag's media files.",
                    command: "launchad validate --vast https://ads.example.com/vast.xml --profile iab-ctv")
            ]
        case "snapshot":
            examples = [
                Example(
                    what: "A contact sheet of evenly spaced frames.", command: "launchad snapshot sample-ad.mp4 --out sheet.png", exit: 0)
            ]
        case "preview":
            examples = [
                Example(
                    what: "The ad on every device's screen, side by side.",
                    command: "launchad preview sample-ad.mp4 --out gallery.png --devices all", exit: 0)
            ]
        default: examples = []
        }
        return ManExtras(examples: examples, environment: ["LAUNCHAD_FFMPEG_LOG"], files: command == "preview" ? [font] : [])
    }
}
