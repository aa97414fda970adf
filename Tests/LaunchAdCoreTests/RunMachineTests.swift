import Foundation
import LaunchAdCore
import XCTest

/// The run's decisions taken from typed results, in-process: a VAST pod and its media files'
/// fall-through, and launch's end, frequency-cap count, manifest options and exit status.
final class VASTRunTests: XCTestCase {
    private func ad(_ id: String, sequence: Int? = nil) -> VASTAd {
        var a = VASTAd(id: id)
        a.sequence = sequence
        a.linear = VASTLinear()
        return a
    }

    private func played(_ outcome: Outcome, shownMs: Int = 1000, closed: Bool = false) -> PlayResult {
        PlayResult(end: RunEnd(outcome: outcome, shownMs: shownMs), error: nil, adShownAtMs: 10, closed: closed, gaveWay: false)
    }

    private func gaveWay(_ code: FailureCode) -> PlayResult {
        PlayResult(
            end: RunEnd(outcome: .noAd, shownMs: 0), error: PlayError(code, "cannot open"), adShownAtMs: nil, closed: false, gaveWay: true)
    }

    private func plan(_ ads: [VASTAd]) -> VASTAdPlan { VASTAdPlan(VASTDocument(version: "4.2", ads: ads, errors: [], notes: [])) }

    func testAPodPlaysInSequenceAndEndsWithTheLastOutcomeAndTheShownTime() {
        var run = VASTRun(plan([ad("b", sequence: 2), ad("a", sequence: 1)]))
        XCTAssertEqual(run.nextAd()?.id, "a")
        XCTAssertEqual(
            run.tried("m1", result: played(.completed, shownMs: 4000), adID: "a", sequence: 1),
            .played(.adEnd(adID: "a", sequence: 1, end: RunEnd(outcome: .completed, shownMs: 4000))))
        XCTAssertEqual(run.nextAd()?.id, "b")
        _ = run.tried("m2", result: played(.skipped, shownMs: 2500), adID: "b", sequence: 2)
        XCTAssertNil(run.nextAd())
        XCTAssertEqual(run.ending(hasFallback: true), .end(RunEnd(outcome: .skipped, shownMs: 6500, adsPlayed: 2)))
    }

    func testAMediaFileThatDoesNotOpenGivesWayToTheNextCandidateOnly() {
        var run = VASTRun(plan([ad("a")]))
        _ = run.nextAd()
        var candidates = VASTRun.Candidates([VASTMediaFile(url: "m1"), VASTMediaFile(url: "m2")])
        let first = candidates.next()
        XCTAssertEqual(first?.file.url, "m1")
        XCTAssertEqual(first?.givesWay, true)
        XCTAssertEqual(
            run.tried("m1", result: gaveWay(.notMedia), adID: "a", sequence: nil),
            .tryNext(.mediaFallback(media: "m1", code: .notMedia, message: "cannot open")))
        let second = candidates.next()
        XCTAssertEqual(second?.givesWay, false, "the last candidate reports its own failure")
        XCTAssertNil(candidates.next())
        XCTAssertEqual(run.adsPlayed, 0)
    }

    func testAnAdWhoseFirstFrameNeverCameFailsWith405AndTheBuffetStandsIn() {
        let standIn = ad("s")
        var run = VASTRun(plan([ad("a", sequence: 1), standIn]))
        XCTAssertEqual(run.nextAd()?.id, "a")
        let late = played(.timeout, shownMs: 0)
        XCTAssertEqual(
            run.tried("m", result: late, adID: "a", sequence: 1), .failed(.adEnd(adID: "a", sequence: 1, end: late.end)))
        XCTAssertEqual(run.lastError?.code, 405)
        XCTAssertEqual(run.nextAd()?.id, "s", "a buffet ad takes the failed slot")
    }

    func testAClickAClosedWindowOrAnErrorStopsThePod() {
        for result in [played(.clicked), played(.skipped, closed: true), played(.error), played(.endedByHost)] {
            var run = VASTRun(plan([ad("a", sequence: 1), ad("b", sequence: 2)]))
            _ = run.nextAd()
            _ = run.tried("m", result: result, adID: "a", sequence: 1)
            XCTAssertNil(run.nextAd(), "\(result)")
        }
    }

    func testNothingPlayedEndsNoAdOrShowsTheFallbackWithTheLastVASTError() {
        var run = VASTRun(plan([ad("a")]))
        _ = run.nextAd()
        run.adFailed(VASTError(VASTError.noSupportedMedia, "no media"))
        XCTAssertNil(run.nextAd())
        XCTAssertEqual(run.ending(hasFallback: false), .end(RunEnd(outcome: .noAd, shownMs: 0)))
        XCTAssertEqual(run.ending(hasFallback: true), .fallback(.error(.vast(403))))
        XCTAssertEqual(VASTRun.noAdEnding(nil, hasFallback: true), .fallback(.noAd))
    }

