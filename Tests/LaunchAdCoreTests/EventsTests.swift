import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

final class JSONValueTests: XCTestCase {
    func testScalars() {
        XCTAssertEqual(JSONValue.int(42).serialized(), "42")
        XCTAssertEqual(JSONValue.int(-7).serialized(), "-7")
        XCTAssertEqual(JSONValue.bool(true).serialized(), "true")
        XCTAssertEqual(JSONValue.bool(false).serialized(), "false")
        XCTAssertEqual(JSONValue.null.serialized(), "null")
        XCTAssertEqual(JSONValue.string("ad.mp4").serialized(), "\"ad.mp4\"")
        XCTAssertEqual(JSONValue.array([1, "a", true, .null]).serialized(), "[1,\"a\",true,null]")
        XCTAssertEqual(JSONValue.array([]).serialized(), "[]")
        XCTAssertEqual(JSONValue.object([]).serialized(), "{}")
    }

    func testDoubles() {
        let cases: [(Double, String)] = [
            (1.5, "1.5"), (2.0, "2"), (0, "0"), (-0.0, "0"), (0.1, "0.1"), (1.0 / 3.0, "0.333"), (-2.25, "-2.25"),
            (5.568, "5.568"), (5.5684, "5.568"), (5.5686, "5.569"), (100.0, "100"), (1234567.125, "1234567.125"),
            // Below a thousandth: "0", not "0." (which is not a JSON number).
            (0.0004, "0"), (-0.0004, "0"), (0.0005, "0.001"),
            // Large whole numbers: no trailing "." either.
            (1e15, "1000000000000000"), (1e20, "100000000000000000000"), (-1e16, "-10000000000000000"),
            (.nan, "null"), (.infinity, "null"), (-.infinity, "null")
        ]
        for (d, text) in cases {
            let s = JSONValue.double(d).serialized()
            XCTAssertEqual(s, text, "\(d)")
            _ = parseJSON("[\(s)]")
        }
        XCTAssertEqual(JSONValue.double(2.5), 2.5)
    }

