import Foundation
import LaunchAdCore

/// `launchad schedule`: which ad a launch would show at a given time, and why not the others.
public struct ScheduleOptions: Equatable, Sendable {
    public var cache = PrefetchOptions()
    /// nil: now.
    public var at: Date?
    public var screen = PrefetchOptions.defaultScreen
    public var json = false

    public init() {}

    public static let help = """
        usage: launchad schedule --manifest URL|FILE [--at TIME] [--screen WxH] [--format text|json] [options]
        Prints the id of the ad a launch would show at TIME (RFC 3339, e.g. 2026-12-24T18:00:00+01:00,
        or epoch seconds; default now), then one line per other ad: its id and why not (outside days,
        outside hours, capped, expired, not started, hidden, not cached, lower priority, share of
        voice, rejected). The frequency caps count this screen's plays from the cache (--cache).
          --at TIME              the moment to judge (default now)
          --screen WxH           the screen variants are chosen for (default 1920x1080)
          --format text|json     one line per ad (default), or one JSON object for scripts
        \(PrefetchOptions.sharedHelp)
        Exit codes: 0 an ad would show, 3 none would, 1 the manifest cannot be read, 2 usage.
        """

    public static func parse(_ args: [String]) throws -> ScheduleOptions? {
        var r = ArgumentReader(args)
        var o = ScheduleOptions()
        while let opt = r.nextOption() {
            if try o.cache.applyShared(opt, &r) { continue }
            switch opt {
            case "--help": return nil
            case "--at":
                let raw = try r.value(for: opt)
                guard let at = ManifestDate.time(raw) else {
                    throw UsageError("--at takes an RFC 3339 time (2026-12-24T18:00:00+01:00) or epoch seconds, not '\(raw)'")
                }
                o.at = at
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
        try o.cache.check()
        return o
    }
}