    func testAWrapperThatFindsNothingWithFallbackOnNoAdFalseStopsTheRun() {
        var run = VASTRun(plan([ad("a"), ad("b")]))
        _ = run.nextAd()
        run.adFailed(VASTError(VASTError.noAd, "empty"), stopRun: true)
        XCTAssertNil(run.nextAd())
    }
}

final class LaunchRunTests: XCTestCase {
    private func result(_ outcome: Outcome, shownAt: Int? = 100) -> PlayResult {
        PlayResult(end: RunEnd(outcome: outcome, shownMs: 900), error: nil, adShownAtMs: shownAt, closed: false, gaveWay: false)
    }

    func testAStreamedCreativeThatCameTooLateIsNoAdCreativeLate() {
        XCTAssertEqual(
            LaunchRun.end(.played(result(.timeout), adID: "a", streamed: true)),
            RunEnd(outcome: .noAd, shownMs: 900, reason: .creativeLate))
        XCTAssertEqual(LaunchRun.end(.played(result(.timeout), adID: "a", streamed: false)).outcome, .timeout, "a cached one is just late")
        XCTAssertEqual(LaunchRun.end(.played(result(.completed), adID: "a", streamed: true)).outcome, .completed)
        XCTAssertEqual(LaunchRun.end(.noAd(.noManifest)), RunEnd(outcome: .noAd, reason: .noManifest))
    }

    func testOnlyTheAdItselfOnScreenCountsForTheFrequencyCaps() {
        let now = Date(timeIntervalSince1970: 1000)
        let counted = LaunchRun.countedPlay(.played(result(.completed, shownAt: 500), adID: "a", streamed: false), nowMs: 1500, now: now)
        XCTAssertEqual(counted?.adID, "a")
        XCTAssertEqual(counted?.at, Date(timeIntervalSince1970: 999), "when its first frame was on screen")
        XCTAssertNil(LaunchRun.countedPlay(.played(result(.completed, shownAt: nil), adID: "a", streamed: false), nowMs: 1, now: now))
        XCTAssertNil(LaunchRun.countedPlay(.noAd(.nothingScheduled), nowMs: 1, now: now))
    }

    func testTheExitStatusIsTheAppsWhenThereIsOne() {
        let done = LaunchRun.Shown.played(result(.completed), adID: "a", streamed: false)
        let none = LaunchRun.Shown.noAd(.nothingScheduled)
        let broken = LaunchRun.Shown.failed(PlayError(.libraryMissing, "cannot load libavformat.so.59"))
        XCTAssertEqual(LaunchRun.exitStatus(done, appGiven: true, appStatus: 42, cacheRefused: false), 42)
        XCTAssertEqual(LaunchRun.exitStatus(broken, appGiven: true, appStatus: 0, cacheRefused: false), 0, "the app starts all the same")
        XCTAssertEqual(LaunchRun.exitStatus(done, appGiven: true, appStatus: nil, cacheRefused: false), 127, "the app could not start")
        XCTAssertEqual(LaunchRun.exitStatus(done, appGiven: false, appStatus: nil, cacheRefused: false), 0)
        XCTAssertEqual(LaunchRun.exitStatus(none, appGiven: false, appStatus: nil, cacheRefused: false), 3)
        XCTAssertEqual(LaunchRun.exitStatus(none, appGiven: false, appStatus: nil, cacheRefused: true), 2)
        XCTAssertEqual(LaunchRun.exitStatus(broken, appGiven: false, appStatus: nil, cacheRefused: false), 127)
        XCTAssertEqual(LaunchRun.end(broken), RunEnd(outcome: .error))
    }

    func testTheManifestsAdSetsItsOwnOptionsOnTopOfTheCommandLine() throws {
        let json = """
            {"ads": [{"id": "a", "type": "video", "duration": 4, "skip_after": 2, "link": "https://adv.example/",
              "layout": "fullscreen",
              "variants": [{"url": "https://c.example/a.mp4", "width": 720, "height": 1280, "bytes": 10,
                            "sha256": "\(String(repeating: "a", count: 64))"}]}]}
            """
        let parsed = try ManifestParser.parse(
            Data(json.utf8), base: URL(string: "https://c.example/m.json")!, budget: ManifestParser.budget(maxBytes: 1 << 20, seconds: 5))
        XCTAssertEqual(parsed.rejected, [])
        let manifest = parsed.manifest
        let entry = try XCTUnwrap(manifest.ads.first)
        let choice = AdChoice(ad: entry, variant: entry.variants[0], fallback: nil)
        var base = PlayOptions()
        base.layout = .logoBottom
        let p = LaunchRun.options(base, for: choice, file: "/c/a", fallback: nil, handsOff: true)
        XCTAssertEqual(p.file, "/c/a")
        XCTAssertEqual(p.maxDuration, 4, "a video's duration caps it")
        XCTAssertEqual(p.imageDuration, 4)
        XCTAssertEqual(p.skipAfter, 2)
        XCTAssertEqual(p.link, "https://adv.example/")
        XCTAssertEqual(p.layout, .fullscreen)
        XCTAssertEqual(p.transition, .none, "the app takes over from the last picture")
    }
}