    func testStringEscaping() {
        let cases: [(String, String)] = [
            ("say \"hi\"", #""say \"hi\"""#),
            (#"C:\ads\x.mp4"#, #""C:\\ads\\x.mp4""#),
            ("a\nb", #""a\nb""#),
            ("a\r\nb", #""a\r\nb""#),
            ("tab\there", #""tab\there""#),
            ("\u{1}\u{1f}", #""\u0001\u001f""#),
            ("\u{0}", #""\u0000""#),
            ("跳过 ✓ 🎬", "\"跳过 ✓ 🎬\""),
            ("/path/with/slashes", "\"/path/with/slashes\""),
            ("", "\"\"")
        ]
        for (raw, json) in cases {
            let s = JSONValue.string(raw).serialized()
            XCTAssertEqual(s, json)
            XCTAssertFalse(s.contains("\n"), "one line")
            // It reads back as the same string.
            XCTAssertEqual((parseJSON("[\(s)]") as? [Any])?.first as? String, raw)
        }
    }

    func testObjectsKeepTheirKeyOrderAndEscapeKeys() {
        let v = JSONValue.object([("z", 1), ("a", "x"), ("m", .object([("q\"k", .array([1.5, .null]))]))])
        XCTAssertEqual(v.serialized(), #"{"z":1,"a":"x","m":{"q\"k":[1.5,null]}}"#)
        let parsed = parseJSON(v.serialized()) as? [String: Any]
        XCTAssertEqual(parsed?["z"] as? Int, 1)
        XCTAssertNotNil((parsed?["m"] as? [String: Any])?["q\"k"])
    }

    func testEquality() {
        XCTAssertEqual(JSONValue.object([("a", 1)]), JSONValue.object([("a", 1)]))
        XCTAssertNotEqual(JSONValue.object([("a", 1), ("b", 2)]), JSONValue.object([("b", 2), ("a", 1)]))
        XCTAssertNotEqual(JSONValue.int(1), JSONValue.string("1"))
        XCTAssertNotEqual(JSONValue.bool(true), JSONValue.int(1))
    }
}

final class AdEventTests: XCTestCase {
    func testLineStartsWithEventAndTime() {
        let e = AdEvent(.end(RunEnd(outcome: .skipped, shownMs: 2000)), tMs: 5321)
        XCTAssertEqual(e.jsonLine(), #"{"event":"end","t_ms":5321,"outcome":"skipped","shown_ms":2000}"#)
        XCTAssertEqual(e["outcome"], "skipped")
        XCTAssertEqual(e["shown_ms"], 2000)
        XCTAssertNil(e["missing"])
        XCTAssertEqual(AdEvent(.mute, tMs: 87).jsonLine(), #"{"event":"mute","t_ms":87}"#)
    }

    func testStartEventWithEveryKindOfField() {
        let e = AdEvent(
            .start(CreativeStart(file: "/tmp/ad \"1\".mp4", kind: .video, width: 720, height: 1280, duration: 5.568, hasAudio: true)),
            tMs: 12)
        let line = e.jsonLine()
        XCTAssertEqual(
            line,
            #"{"event":"start","t_ms":12,"file":"/tmp/ad \"1\".mp4","kind":"video","width":720,"height":1280,"duration":5.568,"has_audio":true}"#
        )
        let object = parseJSON(line) as? [String: Any]
        XCTAssertEqual(object?["event"] as? String, "start")
        XCTAssertEqual(object?["file"] as? String, "/tmp/ad \"1\".mp4")
        XCTAssertEqual(object?["duration"] as? Double, 5.568)
        XCTAssertEqual(object?["has_audio"] as? Bool, true)
    }

    func testEquality() {
        let host = LaunchEvent.pause(reason: .host, shownMs: 10)
        XCTAssertEqual(AdEvent(host, tMs: 1), AdEvent(host, tMs: 1))
        XCTAssertNotEqual(AdEvent(host, tMs: 1), AdEvent(host, tMs: 2))
        XCTAssertNotEqual(AdEvent(host, tMs: 1), AdEvent(.resume(reason: .host, shownMs: 10), tMs: 1))
    }

    func testASessionsWholeStreamIsValidJSONLines() {
        let run = SessionRun(videoConfig(["--link", "https://example.com/?a=\"b\"", "--fallback", "f.png"]))
        run.send(.adUnavailable(code: .openFailed, message: "No such file: \"x\"\nsecond line"), at: 10)
        run.session.fallbackReady(durationMs: 2000, now: 20)
        run.send(.firstFrame, at: 30)
        run.tick(from: 30, through: 490, step: 10)
        run.send(.pause(.focusLost), at: 500)
        run.tick(from: 500, through: 890, step: 10)
        run.send(.resume(.focusLost), at: 900)
        run.tick(from: 900, through: 940, step: 10)
        run.send(.key(.mute), at: 950)
        run.tick(from: 950, through: 1490, step: 10)
        run.tapAd(at: 1500)
        run.tick(from: 1500, through: 2000, step: 10)
        XCTAssertEqual(
            run.names,
            [
                "error", "fallback", "first_frame", "pause", "resume", "quartile", "mute", "quartile",
                "click", "end"
            ])
        XCTAssertEqual(run.events("quartile").map(\.tMs), [930, 1430])
        for e in run.events {
            let line = e.jsonLine()
            XCTAssertFalse(line.contains("\n"), line)
            XCTAssertTrue(line.hasPrefix("{\"event\":\"\(e.name)\",\"t_ms\":\(e.tMs)"), line)
            let object = parseJSON(line) as? [String: Any]
            XCTAssertEqual(object?["event"] as? String, e.name)
        }
        let error = parseJSON(run.events[0].jsonLine()) as? [String: Any]
        XCTAssertEqual(error?["message"] as? String, "No such file: \"x\"\nsecond line")
        XCTAssertEqual(run.only("end")?.jsonLine(), #"{"event":"end","t_ms":1900,"outcome":"clicked","shown_ms":1070}"#)
    }
}

final class OutcomeTests: XCTestCase {
    func testNamesAndExitCodes() {
        let expected: [(Outcome, String, Int32)] = [
            (.completed, "completed", 0), (.capped, "capped", 0), (.skipped, "skipped", 0), (.clicked, "clicked", 0),
            (.endedByHost, "ended_by_host", 0), (.noAd, "no_ad", 3), (.timeout, "timeout", 3), (.error, "error", 1)
        ]
        XCTAssertEqual(expected.count, Outcome.allCases.count, "every outcome has a documented code")
        for (outcome, name, code) in expected {
            XCTAssertEqual(outcome.rawValue, name)
            XCTAssertEqual(outcome.exitCode, code, name)
        }
        XCTAssertEqual(ExitCode.success, 0)
        XCTAssertEqual(ExitCode.failure, 1)
        XCTAssertEqual(ExitCode.usage, 2)
        XCTAssertEqual(ExitCode.noAd, 3)
    }

    func testUsageErrorDescribesItself() {
        let e = UsageError("--size takes WxH")
        XCTAssertEqual(e.description, "--size takes WxH")
        XCTAssertEqual(e, UsageError("--size takes WxH"))
    }
}
