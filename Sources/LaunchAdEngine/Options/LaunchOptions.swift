import LaunchAdCore
import LaunchAdDelivery

/// Everything `launchad launch` can be told: the cache and network options of `prefetch`, the
/// presentation options of `play` (for the ad it picks), and the application to start after.
public struct LaunchOptions: Equatable, Sendable {
    public var cache = PrefetchOptions()
    public var play = PlayOptions()
    /// The application started after the ad: `--then CMD ARGS...` (the rest of the line).
    public var then: [String] = []
    /// How long, after the ad, to let the background refresh finish.
    public var refreshTimeout: Double = 30
    /// How long the ad's last picture waits for the app's window where it cannot be seen (`--hold`).
    public var hold: Double = 3

    public init() {}

    public static let help = """
        usage: launchad launch --manifest URL|FILE [options] [--then CMD ARGS...]
        Shows the ad cached last time (nothing waits on the network), refreshes the cache in the
        background for the next launch, then starts CMD if given (its exit status is launchad's).
        With nothing cached, plays the manifest's ad straight from the network if the manifest
        arrives within --wait seconds (default 3), else ends at once with outcome no_ad.
        \(PrefetchOptions.sharedHelp)
        \(DeliveryOptions.recordHelp)
          (without --report, records go to the manifest's "report" collector, if it names one)
          --refresh-timeout S    after the ad, wait at most S seconds for the refresh (default 30)
          --hold S               keep the ad's last picture until CMD's first window is mapped (X11: one
                                 its processes name in _NET_WM_PID, or a new one naming no owner), at
                                 most S seconds; elsewhere S seconds (default 3)
          --then CMD ARGS...     start CMD after the ad, even when there was none; must come last
        It also takes play's options (see launchad play --help): --size, --device, --fullscreen,
        --events, --skip-after, --wait, --mute, ...; the manifest's link, duration, skip_after and
        layout override them for its ad. Variants are chosen for --size or --device, else 1920x1080,
        turned by --rotate (--size 1920x1080 --rotate 90 chooses for a 1080x1920 screen).
        Exit codes: CMD's with --then; else 0 completed/skipped/clicked, 1 error, 2 usage, 3 no_ad/timeout.
        """

    public static func parse(_ args: [String]) throws -> LaunchOptions? {
        var r = ArgumentReader(args)
        var o = LaunchOptions()
        var durationGiven = false
        while let opt = r.nextOption() {
            if try o.cache.applyShared(opt, &r) || o.cache.delivery.applyRecord(opt, &r) { continue }
            switch opt {
            case "--help": return nil
            case "--refresh-timeout": o.refreshTimeout = try r.double(for: opt, max: 3600)
            case "--hold": o.hold = try r.double(for: opt, max: 60)
            case "--then":
                try r.flag(opt)
                o.then = r.rest()
                guard !o.then.isEmpty, !o.then[0].isEmpty else { throw UsageError("--then needs a command") }
            default: try o.play.apply(opt, &r, durationGiven: &durationGiven)
            }
        }
        guard r.positionals.isEmpty else {
            throw UsageError("launch takes no FILE, got '\(r.positionals[0])' (use --manifest, and --then CMD for the app)")
        }
        try o.cache.check()
        try o.cache.delivery.check(manifestCollector: true)
        try o.play.check(linkFromManifest: true)
        return o
    }

    /// The screen variants are chosen for: the output's shape as the rotated scene sees it.
    public var screen: Size { play.rotation.scene(play.size ?? play.device?.screen ?? PrefetchOptions.defaultScreen) }
}
