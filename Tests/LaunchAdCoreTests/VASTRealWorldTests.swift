import Foundation
import LaunchAdCore
import XCTest

/// VAST as servers really send it (issue 19) and the bounds a hostile tag meets (issue 20),
/// decided in the core: wrappers, error codes, caps, macros, verification and viewability.
final class VASTRealWorldTests: XCTestCase {
    func inline(_ id: String = "i", media: Bool = true) -> VASTAd {
        var ad = VASTAd(id: id)
        var l = VASTLinear()
        if media { l.mediaFiles = [VASTMediaFile(url: "https://c.example/a.mp4")] }
        ad.linear = l
        ad.errors = ["https://t.example/\(id)/error"]
        return ad
    }

    func wrapper(_ id: String, to uri: String, sequence: Int? = nil) -> VASTAd {
        var w = VASTAd(id: id, sequence: sequence)
        w.wrapper = VASTWrapper(tagURI: uri)
        w.errors = ["https://t.example/\(id)/error"]
        return w
    }

    func testARelativeTagURIIsReadAgainstItsWrappersOwnURL() throws {
        var chain = VASTChain(maxWrappers: 5, tagURL: "https://ads.example/tags/a.xml?x=1")
        XCTAssertEqual(try chain.step(wrapper("a", to: "b.xml")), "https://ads.example/tags/b.xml")
        XCTAssertEqual(try chain.step(wrapper("b", to: "/root/c.xml")), "https://ads.example/root/c.xml", "against b's URL, not a's")
        XCTAssertEqual(try chain.step(wrapper("c", to: "//cdn.example/d.xml")), "https://cdn.example/d.xml")
        XCTAssertEqual(chain.wrappers.compactMap { $0.wrapper?.tagURI }.last, "https://cdn.example/d.xml")
        // From a file there is no base: the ad fails, its Error URIs told.
        var file = VASTChain(maxWrappers: 5)
        XCTAssertThrowsError(try file.step(wrapper("f", to: "next.xml"))) { XCTAssertEqual(($0 as? VASTError)?.code, 101) }
        XCTAssertEqual(file.errorURIs, ["https://t.example/f/error"])
    }

    func testAWrappersSequenceCarriesToTheAdItUnwrapsTo() throws {
        var chain = VASTChain(maxWrappers: 5)
        _ = try chain.step(wrapper("w", to: "https://a.example/x", sequence: 2))
        let ad = try chain.read(VASTDocument(version: "4.2", ads: [inline()]))
        XCTAssertEqual(try chain.merged(inline: ad, reach: .any).sequence, 2)
    }

    func testNoCreativeIs303WithTheRootErrorsAndANonLinearAdIs201() throws {
        var chain = VASTChain(maxWrappers: 5)
        _ = try chain.step(wrapper("w", to: "https://a.example/x"))
        let empty = try chain.read(VASTDocument(version: "4.2", ads: [inline("e", media: false)], errors: ["https://t.example/root"]))
        XCTAssertThrowsError(try chain.merged(inline: empty, reach: .any)) { e in
            let err = e as! VASTError
            XCTAssertEqual(err.code, 303)
            XCTAssertEqual(
                chain.errorURIs(for: err, at: empty), ["https://t.example/w/error", "https://t.example/e/error", "https://t.example/root"])
        }
        var overlay = inline("n", media: false); overlay.linear = nil; overlay.hasNonLinear = true
        XCTAssertThrowsError(try VASTChain(maxWrappers: 5).merged(inline: overlay, reach: .any)) {
            XCTAssertEqual(($0 as? VASTError)?.code, 201)
        }
        // An empty wrapped response: the wrapper's and that document's root Error URIs, 303.
        var c2 = VASTChain(maxWrappers: 5)
        _ = try c2.step(wrapper("w2", to: "https://a.example/y"))
        XCTAssertThrowsError(try c2.read(VASTDocument(version: "4.2", ads: [], errors: ["https://t.example/empty-root"]))) { e in
            XCTAssertEqual(c2.errorURIs(for: e as! VASTError, at: nil), ["https://t.example/w2/error", "https://t.example/empty-root"])
        }
    }

