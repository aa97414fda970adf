import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

/// Which beacons fire for which player event, with which macros; wrapper merging; media choice.
final class VASTTrackingTests: XCTestCase {
    func tracking(_ event: String, _ url: String, offset: VASTOffset? = nil) -> VASTTracking {
        VASTTracking(event: event, offset: offset, url: url)
    }

    /// A wrapper and its InLine, merged.
    func resolved() throws -> ResolvedAd {
        var wrapper = VASTAd(id: "w")
        wrapper.wrapper = VASTWrapper(tagURI: "https://ads.example/inline.xml")
        wrapper.impressions = ["https://w.example/imp"]
        wrapper.errors = ["https://w.example/err?c=[ERRORCODE]"]
        var wl = VASTLinear()
        wl.tracking = [tracking("start", "https://w.example/start"), tracking("complete", "https://w.example/complete")]
        wl.clickTracking = ["https://w.example/click"]
        wrapper.linear = wl
        var inline = VASTAd(id: "i")
        inline.impressions = ["https://i.example/imp?ts=[TIMESTAMP]&cb=[CACHEBUSTING]"]
        inline.errors = ["https://i.example/err?c=[ERRORCODE]"]
        var l = VASTLinear()
        l.duration = 8
        l.tracking = [
            tracking("creativeView", "https://i.example/cv"), tracking("start", "https://i.example/start?a=[ASSETURI]"),
            tracking("firstQuartile", "https://i.example/q1?ph=[ADPLAYHEAD]"), tracking("midpoint", "https://i.example/mid"),
            tracking("thirdQuartile", "https://i.example/q3"), tracking("complete", "https://i.example/complete"),
            tracking("pause", "https://i.example/pause?s=[PLAYERSIZE]"), tracking("resume", "https://i.example/resume"),
            tracking("mute", "https://i.example/mute?st=[PLAYERSTATE]"), tracking("unmute", "https://i.example/unmute?st=[PLAYERSTATE]"),
            tracking("skip", "https://i.example/skip"), tracking("closeLinear", "https://i.example/close"),
            tracking("progress", "https://i.example/p2?x=[UNKNOWNTHING]&ip=[DEVICEIP]", offset: .seconds(2))
        ]
        l.clickTracking = ["https://i.example/click"]
        l.mediaFiles = [VASTMediaFile(url: "https://i.example/ad.mp4")]
        inline.linear = l
        var chain = VASTChain(maxWrappers: 5)
        XCTAssertEqual(try chain.step(wrapper), "https://ads.example/inline.xml")
        XCTAssertNil(try chain.step(inline))
        return try chain.merged(inline: inline, reach: .any)
    }

    func testWrapperTrackingIsMergedOuterFirst() throws {
        let ad = try resolved()
        XCTAssertEqual(ad.impressions, ["https://w.example/imp", "https://i.example/imp?ts=[TIMESTAMP]&cb=[CACHEBUSTING]"])
        XCTAssertEqual(ad.errors.count, 2)
        XCTAssertEqual(
            ad.linear.tracking.filter { $0.event == "start" }.map(\.url),
            ["https://w.example/start", "https://i.example/start?a=[ASSETURI]"])
        XCTAssertEqual(ad.linear.clickTracking, ["https://w.example/click", "https://i.example/click"])
        XCTAssertEqual(ad.wrapperDepth, 1)
    }

