import Foundation
import LaunchAdCore
import LaunchAdEngine

/// `launchad schedule`: which ad a launch would show at a given time, and why not the others.
public struct ScheduleOptions: Equatable, Sendable {
    public var cache = PrefetchOptions()
    /// nil: now.
    public var at: Date?
    /// The kiosk's time zone (`--timezone`); nil: this machine's.
    public var timezone: String?
    public var screen = PrefetchOptions.defaultScreen
    public var json = false

    public init() {}

    public static let help = """
        usage: launchad schedule --manifest URL|FILE [--at TIME] [--timezone ZONE] [--screen WxH] [--format text|json] [options]
        Prints the id of the ad a launch would show at TIME, then one line per other ad: its id and
        why not (outside days, outside hours, capped, expired, not started, hidden, not cached, lower
        priority, share of voice, rejected). The frequency caps count this screen's plays from the
        cache (--cache). TIME is RFC 3339 (2026-12-24T18:00:00+01:00), epoch seconds, or a local time
        without offset (2026-03-29T02:30) read in --timezone; default now.
          --at TIME              the moment to judge (default now)
          --timezone ZONE        the kiosk's IANA time zone (Europe/Berlin): a local --at is read in it, and
                                 ads without their own timezone are judged in it (default this machine's)
          --screen WxH           the screen variants are chosen for (default 1920x1080)
          --format text|json     one line per ad (default), or one JSON object for scripts
        \(PrefetchOptions.manifestHelp)
        Exit codes: 0 an ad would show, 3 none would, 1 the manifest cannot be read, 2 usage.
        """

    public static func parse(_ args: [String]) throws -> ScheduleOptions? {
        var r = ArgumentReader(args)
        var o = ScheduleOptions()
        var at: String?
        while let opt = r.nextOption() {
            if try o.cache.applyManifest(opt, &r) { continue }
            switch opt {
            case "--help": return nil
            case "--at": at = try r.value(for: opt)
            case "--timezone":
                let raw = try r.value(for: opt)
                guard TimeZone(identifier: raw) != nil else {
                    throw UsageError("--timezone takes an IANA time zone (Europe/Berlin), not '\(raw)'")
                }
                o.timezone = raw
            case "--screen":
                let raw = try r.value(for: opt)
                guard let s = Size(parsing: raw), s.width > 0, s.height > 0 else { throw UsageError("--screen takes WxH, not '\(raw)'") }
                o.screen = s
            case "--format":
                let raw = try r.value(for: opt)
                guard raw == "text" || raw == "json" else { throw UsageError("--format takes text or json, not '\(raw)'") }
                o.json = raw == "json"
            default: throw UsageError("unknown option \(opt) (see launchad schedule --help)")
            }
        }
        guard r.positionals.isEmpty else { throw UsageError("schedule takes no FILE, got '\(r.positionals[0])' (use --manifest)") }
        if let at {
            guard let time = ManifestDate.time(at) ?? LocalTime.parse(at, in: o.zone) else {
                throw UsageError(
                    "--at takes an RFC 3339 time (2026-12-24T18:00:00+01:00), epoch seconds or a local time (2026-12-24T18:00), not '\(at)'"
                )
            }
            o.at = time
        }
        try o.cache.check()
        return o
    }

    /// The zone local times and ads without their own are read in.
    public var zone: TimeZone { timezone.flatMap(TimeZone.init(identifier:)) ?? .current }
}