    func testAnAdsOwnProblemFailsItWithItsCode() {
        var bad = inline("b"); bad.problem = VASTError(101, "<Duration> 'x'")
        var chain = VASTChain(maxWrappers: 5)
        XCTAssertThrowsError(try chain.step(bad)) {
            XCTAssertEqual(chain.errorURIs(for: $0 as! VASTError, at: bad), ["https://t.example/b/error"])
        }
    }

    /// 13,000 impressions in each of six documents: 200 per event are kept (the InLine's first), the rest counted.
    func testURIsAreCappedPerEventPerAdTheInLinesKeptFirst() throws {
        let many = (0..<13_000).map { "<Impression>https://t.example/imp/\($0)</Impression>" }.joined()
        let doc = try VASTParser.parse(
            Data(#"<VAST version="4.2"><Ad><InLine>\#(many)</InLine></Ad></VAST>"#.utf8), budget: VASTLimits.budget(seconds: 5))
        XCTAssertEqual(doc.ads[0].impressions.count, 200)
        XCTAssertEqual(doc.ads[0].urisDropped["Impression"], 12_800)
        var chain = VASTChain(maxWrappers: 5)
        for n in 1...5 {
            var w = wrapper("w\(n)", to: "https://a.example/\(n)")
            w.impressions = (0..<200).map { "https://t.example/w\(n)/\($0)" }
            _ = try chain.step(w)
        }
        var ad = inline()
        ad.impressions = ["https://t.example/inline"]
        let merged = try chain.merged(inline: ad, reach: .any)
        XCTAssertEqual(merged.impressions.count, 200)
        XCTAssertEqual(merged.impressions.last, "https://t.example/inline", "the InLine's own impression is kept, fired last as before")
        XCTAssertEqual(merged.urisDropped["Impression"], 801)
    }

    func testLegacyCacheBustersAndReasonAreFilled() {
        var c = MacroContext(timestamp: Date(timeIntervalSince1970: 0), cacheBusting: "01234567", deviceUA: "ua")
        c.reason = 2
        XCTAssertEqual(
            MacroExpander.expand("https://t/?a=[random]&b=[RANDOM]&c=[CACHEBUSTER]&d=%%CACHEBUSTER%%&e=[CACHEBUSTING]&r=[REASON]", c),
            "https://t/?a=01234567&b=01234567&c=01234567&d=01234567&e=01234567&r=2")
        XCTAssertEqual(MacroExpander.expand("https://t/[rand]", c), "https://t/[rand]", "other lower-case brackets stay")
    }

    func testTheClickThroughIsExpandedAndItsPlayheadFilledAtTheClick() throws {
        var ad = try VASTChain(maxWrappers: 5).merged(inline: inline(), reach: .any)
        ad.linear.clickThrough = "https://shop.example/?ph=[ADPLAYHEAD]&cb=[CACHEBUSTING]&a=[ASSETURI]"
        var c = MacroContext(timestamp: Date(), cacheBusting: "76543210", deviceUA: "ua")
        c.assetURI = "https://c.example/a.mp4"
        let o = VASTMapping.playOptions(PlayOptions(), ad: ad, media: ad.linear.mediaFiles[0], context: c)
        XCTAssertEqual(o.link, "https://shop.example/?ph=[ADPLAYHEAD]&cb=76543210&a=https%3A%2F%2Fc.example%2Fa.mp4")
        XCTAssertTrue(o.linkPlayhead)
        var opening = o
        opening.openLinks = true
        let run = SessionRun(SessionConfig.video(durationMs: 10_000, options: opening))
        run.send(.firstFrame, at: 100)
        let actions = run.send(.control(.click), at: 1600)
        let expanded = "https://shop.example/?ph=00%3A00%3A01.500&cb=76543210&a=https%3A%2F%2Fc.example%2Fa.mp4"
        XCTAssertTrue(actions.contains(.openLink(expanded)), "\(actions)")
        XCTAssertEqual(run.only("click")?["link"], .string(expanded), "no literal [ADPLAYHEAD] opened")
    }

    func tracker(_ ad: ResolvedAd, followsFocus: Bool = true) -> VASTTracker {
        VASTTracker(ad: ad, context: MacroContext(timestamp: Date(), cacheBusting: "", deviceUA: "ua"), followsFocus: followsFocus)
    }

    func names(_ t: inout VASTTracker, _ e: AdEvent) -> [String] {
        t.batches(for: e, at: Date()) { "00000000" }.map(\.event)
    }

    func ticked(_ t: inout VASTTracker, atMs ms: Int) -> [String] {
        t.tick(atMs: ms, at: Date()) { "00000000" }.map(\.event)
    }

    func testEachVerificationIsToldOnceItCannotRunWithReason2() throws {
        var i = inline()
        i.verifications = [
            VASTVerification(vendor: "v1", notExecuted: ["https://v1.example/ne?r=[REASON]"]), VASTVerification(vendor: "v2")
        ]
        var t = tracker(try VASTChain(maxWrappers: 5).merged(inline: i, reach: .any))
        let first = t.batches(for: AdEvent(.firstFrame(fallback: false), tMs: 0), at: Date()) { "00000000" }
        XCTAssertEqual(first.first { $0.event == "verificationNotExecuted" }?.urls, ["https://v1.example/ne?r=2"])
        XCTAssertEqual(names(&t, AdEvent(.firstFrame(fallback: false), tMs: 10)), [], "once")
    }

    func viewableAd() throws -> ResolvedAd {
        var i = inline()
        i.viewable.viewable = ["https://t.example/v"]; i.viewable.notViewable = ["https://t.example/nv"];
        i.viewable.undetermined = ["https://t.example/vu"]
        return try VASTChain(maxWrappers: 5).merged(inline: i, reach: .any)
    }

    func testViewableAfterTwoContinuousSecondsShownFocusedAndUnpaused() throws {
        var t = tracker(try viewableAd())
        _ = names(
            &t,
            AdEvent(
                .window(WindowOpened(width: 640, height: 360, fullscreen: false, videoDriver: "x11", renderer: "software", rotate: 0)),
                tMs: 0))
        _ = names(&t, AdEvent(.firstFrame(fallback: false), tMs: 1000))
        XCTAssertEqual(t.viewableDueMs, 3000)
        // A focus loss at 1.5 s breaks the run: the two seconds start again at the resume.
        _ = names(&t, AdEvent(.pause(reason: .focusLost, shownMs: 1500), tMs: 2500))
        XCTAssertNil(t.viewableDueMs)
        _ = names(&t, AdEvent(.resume(reason: .focusLost, shownMs: 1500), tMs: 4000))
        XCTAssertEqual(ticked(&t, atMs: 5999), [])
        XCTAssertEqual(ticked(&t, atMs: 6000), ["Viewable"])
        XCTAssertEqual(names(&t, AdEvent(.end(RunEnd(outcome: .completed, shownMs: 6500)), tMs: 9000)), [], "decided once")
    }

    func testNotViewableWhenItEndsFirstAndUndeterminedWithoutARealDisplay() throws {
        var short = tracker(try viewableAd())
        _ = names(&short, AdEvent(.firstFrame(fallback: false), tMs: 0))
        XCTAssertEqual(names(&short, AdEvent(.end(RunEnd(outcome: .skipped, shownMs: 1500)), tMs: 1500)), ["NotViewable"])
        var dummy = tracker(try viewableAd())
        _ = names(
            &dummy,
            AdEvent(
                .window(WindowOpened(width: 640, height: 360, fullscreen: false, videoDriver: "dummy", renderer: "software", rotate: 0)),
                tMs: 0))
        XCTAssertEqual(
            names(&dummy, AdEvent(.firstFrame(fallback: false), tMs: 10)).filter { $0.hasPrefix("View") || $0.hasPrefix("NotView") },
            ["ViewUndetermined"])
        var blind = tracker(try viewableAd(), followsFocus: false)
        XCTAssertTrue(
            names(&blind, AdEvent(.firstFrame(fallback: false), tMs: 10)).contains("ViewUndetermined"),
            "--no-pause-on-blur: focus is not followed")
    }
}