    func testPlayerEventsBecomeBeaconsOnceInOrderWithMacros() throws {
        var ctx = MacroContext(timestamp: Date(), cacheBusting: "", deviceUA: "LaunchAd/0.1.0 (Linux)")
        ctx.assetURI = "https://cdn.example/a b.mp4"
        var tracker = VASTTracker(ad: try resolved(), context: ctx)
        let at = Date(timeIntervalSince1970: 1_764_547_200.125)  // 2025-12-01T00:00:00.125Z
        var n = 0
        func run(_ e: AdEvent) -> [VASTTracker.Batch] {
            tracker.batches(for: e, at: at) {
                n += 1; return String(format: "%08d", n)
            }
        }
        XCTAssertEqual(
            run(
                AdEvent(
                    .window(WindowOpened(width: 640, height: 360, fullscreen: false, videoDriver: "x11", renderer: "software", rotate: 0)),
                    tMs: 1)), [])
        XCTAssertEqual(
            run(AdEvent(.start(CreativeStart(file: "a.mp4", kind: .video, width: 640, height: 360, duration: 10, hasAudio: true)), tMs: 2)),
            [])
        let first = run(AdEvent(.firstFrame(fallback: false), tMs: 3))
        XCTAssertEqual(first.map(\.event), ["impression", "creativeView", "start"])
        XCTAssertEqual(first[0].urls, ["https://w.example/imp", "https://i.example/imp?ts=2025-12-01T00%3A00%3A00.125Z&cb=00000001"])
        XCTAssertEqual(first[2].urls, ["https://w.example/start", "https://i.example/start?a=https%3A%2F%2Fcdn.example%2Fa%20b.mp4"])
        XCTAssertEqual(run(AdEvent(.firstFrame(fallback: false), tMs: 4)), [], "the impression fires once")
        // The media's length (10 s) wins over <Duration> (8 s) for the playhead.
        XCTAssertEqual(run(AdEvent(.quartile(25), tMs: 5)).first?.urls, ["https://i.example/q1?ph=00%3A00%3A02.500"])
        XCTAssertEqual(
            run(AdEvent(.progress(mark: "00:00:02.000", shownMs: 2000), tMs: 5)).first?.urls,
            ["https://i.example/p2?x=[UNKNOWNTHING]&ip=-1"])
        XCTAssertEqual(
            run(AdEvent(.pause(reason: .focusLost, shownMs: 3000), tMs: 6)).first?.urls,
            ["https://i.example/pause?s=640%2C360"])
        XCTAssertEqual(run(AdEvent(.resume(reason: .focusLost, shownMs: 3000), tMs: 7)).map(\.event), ["resume"])
        XCTAssertEqual(run(AdEvent(.mute, tMs: 8)).first?.urls, ["https://i.example/mute?st=muted"])
        XCTAssertEqual(run(AdEvent(.unmute, tMs: 9)).first?.urls, ["https://i.example/unmute?st="])
        XCTAssertEqual(run(AdEvent(.quartile(50), tMs: 10)).map(\.event), ["midpoint"])
        XCTAssertEqual(
            run(AdEvent(.click(link: "https://w.example/", shownMs: 6000), tMs: 11)).first?.urls,
            ["https://w.example/click", "https://i.example/click"])
        XCTAssertEqual(run(AdEvent(.error(PlayError(.readFailed, "x")), tMs: 12)), [], "no error once the ad has shown")
        XCTAssertEqual(run(AdEvent(.skip(via: .close, shownMs: 6500), tMs: 13)).map(\.event), ["closeLinear"])
    }

    func testAFailureBeforeTheFirstFrameFiresTheErrorURIsWithTheCode() throws {
        var tracker = VASTTracker(ad: try resolved(), context: MacroContext(timestamp: Date(), cacheBusting: "", deviceUA: "x"))
        let batches = tracker.batches(for: AdEvent(.error(PlayError(.openFailed, "x")), tMs: 1), at: Date()) { "12345678" }
        XCTAssertEqual(batches, [VASTTracker.Batch(event: "error", urls: ["https://w.example/err?c=401", "https://i.example/err?c=401"])])
        XCTAssertEqual(tracker.batches(for: AdEvent(.waitExpired(waitedMs: 3000), tMs: 2), at: Date()) { "1" }, [], "one error per ad")
        XCTAssertEqual(
            tracker.batches(for: AdEvent(.firstFrame(fallback: true), tMs: 3), at: Date()) { "1" }, [],
            "the fallback image is not the ad: no impression")
    }

    func testAVideoTruncatedAfterItShowedFiresError405Once() throws {
        var tracker = VASTTracker(ad: try resolved(), context: MacroContext(timestamp: Date(), cacheBusting: "", deviceUA: "x"))
        XCTAssertEqual(
            tracker.batches(for: AdEvent(.firstFrame(fallback: false), tMs: 1), at: Date()) { "1" }.first?.event,
            "impression")
        let truncated = AdEvent(.error(PlayError(.mediaTruncated, "x", detail: .truncated(shownMs: 600, declaredMs: 5000))), tMs: 2)
        XCTAssertEqual(
            tracker.batches(for: truncated, at: Date()) { "1" },
            [VASTTracker.Batch(event: "error", urls: ["https://w.example/err?c=405", "https://i.example/err?c=405"])])
        XCTAssertEqual(tracker.batches(for: truncated, at: Date()) { "1" }, [], "once")
        XCTAssertEqual(FailureCode.mediaTruncated.vastCode, 405)
    }

