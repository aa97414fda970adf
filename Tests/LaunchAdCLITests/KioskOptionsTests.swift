import LaunchAdCore
import LaunchAdTestSupport
import XCTest

@testable import LaunchAdCLI
@testable import LaunchAdEngine

/// The kiosk options, parsed by pure functions: `schedule`, `--stall-timeout`, `--metrics`, `--hold`.
final class KioskOptionsTests: XCTestCase {
    func testScheduleParsesAndDefaults() throws {
        let o = try XCTUnwrap(
            ScheduleOptions.parse([
                "--manifest", "https://ads.example.com/m.json", "--at", "2026-12-24T18:00:00+01:00",
                "--screen", "1080x1920", "--format", "json", "--cache", "/var/cache/ads"
            ]))
        XCTAssertEqual(o.at, ManifestDate.rfc3339("2026-12-24T17:00:00Z"))
        XCTAssertEqual(o.screen, Size(width: 1080, height: 1920))
        XCTAssertTrue(o.json)
        XCTAssertEqual(o.cache.cacheDir, "/var/cache/ads")
        let plain = try XCTUnwrap(ScheduleOptions.parse(["--manifest", "m.json", "--at", "1798131600"]))
        XCTAssertEqual(plain.at, Date(timeIntervalSince1970: 1_798_131_600))
        XCTAssertEqual(plain.screen, Size(width: 1920, height: 1080))
        XCTAssertFalse(plain.json)
        XCTAssertNil(try ScheduleOptions.parse(["--help"]))
        // A local time without offset, read in --timezone (given before or after --at).
        let local = try XCTUnwrap(
            ScheduleOptions.parse(["--at", "2026-03-29T02:30", "--manifest", "m.json", "--timezone", "Europe/Berlin"]))
        XCTAssertEqual(local.at, ManifestDate.rfc3339("2026-03-29T01:30:00Z"))
        XCTAssertEqual(local.zone.identifier, "Europe/Berlin")
        XCTAssertEqual(
            try Command.parse(["schedule", "--manifest", "m.json"]),
            .schedule(try XCTUnwrap(ScheduleOptions.parse(["--manifest", "m.json"]))))
    }

    /// `schedule --help` lists only what schedule uses: no outbox, cache-size or download options.
    func testScheduleHelpListsOnlyItsOptions() {
        for unused in ["--state", "--beacon-ttl", "--beacon-wait", "--clickhouse-credentials", "--cache-limit", "--max-creative-bytes"] {
            XCTAssertFalse(ScheduleOptions.help.contains(unused), unused)
        }
        for used in ["--manifest", "--cache", "--at", "--timezone", "--screen", "--format", "--timeout"] {
            XCTAssertTrue(ScheduleOptions.help.contains(used), used)
        }
    }

    func testScheduleUsageErrors() {
        let cases: [([String], String)] = [
            ([], "--manifest URL|FILE is required"),
            (["--manifest", "m.json", "--format", "xml"], "--format takes text or json, not 'xml'"),
            (["--manifest", "m.json", "--screen", "big"], "--screen takes WxH, not 'big'"),
            (["--manifest", "m.json", "extra"], "schedule takes no FILE, got 'extra' (use --manifest)"),
            (["--manifest", "m.json", "--then", "x"], "unknown option --then (see launchad schedule --help)"),
            (["--manifest", "m.json", "--state", "/x"], "unknown option --state (see launchad schedule --help)"),
            (["--manifest", "m.json", "--timezone", "Mars/Base"], "--timezone takes an IANA time zone (Europe/Berlin), not 'Mars/Base'"),
            (
                ["--manifest", "m.json", "--at", "tomorrow"],
                "--at takes an RFC 3339 time (2026-12-24T18:00:00+01:00), epoch seconds or a local time (2026-12-24T18:00), not 'tomorrow'"
            )
        ]
        for (args, message) in cases {
            XCTAssertThrowsError(try ScheduleOptions.parse(args), "\(args)") { XCTAssertEqual(($0 as? UsageError)?.message, message) }
        }
    }

    func testStallTimeoutMetricsAndHold() throws {
        let play = try XCTUnwrap(PlayOptions.parse(["ad.mp4", "--stall-timeout", "1.5", "--metrics", "/var/lib/x.prom"]))
        XCTAssertEqual(play.stallTimeout, 1.5)
        XCTAssertEqual(play.metricsPath, "/var/lib/x.prom")
        XCTAssertEqual(SessionConfig.video(durationMs: 1000, options: play).stallLimitMs, 1500)
        XCTAssertEqual(try XCTUnwrap(PlayOptions.parse(["ad.mp4"])).stallTimeout, 3, "3 s by default")
        XCTAssertThrowsError(try PlayOptions.parse(["ad.mp4", "--stall-timeout", "0.1"]))
        let launch = try XCTUnwrap(LaunchOptions.parse(["--manifest", "m.json", "--hold", "5", "--then", "app"]))
        XCTAssertEqual(launch.hold, 5)
        XCTAssertEqual(try XCTUnwrap(LaunchOptions.parse(["--manifest", "m.json"])).hold, 3)
        XCTAssertThrowsError(try LaunchOptions.parse(["--manifest", "m.json", "--hold", "61"]))
        XCTAssertEqual(try XCTUnwrap(PrefetchOptions.parse(["--manifest", "m.json", "--metrics", "m.prom"])).metricsPath, "m.prom")
    }
}
