import Foundation
import LaunchAdCore
import XCTest

/// Dayparting and frequency caps on fixed clocks: local days and hours in the ad's time zone
/// (across midnight, across DST changes), caps at midnight, the last day of a window, share of
/// voice, and a bad schedule field rejecting its ad alone.
final class ScheduleRulesTests: XCTestCase {
    let utc = TimeZone(identifier: "UTC")!
    func at(_ text: String) -> Date { ManifestDate.rfc3339(text)! }

    func refusal(_ s: AdSchedule, _ time: String, plays: [String] = []) -> String? {
        s.refusal(at: at(time), plays: plays.map(at), systemZone: utc)
    }

    /// Friday 22:00-02:00 in Berlin: the small hours of Saturday belong to Friday's range.
    func testHoursAcrossMidnightBelongToTheDayTheyStart() {
        let s = AdSchedule(days: [.fri], hours: [HourRange("22:00-02:00")!], timezone: "Europe/Berlin")
        XCTAssertNil(refusal(s, "2026-12-04T22:00:00+01:00"), "Friday 22:00, the start is inclusive")
        XCTAssertNil(refusal(s, "2026-12-05T01:59:00+01:00"), "Saturday 01:59, still Friday's evening")
        XCTAssertEqual(
            refusal(s, "2026-12-05T02:00:00+01:00"), "outside days", "the end is exclusive; Saturday itself is not a day of the ad")
        XCTAssertEqual(refusal(s, "2026-12-04T21:59:00+01:00"), "outside hours")
        XCTAssertEqual(refusal(s, "2026-12-05T23:00:00+01:00"), "outside days", "Saturday evening")
        XCTAssertEqual(refusal(s, "2026-12-04T20:59:00Z"), "outside hours", "21:59 in Berlin whatever the clock's zone")
        XCTAssertNil(refusal(s, "2026-12-04T21:00:00Z"), "22:00 in Berlin")
    }

    /// Spring forward (2026-03-29, 02:00 CET becomes 03:00 CEST) and fall back (2026-10-25,
    /// 03:00 CEST becomes 02:00 CET): local hours follow the zone's rules.
    func testDSTTransitionsFollowTheZone() {
        let early = AdSchedule(hours: [HourRange("03:00-04:00")!], timezone: "Europe/Berlin")
        XCTAssertEqual(refusal(early, "2026-03-29T00:30:00Z"), "outside hours", "01:30 CET")
        XCTAssertNil(refusal(early, "2026-03-29T01:00:00Z"), "03:00 CEST, a minute after 01:59 CET")
        let gap = AdSchedule(hours: [HourRange("02:00-03:00")!], timezone: "Europe/Berlin")
        XCTAssertEqual(refusal(gap, "2026-03-29T01:00:00Z"), "outside hours", "02:00-03:00 does not exist that night")
        // The hour that happens twice is inside both times.
        XCTAssertNil(refusal(gap, "2026-10-25T00:30:00Z"), "02:30 CEST")
        XCTAssertNil(refusal(gap, "2026-10-25T01:30:00Z"), "02:30 CET")
        XCTAssertEqual(refusal(gap, "2026-10-25T02:00:00Z"), "outside hours", "03:00 CET")
        // The 25-hour day is one day for max_per_day: from 00:00 CEST to 24:00 CET.
        let capped = AdSchedule(timezone: "Europe/Berlin", maxPerDay: 1)
        XCTAssertEqual(
            refusal(capped, "2026-10-25T22:59:00Z", plays: ["2026-10-24T22:30:00Z"]),
            "capped: 1 play today (max_per_day 1)", "00:30 and 23:59 local are the same day")
        XCTAssertNil(refusal(capped, "2026-10-25T23:00:00Z", plays: ["2026-10-24T22:30:00Z"]), "midnight CET: a new day")
    }