    func testChainLimitsLoopsAndUnsafeURIs() throws {
        func wrapper(_ next: String) -> VASTAd {
            var a = VASTAd(); a.wrapper = VASTWrapper(tagURI: next); a.errors = ["https://e.example/\(next.suffix(1))"]; return a
        }
        var chain = VASTChain(maxWrappers: 2, tagURL: "https://ads.example/0")
        XCTAssertNotNil(try chain.step(wrapper("https://ads.example/1")))
        XCTAssertNotNil(try chain.step(wrapper("https://ads.example/2")))
        XCTAssertThrowsError(try chain.step(wrapper("https://ads.example/3"))) { XCTAssertEqual(($0 as? VASTError)?.code, 302) }
        XCTAssertEqual(chain.errorURIs.count, 3, "every wrapper's Error URIs fire, the refused one's too")

        var loop = VASTChain(maxWrappers: 5, tagURL: "https://ads.example/0")
        XCTAssertThrowsError(try loop.step(wrapper("https://ads.example/0"))) { XCTAssertEqual(($0 as? VASTError)?.code, 300) }

        for bad in ["javascript:alert(1)", "file:///etc/passwd", "data:text/html,x"] {
            var inline = VASTAd()
            var l = VASTLinear(); l.clickThrough = bad; inline.linear = l
            var c = VASTChain(maxWrappers: 5)
            XCTAssertThrowsError(try c.step(inline)) { XCTAssertEqual(($0 as? VASTError)?.code, 101) }
        }
    }

    func testAStoppedChainTellsHowFarItGot() throws {
        func wrapper(_ next: String, _ system: String) -> VASTAd {
            var a = VASTAd(); a.wrapper = VASTWrapper(tagURI: next); a.adSystem = system; return a
        }
        var chain = VASTChain(maxWrappers: 5)
        _ = try chain.step(wrapper("https://a.example/2", "one"))
        let second = try chain.read(VASTDocument(version: "3.0", ads: [wrapper("https://a.example/3", "two")]))
        _ = try chain.step(second)
        // The third document never arrived (a 404, say).
        XCTAssertEqual(
            chain.followed(reached: nil),
            [
                VASTChain.Followed(uri: "https://a.example/2", version: "3.0", adSystem: "two", state: .wrapper),
                VASTChain.Followed(uri: "https://a.example/3", version: nil, adSystem: nil, state: .notRead)
            ])
        // It arrived and held no ad; or it held an InLine that then failed (no Linear).
        XCTAssertThrowsError(try chain.read(VASTDocument(version: "4.1", ads: [])))
        XCTAssertEqual(
            chain.followed(reached: nil).last, VASTChain.Followed(uri: "https://a.example/3", version: "4.1", adSystem: nil, state: .noAd))
        var inline = VASTAd(); inline.adSystem = "three"
        XCTAssertEqual(
            chain.followed(reached: inline).last,
            VASTChain.Followed(uri: "https://a.example/3", version: "4.1", adSystem: "three", state: .inline))
    }

    func testWrapperAttributesDecideWhichAdFollows() throws {
        var w = VASTAd(); w.wrapper = VASTWrapper(tagURI: "https://a.example/x")
        var pod1 = VASTAd(id: "p1", sequence: 1); pod1.linear = VASTLinear()
        var solo = VASTAd(id: "s"); solo.linear = VASTLinear()
        var chain = VASTChain(maxWrappers: 5)
        _ = try chain.step(w)
        XCTAssertEqual(try chain.pick(from: VASTDocument(version: "4.0", ads: [pod1, solo])).id, "s", "only a standalone ad by default")
        XCTAssertThrowsError(try chain.pick(from: VASTDocument(version: "4.0", ads: [pod1]))) {
            XCTAssertEqual(($0 as? VASTError)?.code, 303)
        }
        var noMore = VASTAd(); var nw = VASTWrapper(tagURI: "https://a.example/y"); nw.followAdditionalWrappers = false; noMore.wrapper = nw
        var c2 = VASTChain(maxWrappers: 5)
        _ = try c2.step(noMore)
        XCTAssertThrowsError(try c2.pick(from: VASTDocument(version: "4.0", ads: [w]))) { XCTAssertEqual(($0 as? VASTError)?.code, 300) }
    }

