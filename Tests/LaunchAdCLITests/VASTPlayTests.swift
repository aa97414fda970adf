import Foundation
import LaunchAdTestSupport
import XCTest

/// `play` with VAST tags served by a real nginx whose `/track/` endpoint logs every beacon.
final class VASTPlayTests: XCTestCase {
    var nginx: Nginx!
    var track: String { "\(nginx.base)/track" }
    var state: String!

    override func setUpWithError() throws {
        nginx = try Nginx()
        state = NSTemporaryDirectory() + "launchad-vast-state-\(UUID().uuidString)"
        let clip = try Fixtures.colourBars(seconds: 2, audio: true)
        try nginx.put("ad.mp4", Data(contentsOf: URL(fileURLWithPath: clip)))
        try nginx.put("slow/ad.mp4", Data(contentsOf: URL(fileURLWithPath: clip)))
    }

    override func tearDown() {
        nginx.stop()
        try? FileManager.default.removeItem(atPath: state)
    }

    var media: String { VASTTags.mediaFile("\(nginx.base)/ad.mp4", extra: #"codec="avc1.64000D, mp4a.40.2""#) }

    func play(_ args: [String]) throws -> Launchad.Run {
        try Launchad.run(["play"] + args + ["--state", state, "--size", "320x240", "--transition", "none"])
    }

    /// The beacons received so far as `ad/event` (the query kept aside), waiting for `count`.
    func beacons(atLeast count: Int, timeout: Double = 5) -> [(name: String, query: String)] {
        Wait.until(timeout: timeout) { nginx.tracked.count >= count }
        return nginx.tracked.map { line in
            let parts = line.dropFirst("/track/".count).split(separator: "?", maxSplits: 1).map(String.init)
            return (parts[0], parts.count > 1 ? parts[1] : "")
        }
    }

    func testAnInLineTagPlaysAndEachBeaconArrivesOnceInOrderWithItsMacros() throws {
        let progress = #"<Tracking event="progress" offset="00:00:01.000"><![CDATA[\#(track)/a1/progress?ph=[ADPLAYHEAD]]]></Tracking>"#
        let tag = VASTTags.document(
            version: "4.2", namespaced: true, [VASTTags.inlineAd(id: "a1", track: track, media: [media], extraTracking: progress)])
        // No extension: the root element says it is a tag.
        let url = try nginx.put("tag-inline", Data(tag.utf8))
        let run = try play([url])
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertEqual(run.events(named: "vast_ad").first?["media"] as? String, "\(nginx.base)/ad.mp4")
        XCTAssertEqual(run.events(named: "end").count, 1)
        XCTAssertEqual(run.events(named: "end").first?["outcome"] as? String, "completed")
        let got = beacons(atLeast: 8)
        XCTAssertEqual(
            got.map(\.name),
            [
                "a1/impression", "a1/creativeView", "a1/start", "a1/firstQuartile", "a1/midpoint", "a1/progress",
                "a1/thirdQuartile", "a1/complete"
            ])
        XCTAssertEqual(got.first { $0.name == "a1/progress" }?.query, "ph=00%3A00%3A01.000", "progress at its offset of shown time")
        let impression = got[0].query
        XCTAssertTrue(
            impression.range(
                of:
                    #"^ts=\d{4}-\d\d-\d\dT\d\d%3A\d\d%3A\d\d\.\d{3}Z&cb=\d{8}&asset=http%3A%2F%2F127\.0\.0\.1%3A\d+%2Fad\.mp4&size=320%2C240&lat=0$"#,
                options: .regularExpression) != nil, impression)
    }

    func testALocalTagFileIsSniffedAndAOneWrapperChainPlays() throws {
        let inline = try nginx.put(
            "one-inline.xml", Data(VASTTags.document(version: "3.0", [VASTTags.inlineAd(id: "in1", track: track, media: [media])]).utf8))
        let file = try Fixtures.write(
            "vast-wrapper-\(UUID().uuidString).tag",
            Data(
                VASTTags.document(
                    version: "4.3", namespaced: true,
                    [VASTTags.wrapperAd(id: "w", track: track, next: inline)]
                ).utf8))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let run = try play([file])
        XCTAssertEqual(run.status, 0, run.stdout)
        XCTAssertEqual(run.events(named: "vast").first?["version"] as? String, "4.3")
        XCTAssertEqual(run.events(named: "vast_ad").first?["wrappers"] as? Int, 1)
        XCTAssertEqual(Set(beacons(atLeast: 2).map(\.name).filter { $0.hasSuffix("/impression") }), ["w/impression", "in1/impression"])
    }

    func testAFiveWrapperChainMergesEveryWrappersTracking() throws {
        var next = try nginx.put(
            "inline.xml", Data(VASTTags.document(version: "2.0", [VASTTags.inlineAd(id: "in", track: track, media: [media])]).utf8))
        for depth in (1...5).reversed() {
            let version = ["3.0", "4.0", "4.1", "4.2", "4.3"][depth - 1]
            next = try nginx.put(
                "w\(depth).xml",
                Data(
                    VASTTags.document(
                        version: version, namespaced: depth % 2 == 0,
                        [VASTTags.wrapperAd(id: "w\(depth)", track: track, next: next)]
                    ).utf8))
        }
        let run = try play(["--vast", next])
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertEqual(run.events(named: "vast_ad").first?["wrappers"] as? Int, 5)
        let got = beacons(atLeast: 19).map(\.name)
        // One event's beacons go out together (in parallel); the events in order.
        XCTAssertEqual(
            got.filter { $0.hasSuffix("/impression") }.sorted(),
            [
                "in/impression", "w1/impression", "w2/impression", "w3/impression",
                "w4/impression", "w5/impression"
            ])
        XCTAssertEqual(
            got.filter { $0.hasSuffix("/start") }.sorted(), ["in/start", "w1/start", "w2/start", "w3/start", "w4/start", "w5/start"])
        XCTAssertEqual(got.filter { $0.hasSuffix("/complete") }.count, 6)
        XCTAssertEqual(Set(got).count, got.count, "each beacon once")
        let lastImpression = try XCTUnwrap(got.lastIndex { $0.hasSuffix("/impression") })
        let firstStart = try XCTUnwrap(got.firstIndex { $0.hasSuffix("/start") })
        let firstComplete = try XCTUnwrap(got.firstIndex { $0.hasSuffix("/complete") })
        XCTAssertLessThan(lastImpression, firstStart)
        XCTAssertLessThan(try XCTUnwrap(got.lastIndex { $0.hasSuffix("/start") }), firstComplete)
    }

    /// Each bad input: an error event with its VAST code, the Error URIs fired with it, no_ad (exit 3).
    func testBadInputsEndNoAdWithTheirVASTErrorCode() throws {
        let inline = VASTTags.document([VASTTags.inlineAd(id: "in", track: track, media: [media])])
        let inlineURL = try nginx.put("good.xml", Data(inline.utf8))
        func wrapperTo(_ next: String, id: String = "w") -> String {
            VASTTags.document([VASTTags.wrapperAd(id: id, track: track, next: next)])
        }
        // A chain of six wrappers, one past --max-wrappers.
        var six = inlineURL
        for d in (1...6).reversed() { six = try nginx.put("six\(d).xml", Data(wrapperTo(six, id: "s\(d)").utf8)) }
        let loopURL = "\(nginx.base)/loop-a.xml"
        try nginx.put("loop-b.xml", Data(wrapperTo(loopURL, id: "lb").utf8))
        try nginx.put("loop-a.xml", Data(wrapperTo("\(nginx.base)/loop-b.xml", id: "la").utf8))
        let big = "<VAST version=\"4.0\"><!--" + String(repeating: "x", count: 1_100_000) + "--></VAST>"
        let cases: [(name: String, body: String?, url: String?, code: Int, errorBeacon: String?)] = [
            ("malformed", "<VAST version=\"4.0\"><Ad><InLine>", nil, 100, nil),
            (
                "laughs",
                #"<?xml version="1.0"?><!DOCTYPE v [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]><VAST version="4.0"><Ad><InLine><AdTitle>&b;</AdTitle></InLine></Ad></VAST>"#,
                nil, 100, nil
            ),
            (
                "xxe",
                #"<?xml version="1.0"?><!DOCTYPE v [<!ENTITY x SYSTEM "file:///etc/passwd">]><VAST version="4.0"><Ad><InLine><AdTitle>&x;</AdTitle></InLine></Ad></VAST>"#,
                nil, 100, nil
            ),
            ("big", big, nil, 100, nil),
            ("noad", VASTTags.document([], rootError: "\(track)/root/error?code=[ERRORCODE]"), nil, 303, "root/error?code=303"),
            ("six", nil, six, 302, "s6/error?code=302"),
            ("loop", nil, loopURL, 300, "la/error?code=300"),
            ("wrap404", wrapperTo("\(nginx.base)/missing.xml", id: "w404"), nil, 301, "w404/error?code=301"),
            (
                "nomedia",
                VASTTags.document([
                    VASTTags.inlineAd(
                        id: "nm", track: track, media: [VASTTags.mediaFile("\(nginx.base)/x.swf", type: "application/x-shockwave-flash")])
                ]), nil, 403, "nm/error?code=403"
            ),
            // Playlists are not played: a network creative is one self-contained file.
            (
                "hlsonly",
                VASTTags.document([
                    VASTTags.inlineAd(
                        id: "hl", track: track, media: [VASTTags.mediaFile("\(nginx.base)/m.m3u8", type: "application/x-mpegURL")])
                ]), nil, 403, "hl/error?code=403"
            ),
            // The media trickles from /slow/: no first frame within --wait 1.
            (
                "lateframe",
                VASTTags.document([VASTTags.inlineAd(id: "lf", track: track, media: [VASTTags.mediaFile("\(nginx.base)/slow/ad.mp4")])]),
                nil, 402, "lf/error?code=402"
            ),
            (
                "media404",
                VASTTags.document([VASTTags.inlineAd(id: "m4", track: track, media: [VASTTags.mediaFile("\(nginx.base)/gone.mp4")])]), nil,
                401, "m4/error?code=401"
            ),
            (
                "jsclick",
                VASTTags.document([VASTTags.inlineAd(id: "js", track: track, media: [media], clickThrough: "javascript:alert(1)")]), nil,
                101, "js/error?code=101"
            ),
            (
                "filemedia",
                VASTTags.document([VASTTags.inlineAd(id: "fm", track: track, media: [VASTTags.mediaFile("file:///etc/passwd")])]), nil, 101,
                "fm/error?code=101"
            ),
            (
                "dataclick",
                VASTTags.document([VASTTags.inlineAd(id: "dc", track: track, media: [media], clickThrough: "data:text/html,hi")]), nil, 101,
                "dc/error?code=101"
            ),
            // nginx's /slow/ sends 2 kB a second: 20 kB takes 10 s, past --vast-timeout.
            (
                "slow", nil,
                try nginx.put(
                    "slow/tag.xml",
                    Data(wrapperTo(inlineURL, id: "sl").appending("<!--" + String(repeating: "s", count: 20_000) + "-->").utf8)), 301, nil
            )
        ]
        for c in cases {
            let before = nginx.tracked.count
            let url = try c.url ?? nginx.put("bad-\(c.name).xml", Data(c.body!.utf8))
            let run = try play(["--vast", url, "--vast-timeout", "2", "--wait", "1"])
            XCTAssertEqual(run.status, 3, "\(c.name): \(run.stdout)")
            XCTAssertEqual(run.events(named: "end").first?["outcome"] as? String, "no_ad", c.name)
            XCTAssertEqual(run.events(named: "error").first?["vast_error"] as? Int, c.code, "\(c.name): \(run.stdout)")
            XCTAssertTrue(run.events(named: "first_frame").isEmpty, c.name)
            if let expected = c.errorBeacon {
                let got = beacons(atLeast: before + 1).dropFirst(before).map { "\($0.name)?\($0.query)" }
                XCTAssertTrue(got.contains(expected), "\(c.name): \(got)")
                XCTAssertFalse(got.contains { $0.contains("/impression") }, c.name)
            }
            XCTAssertFalse(run.stdout.contains("root:x:0"), "\(c.name): nothing of /etc/passwd")
        }
    }

    /// The media file cut to a third of its bytes: what it holds is shown, then the player's
    /// `error` media_truncated ends the ad (outcome `error`, exit 1), no `complete`, and the
    /// tag's Error URI gets 405 (a problem displaying the media file).
    func testATruncatedMediaFileEndsWithMediaTruncatedAndSendsError405() throws {
        let whole = try Data(contentsOf: URL(fileURLWithPath: try Fixtures.colourBars(seconds: 2, audio: true)))
        try nginx.put("cut.mp4", whole.prefix(whole.count / 3))
        let tag = VASTTags.document([
            VASTTags.inlineAd(
                id: "tr", track: track, media: [VASTTags.mediaFile("\(nginx.base)/cut.mp4")],
                events: ["start", "firstQuartile", "complete"])
        ])
        let run = try play(["--vast", try nginx.put("truncated.xml", Data(tag.utf8)), "--wait", "2"])
        XCTAssertEqual(run.status, 1, run.stdout + run.stderr)
        XCTAssertEqual(run.events(named: "end").first?["outcome"] as? String, "error", run.stdout)
        let error = try XCTUnwrap(run.events(named: "error").first, run.stdout)
        XCTAssertEqual(error["code"] as? String, "media_truncated", run.stdout)
        XCTAssertEqual(run.events(named: "first_frame").count, 1, "what the file holds was shown")
        XCTAssertEqual(run.events(named: "complete").count, 0, run.stdout)
        XCTAssertEqual(error["vast_error"] as? Int, 405, run.stdout)
        let got = beacons(atLeast: 4).map(\.name)
        XCTAssertEqual(beacons(atLeast: 4).filter { $0.name == "tr/error" }.map(\.query), ["code=405"], "\(got)")
        XCTAssertTrue(got.contains("tr/impression") && got.contains("tr/start"), "\(got)")
        XCTAssertFalse(got.contains("tr/complete"), "\(got)")
    }

    func testAFailedTagShowsTheFallbackImageWithTheErrorReported() throws {
        let url = try nginx.put("empty.xml", Data(VASTTags.document([]).utf8))
        let png = try Fixtures.write("vast-fallback.png", Fixtures.solidPNG("blue"))
        let run = try play(["--vast", url, "--fallback", png, "--duration", "0.3"])
        XCTAssertEqual(run.status, 0, run.stdout)
        XCTAssertEqual(run.events(named: "error").first?["vast_error"] as? Int, 303)
        XCTAssertEqual(run.events(named: "fallback").first?["reason"] as? String, "vast_303")
        XCTAssertEqual(run.events(named: "end").count, 1)
    }

    func testSkipOffsetMuteAndPauseFireTheirBeacons() throws {
        let tag = VASTTags.document(version: "3.0", [VASTTags.inlineAd(id: "sk", track: track, media: [media], skipoffset: "00:00:00.500")])
        let url = try nginx.put("skip.xml", Data(tag.utf8))
        let run = try LiveRun(
            ["play", "--vast", url, "--control", "stdin", "--state", state, "--size", "320x240", "--transition", "none"],
            environment: Launchad.headlessEnvironment())
        XCTAssertNotNil(run.waitFor("first_frame"))
        run.send("mute")
        run.send("pause")
        XCTAssertNotNil(run.waitFor("pause"))
        run.send("resume")
        run.send("unmute")
        XCTAssertNotNil(run.waitFor("unmute"))
        // The first quartile of the 2 s clip comes at 0.5 s shown: the skip offset has passed.
        XCTAssertNotNil(run.waitFor("quartile"))
        run.send("skip")
        XCTAssertEqual(run.finish(), 0)
        XCTAssertEqual(run.events(named: "end").first?["outcome"] as? String, "skipped")
        let got = beacons(atLeast: 8).map(\.name)
        XCTAssertEqual(
            got.filter { !$0.hasSuffix("Quartile") && !$0.hasSuffix("midpoint") },
            ["sk/impression", "sk/creativeView", "sk/start", "sk/mute", "sk/pause", "sk/resume", "sk/unmute", "sk/skip"])
        XCTAssertFalse(got.contains("sk/complete"))
    }

    func testWithoutSkipOffsetTheAdCannotBeSkippedButAClickIsTracked() throws {
        let tag = VASTTags.document(version: "4.0", [VASTTags.inlineAd(id: "ck", track: track, media: [media])])
        let url = try nginx.put("click.xml", Data(tag.utf8))
        let run = try LiveRun(
            ["play", "--vast", url, "--control", "stdin", "--state", state, "--size", "320x240", "--transition", "none"],
            environment: Launchad.headlessEnvironment())
        XCTAssertNotNil(run.waitFor("first_frame"))
        run.send("skip")
        XCTAssertNotNil(run.waitFor("control_error"), "the refused skip is answered")
        run.send("click")
        XCTAssertEqual(run.finish(), 0)
        XCTAssertTrue(run.events(named: "skip").isEmpty, "no skipoffset: not skippable")
        XCTAssertEqual(run.events(named: "click").first?["link"] as? String, "https://shop.example/sale")
        let got = beacons(atLeast: 4)
        XCTAssertEqual(got.last?.name, "ck/click")
        XCTAssertTrue(got.last?.query.hasPrefix("ph=00%3A00%3A00.") == true, got.last?.query ?? "")
    }

    func testFallbackOnNoAdDecidesWhetherTheNextBuffetAdPlays() throws {
        let empty = try nginx.put("empty.xml", Data(VASTTags.document([]).utf8))
        for (attribute, expected) in [("", ["b2=completed"]), (#"fallbackOnNoAd="false""#, [])] {
            let tag = VASTTags.document(
                version: "4.1",
                [
                    VASTTags.wrapperAd(id: "w1", track: track, next: empty, attributes: attribute),
                    VASTTags.inlineAd(id: "b2", track: track, media: [media])
                ])
            let run = try play(["--vast", try nginx.put("buffet.xml", Data(tag.utf8))])
            XCTAssertEqual(run.events(named: "error").first?["vast_error"] as? Int, 303, attribute)
            XCTAssertEqual(
                run.events(named: "ad_end").map { "\($0["ad_id"] as? String ?? "?")=\($0["outcome"] as? String ?? "?")" }, expected,
                attribute)
            XCTAssertEqual(run.status, expected.isEmpty ? 3 : 0, attribute)
        }
    }

    func testAPodPlaysInSequenceAndABuffetAdReplacesTheOneThatFails() throws {
        let broken = VASTTags.mediaFile("\(nginx.base)/gone.mp4")
        let tag = VASTTags.document(
            version: "4.1",
            [
                VASTTags.inlineAd(id: "fallback1", track: track, media: [media]),
                VASTTags.inlineAd(id: "second", track: track, media: [media], sequence: 2),
                VASTTags.inlineAd(id: "first", track: track, media: [broken], sequence: 1)
            ])
        let url = try nginx.put("pod.xml", Data(tag.utf8))
        let run = try play(["--vast", url])
        XCTAssertEqual(run.status, 0, run.stdout)
        XCTAssertEqual(
            run.events(named: "ad_end").map { "\($0["ad_id"] as? String ?? "?")=\($0["outcome"] as? String ?? "?")" },
            ["first=no_ad", "fallback1=completed", "second=completed"])
        XCTAssertEqual(run.events(named: "end").count, 1)
        XCTAssertEqual(run.events.last?["event"] as? String, "end")
        let got = beacons(atLeast: 15).map(\.name)
        XCTAssertEqual(
            got.filter { $0.hasSuffix("/impression") || $0.hasSuffix("/error") },
            ["first/error", "fallback1/impression", "second/impression"])
    }
}