    /// max_per_day resets at local midnight; max_per_hour is the last 60 minutes, across midnight;
    /// min_interval is seconds since the last play.
    func testCapsAtMidnight() {
        let day = AdSchedule(timezone: "America/New_York", maxPerDay: 2)
        let plays = ["2026-12-04T23:50:00-05:00", "2026-12-04T23:55:00-05:00"]
        XCTAssertEqual(refusal(day, "2026-12-04T23:59:59-05:00", plays: plays), "capped: 2 plays today (max_per_day 2)")
        XCTAssertNil(refusal(day, "2026-12-05T00:00:00-05:00", plays: plays))
        XCTAssertNil(refusal(day, "2026-12-04T23:59:59-05:00", plays: [plays[0]]))

        let hour = AdSchedule(timezone: "America/New_York", maxPerHour: 1)
        XCTAssertEqual(refusal(hour, "2026-12-05T00:10:00-05:00", plays: [plays[0]]), "capped: 1 play in the last hour (max_per_hour 1)")
        XCTAssertNil(refusal(hour, "2026-12-05T00:50:00-05:00", plays: [plays[0]]))

        let gap = AdSchedule(minInterval: 600)
        XCTAssertEqual(refusal(gap, "2026-12-05T05:04:59Z", plays: ["2026-12-05T04:55:00Z"]), "capped: played 599 s ago (min_interval 600)")
        XCTAssertNil(refusal(gap, "2026-12-05T05:05:00Z", plays: ["2026-12-05T04:55:00Z"]))
    }

    func creative(_ id: String) -> Creative {
        Creative(
            url: URL(string: "https://cdn.example.com/\(id).mp4")!, width: 1920, height: 1080, bytes: 1,
            sha256: SHA256.hex(of: Data(id.utf8)))
    }

    /// The window's last day plays to its last second; the second after, the ad is expired.
    func testTheLastDayOfAWindow() {
        let end = at("2026-12-31T23:59:59+01:00")
        let ad = AdEntry(id: "nye", end: end, variants: [creative("nye")])
        let rank = { (t: String) in
            AdSelector.rank([ad], now: self.at(t), screen: Size(width: 1920, height: 1080), systemZone: self.utc) { _ in true }
        }
        XCTAssertEqual(rank("2026-12-31T23:59:59+01:00").winner?.ad.id, "nye")
        XCTAssertEqual(rank("2027-01-01T00:00:00+01:00").verdicts, [AdVerdict(id: "nye", reason: "expired")])
    }

    /// Weights 3 and 1 at equal priority: three plays of one for each of the other, in a fixed
    /// order (the ad furthest behind its share, ties in manifest order); a higher priority wins.
    func testWeightIsShareOfVoiceAmongEquals() {
        var a = AdEntry(id: "a", priority: 1, variants: [creative("a")]), b = AdEntry(id: "b", priority: 1, variants: [creative("b")])
        a.schedule = AdSchedule(weight: 3)
        b.schedule = AdSchedule(weight: 1)
        var plays: [String: [Date]] = [:]
        var order = ""
        var now = at("2026-12-04T10:00:00Z")
        for _ in 0..<8 {
            let r = AdSelector.rank([a, b], now: now, screen: Size(width: 1920, height: 1080), plays: plays, systemZone: utc) { _ in true }
            let id = r.winner!.ad.id
            order += id
            plays[id, default: []].append(now)
            now.addTimeInterval(60)
        }
        XCTAssertEqual(order, "abaaabaa")
        let top = AdEntry(id: "top", priority: 5, variants: [creative("top")])
        let r = AdSelector.rank([a, b, top], now: now, screen: Size(width: 1920, height: 1080), plays: plays, systemZone: utc) { _ in true }
        XCTAssertEqual(r.winner?.ad.id, "top")
        XCTAssertEqual(r.verdicts.map(\.reason), ["lower priority (1 < 5 of top)", "lower priority (1 < 5 of top)", nil])
    }