    func testPodOrderAndBuffet() {
        let ads = [VASTAd(id: "b1"), VASTAd(id: "p2", sequence: 2), VASTAd(id: "p1", sequence: 1), VASTAd(id: "b2")]
        let plan = VASTAdPlan(VASTDocument(version: "4.0", ads: ads))
        XCTAssertEqual(plan.pod.map(\.id), ["p1", "p2"])
        XCTAssertEqual(plan.buffet.map(\.id), ["b1", "b2"])
    }

    func testThePodPlaysInOrderABuffetAdStandsInForOneThatFailsAndAnEndingStopsIt() {
        let ads = [
            VASTAd(id: "b1"), VASTAd(id: "p2", sequence: 2), VASTAd(id: "p1", sequence: 1), VASTAd(id: "p3", sequence: 3), VASTAd(id: "b2")
        ]
        let plan = VASTAdPlan(VASTDocument(version: "4.0", ads: ads))
        func run(_ results: [String: VASTPodSequence.Result]) -> [String] {
            var sequence = VASTPodSequence(plan), order: [String] = []
            while let ad = sequence.next(), order.count < 10 {
                order.append(ad.id ?? "?")
                sequence.record(results[ad.id ?? ""] ?? .played(.completed, closed: false))
            }
            return order
        }
        XCTAssertEqual(run([:]), ["p1", "p2", "p3"])
        XCTAssertEqual(run(["p2": .failed(stopRun: false)]), ["p1", "p2", "b1", "p3"])
        XCTAssertEqual(
            run(["p2": .failed(stopRun: false), "b1": .failed(stopRun: false), "b2": .failed(stopRun: false)]),
            ["p1", "p2", "b1", "b2", "p3"], "the buffet is used up, then the pod goes on")
        XCTAssertEqual(run(["p1": .failed(stopRun: true)]), ["p1"])
        XCTAssertEqual(run(["p2": .played(.clicked, closed: false)]), ["p1", "p2"])
        XCTAssertEqual(run(["p1": .played(.skipped, closed: true)]), ["p1"], "a closed window ends the run")
        XCTAssertEqual(run(["p1": .played(.skipped, closed: false)]), ["p1", "p2", "p3"], "a skip moves on")
        // No pod: one standalone ad, the next one only if it fails.
        var sequence = VASTPodSequence(VASTAdPlan(VASTDocument(version: "4.0", ads: [VASTAd(id: "s1"), VASTAd(id: "s2")])))
        XCTAssertEqual(sequence.next()?.id, "s1")
        sequence.record(.failed(stopRun: false))
        XCTAssertEqual(sequence.next()?.id, "s2")
        sequence.record(.played(.completed, closed: false))
        XCTAssertNil(sequence.next())
    }

    /// A tag of 2,640 ads whose media cannot be had (a 1 MB response) held `play --vast` for
    /// minutes, trying each in turn: five failed ads end the run, buffet or pod.
    func testFiveFailedAdsEndTheRun() {
        func tried(_ ads: [VASTAd]) -> [String] {
            var sequence = VASTPodSequence(VASTAdPlan(VASTDocument(version: "4.0", ads: ads))), order: [String] = []
            while let ad = sequence.next(), order.count < 5000 {
                order.append(ad.id ?? "?")
                sequence.record(.failed(stopRun: false))
            }
            return order
        }
        let buffet = (0..<2640).map { VASTAd(id: "b\($0)") }
        XCTAssertEqual(tried(buffet), ["b0", "b1", "b2", "b3", "b4"])
        let pod = (0..<2000).map { VASTAd(id: "p\($0)", sequence: $0 + 1) }
        XCTAssertEqual(tried(pod + buffet).count, VASTPodSequence.maxFailedAds)
        // Ads that play do not count: a pod of ten plays whole.
        var sequence = VASTPodSequence(VASTAdPlan(VASTDocument(version: "4.0", ads: Array(pod.prefix(10)))))
        var played = 0
        while sequence.next() != nil, played < 100 {
            played += 1
            sequence.record(.played(.completed, closed: false))
        }
        XCTAssertEqual(played, 10)
    }

