import LaunchAdCore
import XCTest

final class PlayRecordCoreTests: XCTestCase {
    let t0 = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z

    func testARecordIsBuiltFromThePlaysEvents() {
        var r = PlayRecord(adID: "spring", creativeSHA256: "ab", fullscreen: true, muted: false)
        XCTAssertFalse(r.isComplete)
        r.observe(
            AdEvent(.start(CreativeStart(file: "a.mp4", kind: .video, width: 1080, height: 1920, duration: 5, hasAudio: true)), tMs: 10),
            at: t0)
        r.observe(
            AdEvent(
                .window(WindowOpened(width: 1080, height: 1920, fullscreen: false, videoDriver: "x11", renderer: "software", rotate: 0)),
                tMs: 20), at: t0.addingTimeInterval(0.01))
        r.observe(AdEvent(.firstFrame(fallback: false), tMs: 100), at: t0.addingTimeInterval(0.09))
        r.observe(AdEvent(.pause(reason: .focusLost, shownMs: 1000), tMs: 1100), at: t0.addingTimeInterval(1.09))
        r.observe(AdEvent(.resume(reason: .focusLost, shownMs: 1000), tMs: 1600), at: t0.addingTimeInterval(1.59))
        r.observe(AdEvent(.mute, tMs: 1700), at: t0.addingTimeInterval(1.69))
        r.observe(AdEvent(.pause(reason: .focusLost, shownMs: 1400), tMs: 2000), at: t0.addingTimeInterval(1.99))
        r.observe(
            AdEvent(.end(RunEnd(outcome: .skipped, shownMs: 1400, frames: FrameCounter.counted(shown: 35, dropped: 1))), tMs: 2250),
            at: t0.addingTimeInterval(2.24))
        XCTAssertTrue(r.isComplete)
        XCTAssertEqual(
            r.json(id: "r1", screen: "s1", version: "9").serialized(),
            """
            {"id":"r1","screen":"s1","ad_id":"spring","creative_sha256":"ab","started_at":"2026-01-01T00:00:00.090Z",\
            "ended_at":"2026-01-01T00:00:02.240Z","shown_ms":1400,"outcome":"skipped","error":null,"frames_shown":35,"frames_dropped":1,\
            "av_offset_ms_max":null,"muted":true,"paused_ms":750,"width":1080,"height":1920,"fullscreen":true,"launchad_version":"9"}
            """)
    }

    func testAPlayThatNeverShowedStartsWhenItsFirstEventCame() {
        var r = PlayRecord(adID: nil, creativeSHA256: nil, fullscreen: false, muted: true)
        r.observe(
            AdEvent(.start(CreativeStart(file: "a.mp4", kind: .video, width: 1080, height: 1920, duration: 5, hasAudio: true)), tMs: 10),
            at: t0)
        r.observe(AdEvent(.end(RunEnd(outcome: .timeout, shownMs: 0)), tMs: 3010), at: t0.addingTimeInterval(3))
        let json = r.json(id: "r2", screen: "s", version: "1").serialized()
        XCTAssertTrue(
            json.contains(
                #""started_at":"2026-01-01T00:00:00.000Z","ended_at":"2026-01-01T00:00:03.000Z","shown_ms":0,"outcome":"timeout","error":null,"frames_shown":null"#
            ), json)
        XCTAssertTrue(json.contains(#""muted":true"#), json)
    }

    func testReportFieldAndScreenID() throws {
        let sha = String(repeating: "ab", count: 32)
        let ad = #"{"id": "a", "type": "image", "variants": [{"url": "a.png", "width": 1, "height": 1, "bytes": 1, "sha256": "\#(sha)"}]}"#
        let base = URL(string: "https://ads.example.com/m.json")!
        func parse(_ report: String) throws -> ParsedManifest {
            try ManifestParser.parse(
                Data(#"{"report": \#(report), "ads": [\#(ad)]}"#.utf8), base: base,
                budget: ManifestParser.budget(maxBytes: 1_000_000, seconds: 5))
        }
        XCTAssertEqual(
            try parse(#"{"url": "https://c.example.com/pop", "batch": 20}"#).manifest.report,
            ReportTarget(url: "https://c.example.com/pop", batch: 20, reach: .publicOnly))
        XCTAssertEqual(try parse(#"{"url": "https://c.example.com/pop"}"#).manifest.report?.batch, 50)
        for (bad, reason) in [
            (#"{"url": "ftp://c/pop"}"#, "report.url must be an http or https URL"),
            (#"{"url": "https://c.example.com/pop", "batch": 0}"#, "report.batch must be a whole number from 1 to 1000"),
            (#""https://c.example.com/pop""#, "\"report\" must be an object with \"url\" and \"batch\"")
        ] {
            let p = try parse(bad)
            XCTAssertNil(p.manifest.report)
            XCTAssertEqual(p.manifest.ads.map(\.id), ["a"], "the ads stay")
            XCTAssertEqual(p.rejected, [RejectedAd(id: "report", reason: reason + "; no play records are sent")])
        }
        let id = ScreenID.derive(machineID: "0123456789abcdef0123456789abcdef\n")
        XCTAssertEqual(id, ScreenID.derive(machineID: "0123456789abcdef0123456789abcdef"))
        XCTAssertNotEqual(id, ScreenID.derive(machineID: "0123456789abcdef0123456789abcdee"))
        XCTAssertTrue(id.hasPrefix("screen-") && id.count == 23 && !id.contains("0123456789abcdef"), id)
    }
}
