import Foundation
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdTestSupport
import XCTest

/// `"type": "vast"` ads in the manifest: resolved and cached by the refresh, shown from the
/// cache, their beacons through the outbox; nginx serves the tag, the media and /track/.
final class ManifestVASTTests: ServerStateTestCase {
    /// Serves a one-second clip, a tag for it and a manifest naming the tag; returns the clip's bytes.
    @discardableResult
    func publish(events: [String], end: String = "", expires: Int? = nil) throws -> Data {
        let base = server.nginx.base
        let clip = try Data(contentsOf: URL(fileURLWithPath: try Fixtures.colourBars(seconds: 1, audio: false)))
        try server.nginx.put("clip.mp4", clip)
        try server.nginx.put(
            "tag.xml",
            Data(
                VASTTags.document([
                    VASTTags.inlineAd(
                        id: "v1", track: "\(base)/track", media: [VASTTags.mediaFile("\(base)/clip.mp4")], events: events,
                        duration: "00:00:01", expires: expires)
                ]).utf8))
        try server.nginx.put("manifest.json", Data(#"{"ads": [{"id": "v1", "type": "vast", "vast": "tag.xml"\#(end)}]}"#.utf8))
        return clip
    }

    func prefetch() throws -> Launchad.Run {
        try Launchad.run([
            "prefetch", "--manifest", server.manifestURL, "--cache", cache.path, "--size", "320x240",
            "--state", state.path, "--retries", "0", "--beacon-wait", "5"
        ])
    }

    func testAVASTAdIsCachedShownOfflineAndItsImpressionSentWhenTheNetworkReturns() throws {
        let clip = try publish(events: ["start", "complete"])
        let fetched = try prefetch()
        XCTAssertEqual(fetched.status, 0, fetched.stdout + fetched.stderr)
        let objects = try FileManager.default.contentsOfDirectory(atPath: cache.appendingPathComponent("objects").path)
        XCTAssertEqual(objects, ["\(SHA256.hex(of: clip)).mp4"])

        server.nginx.stop()
        let run = try Launchad.run([
            "launch", "--manifest", server.manifestURL, "--cache", cache.path, "--state", state.path,
            "--size", "320x240", "--transition", "none", "--retries", "0", "--beacon-wait", "1",
            "--refresh-timeout", "1"
        ])
        XCTAssertEqual(run.events(named: "cache_hit").first?["id"] as? String, "v1", run.stdout)
        XCTAssertEqual(run.events.last?["outcome"] as? String, "completed", run.stdout)
        XCTAssertEqual(run.events(named: "skip").count, 0)
        XCTAssertEqual(server.nginx.tracked, [])

        try server.nginx.start()
        XCTAssertEqual(try Launchad.run(["outbox", "flush", "--state", state.path]).status, 0)
        let got = server.nginx.tracked
        XCTAssertEqual(got.map { String($0.split(separator: "?")[0]) }, ["/track/v1/impression", "/track/v1/start", "/track/v1/complete"])
        let asset = "asset=" + MacroExpander.encode("\(server.nginx.base)/clip.mp4")
        XCTAssertTrue(got[0].contains(asset) && got[0].contains("size=320%2C240"), got[0])
    }

    func testAnExpiredVASTAdThatWasNeverShownFiresNotUsedOnce() throws {
        let end = Int(Date().timeIntervalSince1970) + 3
        try publish(events: ["start", "notUsed"], end: #", "end": \#(end)"#)
        XCTAssertEqual(try prefetch().status, 0)
        XCTAssertEqual(server.nginx.tracked, [])
        Thread.sleep(until: Date(timeIntervalSince1970: Double(end) + 0.5))  // time is the behaviour: past the ad's end
        let expired = try prefetch()
        XCTAssertEqual(expired.events(named: "evicted").first?["reason"] as? String, "expired", expired.stdout)
        _ = try prefetch()
        XCTAssertEqual(server.nginx.tracked.map { String($0.split(separator: "?")[0]) }, ["/track/v1/notUsed"])
    }

    /// A launch from the cache with the network cut (so the background refresh cannot fetch the tag again).
    func launchOffline() throws -> Launchad.Run {
        server.nginx.stop()
        return try Launchad.run([
            "launch", "--manifest", server.manifestURL, "--cache", cache.path, "--state", state.path,
            "--size", "320x240", "--transition", "none", "--retries", "0", "--beacon-wait", "1",
            "--refresh-timeout", "1", "--wait", "1"
        ])
    }

    /// After `<Expires>` the ad server no longer fills the tag, so the refresh keeps the old response.
    func refreshWithTheTagEmpty() throws -> Launchad.Run {
        try server.nginx.start()
        try server.nginx.put("tag.xml", Data(#"<VAST version="4.2"></VAST>"#.utf8))
        return try prefetch()
    }

    func indexExpiry() throws -> Date? {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let index = try decoder.decode(CacheIndex.self, from: Data(contentsOf: cache.appendingPathComponent("index.json")))
        return index.record(for: "v1")?.ad.expiresAt
    }

    func testAVASTAdPastItsExpiresIsNotShownAndTheRefreshEvictsItFiringNotUsedOnce() throws {
        try publish(events: ["start", "notUsed"], expires: 2)
        let fetchedAt = Date()
        XCTAssertEqual(try prefetch().status, 0)
        let expiry = try XCTUnwrap(try indexExpiry(), "the index record keeps the tag's expiry")
        XCTAssertEqual(expiry.timeIntervalSince(fetchedAt), 2, accuracy: 1.5)
        Thread.sleep(until: expiry.addingTimeInterval(0.3))  // time is the behaviour: past the tag's expiry

        let late = try launchOffline()
        XCTAssertEqual(late.status, 3, late.stdout + late.stderr)
        XCTAssertEqual(late.events(named: "cache_hit").count, 0, late.stdout)
        XCTAssertEqual(late.events(named: "cache_miss").first?["reason"] as? String, "nothing_ready", late.stdout)
        XCTAssertEqual(late.events.last?["outcome"] as? String, "no_ad", late.stdout)

        let refresh = try refreshWithTheTagEmpty()
        XCTAssertEqual(refresh.events(named: "evicted").map { $0["reason"] as? String }, ["expired"], refresh.stdout)
        XCTAssertEqual(refresh.events(named: "evicted").first?["id"] as? String, "v1")
        XCTAssertNil(try indexExpiry(), "the expired ad left the index")
        _ = try prefetch()
        XCTAssertEqual(try Launchad.run(["outbox", "flush", "--state", state.path]).status, 0)
        XCTAssertEqual(
            server.nginx.tracked.map { String($0.split(separator: "?")[0]) }, ["/track/v1/notUsed"],
            "notUsed once, nothing else (the empty tag has no Error URI)")
    }

    func testAVASTAdIsShownInsideItsExpiresAndAShownAdFiresNoNotUsed() throws {
        // 4 s: the prefetch's end and the launch's start on a loaded machine fit inside it (the
        // index keeps whole seconds, so 2 s left as little as 1 s for them).
        try publish(events: ["start", "notUsed"], expires: 4)
        XCTAssertEqual(try prefetch().status, 0)
        let expiry = try XCTUnwrap(try indexExpiry())
        let began = Date()
        let shown = try launchOffline()
        XCTAssertLessThan(began, expiry, "the launch began inside the window")
        XCTAssertEqual(shown.events(named: "cache_hit").first?["id"] as? String, "v1", shown.stdout)
        XCTAssertEqual(shown.events.last?["outcome"] as? String, "completed", shown.stdout)

        Thread.sleep(until: expiry.addingTimeInterval(0.3))  // time is the behaviour: past the tag's expiry
        let late = try launchOffline()
        XCTAssertEqual(late.events(named: "cache_hit").count, 0, late.stdout)
        XCTAssertEqual(late.events.last?["outcome"] as? String, "no_ad", late.stdout)
        let refresh = try refreshWithTheTagEmpty()
        XCTAssertEqual(refresh.events(named: "evicted").first?["reason"] as? String, "expired", refresh.stdout)
        XCTAssertEqual(try Launchad.run(["outbox", "flush", "--state", state.path]).status, 0)
        XCTAssertFalse(server.nginx.tracked.contains { $0.hasPrefix("/track/v1/notUsed") }, "a shown ad is used")
    }

    func testABrokenTagIsRejectedInOneLineAndFiresItsErrorURI() throws {
        let base = server.nginx.base
        try server.nginx.put(
            "tag.xml",
            Data(
                VASTTags.document([
                    VASTTags.inlineAd(
                        id: "v1", track: "\(base)/track", media: [VASTTags.mediaFile("\(base)/missing.mp4")], events: ["start"])
                ]).utf8))
        try server.nginx.put("manifest.json", Data(#"{"ads": [{"id": "v1", "type": "vast", "vast": "tag.xml"}]}"#.utf8))
        let run = try prefetch()
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.stderr, "launchad: v1: VAST: HTTP 404 for \(base)/missing.mp4\n")
        XCTAssertEqual(server.nginx.tracked, ["/track/v1/error?code=401"], "the tag's Error URI, with the code, through the outbox")

        // A media file that is not media: chosen by its attributes, then not displayable (405).
        try server.nginx.put("missing.mp4", Data("not a video".utf8))
        let bad = try prefetch()
        XCTAssertTrue(bad.stderr.hasPrefix("launchad: v1: VAST: the media file missing.mp4 does not open: "), bad.stderr)
        XCTAssertEqual(bad.stderr.split(separator: "\n").count, 1)
        XCTAssertEqual(server.nginx.tracked.last, "/track/v1/error?code=405")
        let objects = (try? FileManager.default.contentsOfDirectory(atPath: cache.appendingPathComponent("objects").path)) ?? []
        XCTAssertEqual(objects, [], "nothing that does not open is ever cached")
    }

    /// Attributes are hints: the preferred file (codec="H.264", the smallest covering the screen)
    /// is not media, so the next candidate is cached; no Error URI is sent.
    func testAMediaFileThatDoesNotOpenGivesWayToTheNextCandidate() throws {
        let base = server.nginx.base
        let clip = try Data(contentsOf: URL(fileURLWithPath: try Fixtures.colourBars(seconds: 1, audio: false)))
        try server.nginx.put("clip.mp4", clip)
        try server.nginx.put("fake.mp4", Data("not a video".utf8))
        let files = [
            VASTTags.mediaFile("\(base)/clip.mp4", width: 640, height: 480),
            VASTTags.mediaFile("\(base)/fake.mp4", extra: #"codec="H.264""#)
        ]
        try server.nginx.put(
            "tag.xml", Data(VASTTags.document([VASTTags.inlineAd(id: "v1", track: "\(base)/track", media: files, events: ["start"])]).utf8))
        try server.nginx.put("manifest.json", Data(#"{"ads": [{"id": "v1", "type": "vast", "vast": "tag.xml"}]}"#.utf8))
        let run = try prefetch()
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        let objects = try FileManager.default.contentsOfDirectory(atPath: cache.appendingPathComponent("objects").path)
        XCTAssertEqual(objects, ["\(SHA256.hex(of: clip)).mp4"])
        XCTAssertEqual(server.nginx.tracked, [], "no Error URI for a candidate that gave way")
    }

    /// Issue 20: a tag nested 100,000 deep (700 kB) is rejected in one line by the refresh, its
    /// process unharmed (it used to overflow the stack freeing the tree).
    func testADeeplyNestedTagIsRejectedNotACrash() throws {
        try server.nginx.put(
            "tag.xml",
            Data(
                ("<VAST version=\"4.0\">" + String(repeating: "<a>", count: 100_000)
                    + String(repeating: "</a>", count: 100_000) + "</VAST>").utf8))
        try server.nginx.put("manifest.json", Data(#"{"ads": [{"id": "v1", "type": "vast", "vast": "tag.xml"}]}"#.utf8))
        let run = try prefetch()
        XCTAssertEqual(run.status, 1, run.stdout + run.stderr)
        XCTAssertTrue(run.stderr.hasPrefix("launchad: v1: VAST: 100 elements nested deeper than 64"), run.stderr)
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1)
    }

    /// One bad ad fails alone in a refresh too: the next ad of the response is cached, the bad
    /// one's Error URI told with 101.
    func testABadAdGivesWayToTheNextAdOfTheResponse() throws {
        let base = server.nginx.base
        let clip = try Data(contentsOf: URL(fileURLWithPath: try Fixtures.colourBars(seconds: 1, audio: false)))
        try server.nginx.put("clip.mp4", clip)
        let media = [VASTTags.mediaFile("\(base)/clip.mp4")]
        try server.nginx.put(
            "tag.xml",
            Data(
                VASTTags.document([
                    VASTTags.inlineAd(id: "bad", track: "\(base)/track", media: media, sequence: 1, events: [], duration: "soon"),
                    VASTTags.inlineAd(id: "good", track: "\(base)/track", media: media, events: [])
                ]).utf8))
        try server.nginx.put("manifest.json", Data(#"{"ads": [{"id": "v1", "type": "vast", "vast": "tag.xml"}]}"#.utf8))
        let run = try prefetch()
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        let objects = try FileManager.default.contentsOfDirectory(atPath: cache.appendingPathComponent("objects").path)
        XCTAssertEqual(objects, ["\(SHA256.hex(of: clip)).mp4"])
        // Room for a loaded machine: the wait ends as soon as the beacon is in nginx's log.
        Wait.until(timeout: 20) { !server.nginx.tracked.isEmpty }
        XCTAssertEqual(server.nginx.tracked, ["/track/bad/error?code=101"])
    }
}