    func testMacroEncodingAndUnknowns() {
        var c = MacroContext(timestamp: Date(timeIntervalSince1970: 0), cacheBusting: "00000042", deviceUA: "LaunchAd/0.1.0 (Linux)")
        c.errorCode = 402
        c.muted = true; c.fullscreen = true
        let out = MacroExpander.expand(
            "https://t.example/e?ts=[TIMESTAMP]&cb=[CACHEBUSTING]&e=[ERRORCODE]&ua=[DEVICEUA]&ps=[PLAYERSTATE]&r=[REASON]&lat=[LIMITADTRACKING]&mp=[MEDIAPLAYHEAD]&ip=[2001:db8::1]&x=[notmacro",
            c)
        XCTAssertEqual(
            out,
            "https://t.example/e?ts=1970-01-01T00%3A00%3A00.000Z&cb=00000042&e=402&ua=LaunchAd%2F0.1.0%20%28Linux%29&ps=muted%2Cfullscreen&r=-1&lat=0&mp=-1&ip=[2001:db8::1]&x=[notmacro"
        )
    }

    func testAStrayBracketNeverHidesTheNextMacro() {
        let c = MacroContext(timestamp: Date(timeIntervalSince1970: 0), cacheBusting: "00000007", deviceUA: "x")
        XCTAssertEqual(
            MacroExpander.expand("https://t.example/?a=[CACHEBUSTING&b=[CACHEBUSTING]&c=[x]&d=[", c),
            "https://t.example/?a=[CACHEBUSTING&b=00000007&c=[x]&d=[")
    }

    func testMediaFileChoice() {
        func file(
            _ url: String, _ w: Int, _ h: Int, type: String = "video/mp4", delivery: String = "progressive", codec: String? = nil,
            kbps: Int? = nil, api: String? = nil
        ) -> VASTMediaFile {
            var f = VASTMediaFile(url: url); f.width = w; f.height = h; f.type = type; f.delivery = delivery; f.codec = codec;
            f.bitrate = kbps; f.apiFramework = api
            return f
        }
        let caps = MediaCapabilities(demuxers: ["mov", "matroska", "hls"], decoders: ["h264", "vp9", "aac"])
        let files = [
            file("https://c/vpaid.js", 1920, 1080, type: "application/javascript", api: "VPAID"),
            file("https://c/1080.mp4", 1920, 1080, codec: "avc1.640028", kbps: 6000),
            file("https://c/720.mp4", 1280, 720, codec: "avc1.4D401F,mp4a.40.2", kbps: 2500),
            file("https://c/360.mp4", 640, 360, kbps: 800),
            file("https://c/hevc.mp4", 1280, 720, codec: "hvc1.1.6.L93.B0", kbps: 1200),
            file("https://c/portrait.webm", 720, 1280, type: "video/webm", codec: "vp09.00.10.08"),
            file("https://c/master.m3u8", 1920, 1080, type: "application/x-mpegURL", delivery: "streaming"),
            file("https://c/ad.flv", 1280, 720, type: "video/x-flv")
        ]
        func pick(_ w: Int, _ h: Int, max: Int? = nil) -> String? {
            try? MediaFileChooser.choose(files, window: Size(width: w, height: h), capabilities: caps, maxBitrateKbps: max).get().file.url
        }
        XCTAssertEqual(pick(1280, 720), "https://c/720.mp4", "the smallest that covers; HEVC cannot be decoded here")
        XCTAssertEqual(pick(1000, 560), "https://c/720.mp4")
        XCTAssertEqual(pick(2560, 1440), "https://c/1080.mp4", "none covers: the largest")
        XCTAssertEqual(pick(640, 1136), "https://c/portrait.webm", "the aspect closest to a portrait window")
        XCTAssertEqual(pick(1920, 1080, max: 3000), "https://c/720.mp4", "--max-bitrate bounds it")
        let streamOnly = [files[6]]
        XCTAssertEqual(
            try? MediaFileChooser.choose(streamOnly, window: Size(width: 1280, height: 720), capabilities: caps).get().file.url,
            "https://c/master.m3u8", "streaming when nothing progressive plays")
        // Attributes are hints: a codec this FFmpeg lacks or a type it does not know makes a file a last resort, not a refusal.
        let doubtful = try? MediaFileChooser.choose(
            [files[0], files[4], files[7]], window: Size(width: 1280, height: 720), capabilities: caps
        ).get()
        XCTAssertEqual(doubtful?.candidates.map(\.url), ["https://c/hevc.mp4", "https://c/ad.flv"])
        XCTAssertEqual(
            try? MediaFileChooser.choose([files[1], files[4]], window: Size(width: 1280, height: 720), capabilities: caps).get().candidates
                .map(\.url),
            ["https://c/1080.mp4", "https://c/hevc.mp4"], "the file its attributes say plays comes first")
        XCTAssertEqual(
            try? MediaFileChooser.choose(
                [file("https://c/v.mp4", 640, 360, api: "VAST"), file("https://c/p.js", 640, 360, type: "video/mp4", api: "VPAID")],
                window: Size(width: 640, height: 360), capabilities: caps
            ).get().candidates.map(\.url),
            ["https://c/v.mp4"], "apiFramework=\"VAST\" on an MP4 is a hint; VPAID is never played")
        for codec in ["H.264", "avc", "0", "", "h264, mp4a"] {
            XCTAssertEqual(
                try? MediaFileChooser.choose(
                    [file("https://c/a.mp4", 640, 360, codec: codec)], window: Size(width: 640, height: 360),
                    capabilities: caps
                ).get().file.url, "https://c/a.mp4", codec)
        }
        let none = MediaFileChooser.choose(
            [files[0], files[6]], window: Size(width: 1280, height: 720),
            capabilities: MediaCapabilities(demuxers: ["mov"], decoders: ["h264"]))
        guard case .failure(let e) = none else { return XCTFail("nothing here is playable") }
        XCTAssertEqual(e.code, 403)
        XCTAssertEqual(MediaCapabilities.decoder(forCodec: "hev1.2.4.L120"), "hevc")
        XCTAssertEqual(MediaCapabilities.decoder(forCodec: "av01.0.04M.08"), "av1")
    }