    /// Every reason an ad is passed over, in manifest order.
    func testEachAdSaysWhyNot() {
        var night = AdEntry(id: "night", variants: [creative("night")])
        night.schedule = AdSchedule(hours: [HourRange("22:00-06:00")!], timezone: "UTC")
        var capped = AdEntry(id: "capped", variants: [creative("capped")])
        capped.schedule = AdSchedule(maxPerDay: 1)
        let ads = [
            AdEntry(id: "hidden", show: false, variants: [creative("hidden")]), night, capped,
            AdEntry(id: "uncached", variants: [creative("uncached")]),
            AdEntry(id: "later", start: at("2027-01-01T00:00:00Z"), variants: [creative("later")]),
            AdEntry(id: "ok", variants: [creative("ok")]), AdEntry(id: "also", variants: [creative("also")])
        ]
        let r = AdSelector.rank(
            ads, now: at("2026-12-04T12:00:00Z"), screen: Size(width: 1920, height: 1080),
            plays: ["capped": [at("2026-12-04T08:00:00Z")], "ok": [at("2026-12-03T20:00:00Z")]], systemZone: utc
        ) { $0.url.lastPathComponent != "uncached.mp4" }
        XCTAssertEqual(r.winner?.ad.id, "also", "ok played once in the last 24 h, also not at all")
        XCTAssertEqual(
            r.verdicts.map { "\($0.id): \($0.reason ?? "-")" },
            [
                "hidden: hidden (show: false)", "night: outside hours", "capped: capped: 1 play today (max_per_day 1)",
                "uncached: not cached", "later: not started (starts 2027-01-01T00:00:00.000Z)",
                "ok: share of voice: also's turn (weight 1, 1 play in 24 h)", "also: -"
            ])
    }

    /// A schedule field of the wrong type or value rejects that ad alone, naming the field.
    func testABadScheduleFieldRejectsItsAdAloneNamingTheField() throws {
        let sha = String(repeating: "ab", count: 32)
        func ad(_ id: String, _ extra: String) -> String {
            #"{"id": "\#(id)", "type": "image", \#(extra) "variants": [{"url": "a.png", "width": 1, "height": 1, "bytes": 1, "sha256": "\#(sha)"}]}"#
        }
        let cases: [(String, String)] = [
            (#""days": ["mon", "funday"],"#, "days[1]"), (#""days": "mon","#, "days"), (#""hours": ["25:00-26:00"],"#, "hours[0]"),
            (#""hours": ["06:00"],"#, "hours[0]"), (#""hours": ["+6:00-12:00"],"#, "hours[0]"), (#""hours": ["24:00-02:00"],"#, "hours[0]"),
            (#""timezone": "Mars/Olympus_Mons","#, "timezone"), (#""timezone": 1,"#, "timezone"),
            (#""weight": "3","#, "weight"), (#""weight": 0,"#, "weight"), (#""max_per_day": 1.5,"#, "max_per_day"),
            (#""max_per_hour": -1,"#, "max_per_hour"), (#""min_interval": true,"#, "min_interval"), (#""priority": "high","#, "priority")
        ]
        for (field, name) in cases {
            let json =
                #"{"ads": [\#(ad("bad", field)), \#(ad("good", #""days": ["sat", "SUN"], "hours": ["22:00-02:00", "00:00-24:00"], "timezone": "Europe/Berlin", "weight": 2, "max_per_day": 3, "max_per_hour": 1, "min_interval": 600,"#))]}"#
            let p = try ManifestParser.parse(
                Data(json.utf8), base: URL(fileURLWithPath: "/srv/ads/m.json"),
                budget: ManifestParser.budget(maxBytes: 1_000_000, seconds: 5))
            XCTAssertEqual(p.manifest.ads.map(\.id), ["good"], field)
            XCTAssertEqual(p.rejected.map(\.id), ["bad"], field)
            XCTAssertEqual(p.rejected.first?.field, name, field)
            XCTAssertTrue(p.rejected.first?.reason.contains(name) == true, p.rejected.first?.reason ?? "")
            XCTAssertEqual(
                p.manifest.ads.first?.schedule,
                AdSchedule(
                    days: [.sat, .sun], hours: [HourRange("22:00-02:00")!, HourRange("00:00-24:00")!],
                    timezone: "Europe/Berlin", weight: 2, maxPerDay: 3, maxPerHour: 1, minInterval: 600))
        }
    }

    /// Plays are kept a week and a day, per ad; older ones are forgotten when the next is noted.
    func testThePlayHistoryIsPruned() {
        var index = CacheIndex()
        index.recordPlay("a", at: at("2026-12-01T00:00:00Z"))
        index.recordPlay("b", at: at("2026-12-05T00:00:00Z"))
        index.recordPlay("b", at: at("2026-12-09T12:00:00Z"))
        XCTAssertEqual(index.plays, ["b": [at("2026-12-05T00:00:00Z"), at("2026-12-09T12:00:00Z")]])
    }
}
