import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

/// Schedules as an operator meets them: `launchad schedule` previews which ad shows when and why
/// not the others; `launch` obeys the caps, counted from the cache across restarts; a bad
/// schedule field is a `rejected` event naming it while the rest of the manifest plays.
final class ScheduleCLITests: XCTestCase {
    var folder: URL!
    var cache: String { folder.appendingPathComponent("cache").path }
    var manifest: String { folder.appendingPathComponent("m.json").path }

    override func setUpWithError() throws {
        folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("launchad-schedule-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    /// An image ad of `colour` with the given schedule fields, its PNG written beside the manifest.
    func ad(_ id: String, _ colour: String, _ fields: String = "") throws -> String {
        let png = try Fixtures.solidPNG(colour)
        try png.write(to: folder.appendingPathComponent("\(id).png"))
        return
            #"{"id": "\#(id)", "type": "image", "duration": 0.3, \#(fields) "variants": [{"url": "\#(id).png", "width": 320, "height": 240, "bytes": \#(png.count), "sha256": "\#(SHA256.hex(of: png))"}]}"#
    }

    func write(_ ads: [String]) throws {
        try Data(#"{"ads": [\#(ads.joined(separator: ", "))]}"#.utf8).write(to: URL(fileURLWithPath: manifest))
    }

    func schedule(_ extra: [String]) throws -> Launchad.Run {
        try Launchad.run(["schedule", "--manifest", manifest, "--cache", cache] + extra)
    }

    /// An ad the manifest refuses (an unknown time zone) is its `rejected` event: the refresh
    /// that cached every other ad is ok and exits 0, so a timer unit does not fail for it.
    func testAnAdWithAnUnknownTimeZoneDoesNotFailTheRefresh() throws {
        try write([try ad("house", "gray"), try ad("mars", "green", #""timezone": "Mars/Olympus_Mons","#)])
        let prefetch = try Launchad.run(["prefetch", "--manifest", manifest, "--cache", cache, "--retries", "0"])
        XCTAssertEqual(prefetch.status, 0, prefetch.stderr)
        XCTAssertEqual(prefetch.events(named: "rejected").map { $0["id"] as? String }, ["mars"])
        let done = try XCTUnwrap(prefetch.events(named: "prefetch_done").first)
        XCTAssertEqual(done["ok"] as? Bool, true)
        XCTAssertEqual(done["rejected"] as? Int, 1)
        XCTAssertEqual(done["failed"] as? Int, 0)
        XCTAssertEqual(prefetch.events(named: "end").first?["outcome"] as? String, "completed")
        XCTAssertEqual(prefetch.stderr.split(separator: "\n").count, 1, "the rejection's one line: \(prefetch.stderr)")
        // A creative that cannot be had still fails the refresh.
        try FileManager.default.removeItem(at: folder.appendingPathComponent("house.png"))
        try write([try ad("house2", "white"), try ad("mars", "green", #""timezone": "Mars/Olympus_Mons","#)])
        try FileManager.default.removeItem(at: folder.appendingPathComponent("house2.png"))
        let failing = try Launchad.run(["prefetch", "--manifest", manifest, "--cache", cache, "--retries", "0"])
        XCTAssertEqual(failing.status, 1)
        XCTAssertEqual(failing.events(named: "prefetch_done").first?["failed"] as? Int, 1)
    }

    func testSchedulePreviewsTheWinnerAndWhyNotTheOthers() throws {
        try write([
            try ad("breakfast", "yellow", #""hours": ["06:00-11:00"], "timezone": "Europe/Berlin", "priority": 5,"#),
            try ad("late", "blue", #""days": ["fri", "sat"], "hours": ["22:00-02:00"], "timezone": "Europe/Berlin", "priority": 5,"#),
            try ad("house", "gray"),
            try ad("uncached", "red", #""priority": 9, "start": "2026-01-01T00:00:00Z","#),
            try ad("mars", "green", #""timezone": "Mars/Olympus_Mons","#)
        ])
        // An ad the cache cannot hold: the manifest names a file that is not there.
        try FileManager.default.removeItem(at: folder.appendingPathComponent("uncached.png"))
        let prefetch = try Launchad.run(["prefetch", "--manifest", manifest, "--cache", cache, "--retries", "0"])
        let rejected = try XCTUnwrap(prefetch.events(named: "rejected").first, prefetch.stdout)
        XCTAssertEqual(rejected["id"] as? String, "mars")
        XCTAssertEqual(rejected["field"] as? String, "timezone")
        XCTAssertEqual(prefetch.events(named: "rejected").filter { $0["id"] as? String == "mars" }.count, 1, prefetch.stdout)
        XCTAssertEqual(prefetch.events(named: "download").count, 3, "the rest of the manifest is kept: \(prefetch.stdout)")

        // Saturday 01:30 in Berlin: Friday's late-night range.
        let night = try schedule(["--at", "2026-12-05T01:30:00+01:00"])
        XCTAssertEqual(night.status, 0, night.stderr)
        XCTAssertEqual(
            night.stdout.split(separator: "\n").map(String.init),
            [
                "late",
                "breakfast: outside hours",
                "house: lower priority (0 < 5 of late)",
                "uncached: not cached",
                #"mars: rejected: timezone "Mars/Olympus_Mons" is not a known IANA time zone (e.g. "Europe/Berlin")"#
            ])
        // Tuesday 08:00 in Berlin, as JSON.
        let morning = try schedule(["--at", "2026-12-08T07:00:00Z", "--format", "json"])
        let json = try XCTUnwrap(parseJSON(morning.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) as? [String: Any])
        XCTAssertEqual(json["winner"] as? String, "breakfast")
        XCTAssertEqual(json["at"] as? String, "2026-12-08T07:00:00.000Z")
        let reasons = (json["ads"] as? [[String: Any]] ?? []).map { "\($0["id"]!): \($0["reason"] as? String ?? "-")" }
        XCTAssertEqual(
            reasons, ["breakfast: -", "late: outside days", "house: lower priority (0 < 5 of breakfast)", "uncached: not cached"])
        XCTAssertEqual((json["rejected"] as? [[String: Any]])?.first?["field"] as? String, "timezone")
        // Nothing at all: exit 3.
        try write([try ad("late", "blue", #""days": ["fri"], "timezone": "UTC","#)])
        let none = try schedule(["--at", "2026-12-08T07:00:00Z"])
        XCTAssertEqual(none.status, 3)
        XCTAssertEqual(none.stdout, "no ad would show\nlate: outside days\n")
    }

    /// max_per_hour 1: the first launch shows the capped ad, the next (a new process) the other
    /// one, and `schedule` says why, from the plays the cache recorded.
    func testCapsCountPlaysFromTheCacheAcrossRestarts() throws {
        try write([try ad("once", "red", #""priority": 5, "max_per_hour": 1,"#), try ad("house", "gray")])
        let prefetch = try Launchad.run(["prefetch", "--manifest", manifest, "--cache", cache, "--retries", "0"])
        XCTAssertEqual(prefetch.status, 0, prefetch.stdout)
        var shown: [String] = []
        for _ in 0..<2 {
            let run = try Launchad.run([
                "launch", "--manifest", manifest, "--cache", cache, "--size", "320x240", "--transition", "none", "--retries", "0"
            ])
            XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
            shown.append(run.events(named: "cache_hit").first?["id"] as? String ?? "none")
        }
        XCTAssertEqual(shown, ["once", "house"])
        let why = try schedule([])
        XCTAssertTrue(why.stdout.hasPrefix("house\nonce: capped: 1 play in the last hour (max_per_hour 1)\n"), why.stdout)
    }

    func testScheduleUsage() throws {
        let bad = try schedule(["--at", "yesterday"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertEqual(
            bad.stderr,
            "launchad: --at takes an RFC 3339 time (2026-12-24T18:00:00+01:00), epoch seconds or a local time (2026-12-24T18:00), not 'yesterday'\n"
        )
        let missing = try Launchad.run(["schedule", "--manifest", folder.appendingPathComponent("none.json").path, "--cache", cache])
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.stderr.split(separator: "\n").count, 1, missing.stderr)
    }
}