    func testMappingSkipOffsetAndLink() throws {
        var ad = try resolved()
        ad.linear.skipOffset = .percent(50)
        ad.linear.clickThrough = "https://shop.example/"
        var base = PlayOptions()
        let media = VASTMediaFile(url: "https://c/a.mp4")
        var o = VASTMapping.playOptions(base, ad: ad, media: media)
        XCTAssertEqual(o.file, "https://c/a.mp4")
        XCTAssertEqual(o.skipAfter, 4, "50 % of the 8 s <Duration>")
        XCTAssertTrue(o.showSkip)
        XCTAssertEqual(o.link, "https://shop.example/")
        XCTAssertEqual(o.progressOffsets, [.seconds(2)])
        ad.linear.skipOffset = nil
        o = VASTMapping.playOptions(base, ad: ad, media: media)
        XCTAssertFalse(o.showSkip, "no skipoffset: not skippable")
        base.vast.skipAfterGiven = true
        base.skipAfter = 3
        o = VASTMapping.playOptions(base, ad: ad, media: media)
        XCTAssertTrue(o.showSkip)
        XCTAssertEqual(o.skipAfter, 3, "unless --skip-after is given")
    }

    func testSessionSendsProgressMarksOnShownTime() {
        var config = SessionConfig(limitMs: nil, countdownMs: 4000)
        config.progressOffsets = [.seconds(1), .percent(75)]
        let run = SessionRun(config)
        run.send(.firstFrame, at: 0)
        run.tick(from: 0, through: 900)
        run.send(.pause(.host), at: 900)
        run.tick(from: 900, through: 3000)
        run.send(.resume(.host), at: 3000)
        run.tick(from: 3000, through: 3200)
        XCTAssertEqual(
            run.sink.events.filter { $0.name == "progress" }.map { $0["mark"] }, [.string("00:00:01.000")],
            "paused time does not count")
        run.send(.endOfStream, at: 3300)
        XCTAssertEqual(run.sink.events.filter { $0.name == "progress" }.map { $0["mark"] }, [.string("00:00:01.000"), .string("75%")])
    }
}
