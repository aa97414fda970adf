import LaunchAdCore
import LaunchAdDelivery
import LaunchAdTestSupport
import XCTest

/// A scripted network: a response (or error) per URL, every request remembered.
final class FakeFetcher: Fetcher, @unchecked Sendable {
    enum Reply { case body(Int, Data, [String: String]), fail(FetchError) }
    private let lock = NSLock()
    var replies: [String: [Reply]] = [:]
    private(set) var requests: [FetchRequest] = []
    /// The reach every answer's document gives what it names (as if from a public address when `.publicOnly`).
    var namedReach = Reach.any

    /// Replies in turn; the last one repeats.
    func set(_ url: String, _ replies: Reply...) { lock.lock(); self.replies[url] = replies; lock.unlock() }

    func fetch(_ request: FetchRequest, progress: ((Int64) -> Void)?) throws -> FetchResponse {
        lock.lock()
        requests.append(request)
        let queue = replies[request.url.absoluteString] ?? [.body(404, Data(), [:])]
        let reply = queue[0]
        if queue.count > 1 { replies[request.url.absoluteString] = Array(queue.dropFirst()) }
        lock.unlock()
        switch reply {
        case .fail(let e): throw e
        case .body(let status, let data, let headers):
            if status == 200, let etag = headers["etag"], request.headers["If-None-Match"] == etag {
                return FetchResponse(status: 304, headers: headers, namedReach: namedReach)
            }
            guard data.count <= request.maxBytes else {
                throw FetchError(
                    "\(request.url.lastPathComponent) is over the \(request.maxBytes)-byte limit", retryable: false, tooLarge: true)
            }
            if let dest = request.destination { try data.write(to: dest) }
            progress?(Int64(data.count))
            return FetchResponse(
                status: status, headers: headers, body: request.destination == nil ? data : Data(), bytes: Int64(data.count),
                namedReach: namedReach)
        }
    }

    func urls() -> [String] { lock.lock(); defer { lock.unlock() }; return requests.map(\.url.absoluteString) }
}

final class PrefetchTests: XCTestCase {
    let manifestURL = "https://ads.example.com/manifest.json"
    let now = Date(timeIntervalSince1970: 1_795_000_000)
    var dir: URL!
    var store: CacheStore!
    var net: FakeFetcher!
    var sink: RecordingSink!

    override func setUpWithError() throws {
        dir = try makeTempDir("prefetch")
        store = try CacheStore(directory: dir)
        net = FakeFetcher()
        sink = RecordingSink()
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    struct Ad {
        var id: String
        var body: Data
        var priority = 0
        var extra = ""
        var declaredSha: String? = nil
        var name: String { "\(id).mp4" }
        var json: String {
            #"{"id": "\#(id)", "type": "video", "priority": \#(priority), \#(extra) "variants": [{"url": "\#(name)", "width": 720, "height": 1280, "bytes": \#(body.count), "sha256": "\#(declaredSha ?? SHA256.hex(of: body))"}]}"#
        }
    }

    func serve(_ ads: [Ad], etag: String? = nil) {
        let manifest = #"{"ads": ["# + ads.map(\.json).joined(separator: ",") + "]}"
        net.set(manifestURL, .body(200, Data(manifest.utf8), etag.map { ["etag": $0] } ?? [:]))
        for ad in ads { net.set("https://ads.example.com/\(ad.name)", .body(200, ad.body, [:])) }
    }

    @discardableResult
    func prefetch(limit: Int64 = 1_000_000, at time: Date? = nil, retries: Int = 0) -> PrefetchReport {
        let config = PrefetchConfig(manifestURL: URL(string: manifestURL)!, screen: Size(width: 720, height: 1280), cacheLimit: limit)
        return Prefetcher(
            store: store, fetcher: RetryingFetcher(net, retries: retries, backoff: 0), sink: sink, config: config,
            now: { [now] in time ?? now }
        ).run()
    }

    func events(_ name: String) -> [AdEvent] { sink.events.filter { $0.name == name } }
    func objects() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("objects").path)) ?? []).sorted()
    }
    func shown() -> String? {
        let index = store.readIndex()
        return AdSelector.choose(from: index.ads.map(\.ad), now: now, screen: Size(width: 720, height: 1280)) {
            store.isAvailable($0, in: index)
        }?.ad.id
    }

    let v1 = Data("version one".utf8), v2 = Data("version two!".utf8)

    /// A manifest's play-record collector is named by the manifest: from a public address it may
    /// not be at an internal one (a public manifest's `"report": {"url": "http://127.0.0.1:..."}`
    /// made every launch POST its records to loopback). The reach is kept with the cached record,
    /// and a 304 gives a record kept from before collectors had one the manifest's.
    func testAManifestsCollectorIsHeldToTheManifestsReach() throws {
        let manifest = #"{"report": {"url": "http://127.0.0.1:9/pop", "batch": 5}, "ads": []}"#
        net.set(manifestURL, .body(200, Data(manifest.utf8), ["etag": "\"m1\""]))
        net.namedReach = .publicOnly
        prefetch()
        XCTAssertEqual(store.readIndex().manifest?.report?.url, "http://127.0.0.1:9/pop")
        XCTAssertEqual(store.readIndex().manifest?.report?.reach, .publicOnly)
        // The same manifest from an internal address (a lab), answered 304: the collector may be inside.
        net.namedReach = .any
        prefetch()
        XCTAssertEqual(events("not_modified").count, 1)
        XCTAssertEqual(store.readIndex().manifest?.report?.reach, .any)
        // A record written before collectors had a reach is public-only until the next refresh.
        let old = try JSONDecoder().decode(ReportTarget.self, from: Data(#"{"url": "http://127.0.0.1:9/pop", "batch": 5}"#.utf8))
        XCTAssertEqual(old.reach, .publicOnly)
    }

    func testFirstPrefetchDownloadsVerifiesAndRecords() {
        serve([Ad(id: "sale", body: v1)])
        let report = prefetch()
        XCTAssertTrue(report.ok)
        XCTAssertEqual(sink.events.map(\.name), ["prefetch_start", "download", "prefetch_done"])
        XCTAssertEqual(events("download").first?["id"], "sale")
        XCTAssertEqual(events("download").first?["bytes"], .int(v1.count))
        XCTAssertEqual(objects(), ["\(SHA256.hex(of: v1)).mp4"])
        XCTAssertEqual(shown(), "sale")
        XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent("manifest.json")).isEmpty, false)
    }

    func testUnchangedManifestIsNotDownloadedAgain() {
        serve([Ad(id: "sale", body: v1)], etag: "\"m1\"")
        prefetch()
        let before = net.urls().count
        prefetch()
        XCTAssertEqual(net.requests.last?.headers["If-None-Match"], "\"m1\"")
        XCTAssertEqual(net.urls().count, before + 1, "only the manifest was asked for")
        XCTAssertEqual(events("not_modified").count, 1)
        XCTAssertEqual(events("download").count, 1)
        XCTAssertEqual(shown(), "sale")
    }

    func testAChangedCreativeReplacesTheOldOne() {
        serve([Ad(id: "sale", body: v1)])
        prefetch()
        serve([Ad(id: "sale", body: v2)])
        prefetch()
        XCTAssertEqual(objects(), ["\(SHA256.hex(of: v2)).mp4"])
        XCTAssertEqual(events("evicted").last?["reason"], "replaced")
        XCTAssertEqual(store.readIndex().record(for: "sale")?.ad.variants[0].sha256, SHA256.hex(of: v2))
    }

    /// A server that sends other bytes than the manifest describes: rejected, and the version
    /// cached before stays whole and is still the one shown.
    func testChecksumMismatchKeepsThePreviousVersion() throws {
        serve([Ad(id: "sale", body: v1)])
        prefetch()
        let old = try Data(contentsOf: dir.appendingPathComponent("objects/\(SHA256.hex(of: v1)).mp4"))
        serve([Ad(id: "sale", body: v2, declaredSha: SHA256.hex(of: Data("something else".utf8)))])
        let report = prefetch()
        XCTAssertFalse(report.ok)
        XCTAssertEqual(report.failed, 1)
        XCTAssertEqual(events("rejected").last?["reason"], "sha256 mismatch: the file is not the one the manifest describes")
        XCTAssertEqual(objects(), ["\(SHA256.hex(of: v1)).mp4"])
        XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent("objects/\(SHA256.hex(of: v1)).mp4")), old)
        XCTAssertEqual(shown(), "sale")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("tmp").path), [],
            "the failed download is gone")
    }

    func testTruncatedAndOversizedDownloadsAreRejected() {
        serve([Ad(id: "sale", body: v1)])
        net.set("https://ads.example.com/sale.mp4", .body(200, v1.prefix(4), [:]))
        prefetch()
        XCTAssertEqual(events("rejected").last?["reason"], .string("size mismatch: got 4 bytes, the manifest says \(v1.count)"))
        net.set("https://ads.example.com/sale.mp4", .body(200, v1 + Data(count: 100), [:]))
        prefetch()
        XCTAssertEqual(events("rejected").last?["reason"], .string("sale.mp4 is over the \(v1.count + 1)-byte limit"))
        XCTAssertEqual(objects(), [])
        XCTAssertNil(shown())
    }

    /// The manifest cannot be had: nothing cached is touched.
    func testManifestFailuresLeaveTheCacheAlone() throws {
        serve([Ad(id: "sale", body: v1)])
        prefetch()
        let index = try Data(contentsOf: dir.appendingPathComponent("index.json"))
        let failures: [(FakeFetcher.Reply, String)] = [
            (.body(500, Data(), [:]), "HTTP 500 for the manifest \(manifestURL)"),
            (.body(404, Data(), [:]), "HTTP 404 for the manifest \(manifestURL)"),
            (.fail(FetchError("timed out: \(manifestURL)", retryable: true)), "timed out: \(manifestURL)"),
            (.body(200, Data("{\"ads\": 3}".utf8), [:]), "manifest has no \"ads\" array"),
            (.body(200, Data("<html>".utf8), [:]), "manifest is not valid JSON")
        ]
        for (reply, reason) in failures {
            net.set(manifestURL, reply)
            let report = prefetch()
            XCTAssertFalse(report.ok)
            XCTAssertEqual(events("rejected").last?["id"], "manifest")
            XCTAssertEqual(events("rejected").last?["reason"], .string(reason))
            XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent("index.json")), index, reason)
            XCTAssertEqual(shown(), "sale", reason)
        }
    }

    func testRetriesTransientFailures() {
        serve([Ad(id: "sale", body: v1)])
        net.set(
            "https://ads.example.com/sale.mp4", .body(503, Data(), [:]), .fail(FetchError("reset", retryable: true)), .body(200, v1, [:]))
        XCTAssertTrue(prefetch(retries: 2).ok)
        XCTAssertEqual(net.urls().filter { $0.hasSuffix("sale.mp4") }.count, 3)
        net.set(manifestURL, .body(404, Data(), [:]))
        prefetch(retries: 2)
        XCTAssertEqual(net.urls().filter { $0 == manifestURL }.count, 2, "a 404 is not retried")
    }

    func testHiddenExpiredAndRemovedAdsAreDeleted() {
        let a = Ad(id: "a", body: Data("aaa".utf8)), b = Ad(id: "b", body: Data("bbbb".utf8)), c = Ad(id: "c", body: Data("ccccc".utf8))
        serve([a, b, c])
        prefetch()
        XCTAssertEqual(objects().count, 3)
        var hiddenB = b; hiddenB.extra = #""show": false,"#
        var endedC = c; endedC.extra = #""end": "2026-11-01T00:00:00Z","#
        serve([hiddenB, endedC])
        prefetch()
        let reasons = Dictionary(uniqueKeysWithValues: events("evicted").map { ($0["id"]!.serialized(), $0["reason"]!.serialized()) })
        XCTAssertEqual(reasons, [#""a""#: #""removed""#, #""b""#: #""hidden""#, #""c""#: #""expired""#])
        XCTAssertEqual(objects(), [])
        XCTAssertEqual(store.readIndex().ads, [])
    }

    /// Over the byte limit, the least recently shown file goes first.
    func testLimitEvictsLeastRecentlyShown() throws {
        let a = Ad(id: "a", body: Data(repeating: 1, count: 400)), b = Ad(id: "b", body: Data(repeating: 2, count: 400))
        serve([a, b])
        prefetch(limit: 1000)
        try store.markShown([SHA256.hex(of: a.body)], at: now.addingTimeInterval(-10))
        try store.markShown([SHA256.hex(of: b.body)], at: now.addingTimeInterval(-5))
        let c = Ad(id: "c", body: Data(repeating: 3, count: 400))
        serve([a, b, c])
        prefetch(limit: 1000)
        XCTAssertEqual(events("evicted").map { $0["id"] }, ["a"])
        XCTAssertEqual(events("evicted").last?["reason"], "cache_limit")
        XCTAssertEqual(objects(), [SHA256.hex(of: b.body), SHA256.hex(of: c.body)].map { $0 + ".mp4" }.sorted())
        XCTAssertLessThanOrEqual(store.readIndex().totalBytes, 1000)
    }

    func testCreativesOverTheLimitsAreRejectedWithoutARequest() {
        serve([Ad(id: "big", body: Data(count: 2000))])
        prefetch(limit: 1000)
        XCTAssertEqual(events("rejected").last?["reason"], "big.mp4 is 2000 bytes, larger than the whole cache limit")
        XCTAssertFalse(net.urls().contains("https://ads.example.com/big.mp4"))
    }

    func testCreativesOverThePerCreativeCapAreRejected() {
        serve([Ad(id: "big", body: Data(count: 2000))])
        var config = PrefetchConfig(manifestURL: URL(string: manifestURL)!, screen: Size(width: 720, height: 1280))
        config.maxCreativeBytes = 1000
        Prefetcher(store: store, fetcher: net, sink: sink, config: config, now: { [now] in now }).run()
        XCTAssertEqual(events("rejected").last?["reason"], "big.mp4 is 2000 bytes, over the 1000-byte limit per creative")
        XCTAssertEqual(objects(), [])
    }

    func testBadAdsAreReportedAndGoodOnesCached() {
        let json = #"{"ads": [{"id": "broken", "type": "gif"}, "# + Ad(id: "ok", body: v1).json + "]}"
        net.set(manifestURL, .body(200, Data(json.utf8), [:]))
        net.set("https://ads.example.com/ok.mp4", .body(200, v1, [:]))
        let report = prefetch()
        XCTAssertEqual(events("rejected").map { $0["id"] }, ["broken"])
        XCTAssertEqual(shown(), "ok")
        // The manifest's own refusal is an event, not a failed refresh.
        XCTAssertTrue(report.ok)
        XCTAssertEqual([report.rejected, report.failed], [1, 0])
        XCTAssertEqual(events("prefetch_done").last?["ok"], .bool(true))
    }

    func testProtectedFilesSurviveARefresh() {
        serve([Ad(id: "sale", body: v1)])
        prefetch()
        serve([])
        let config = PrefetchConfig(manifestURL: URL(string: manifestURL)!, screen: Size(width: 720, height: 1280))
        Prefetcher(store: store, fetcher: net, sink: sink, config: config, protected: [SHA256.hex(of: v1)], now: { [now] in now }).run()
        XCTAssertEqual(objects(), ["\(SHA256.hex(of: v1)).mp4"], "the ad being shown is not deleted under the player")
    }

    /// A hidden ad's file kept because the launch was showing it is evicted by the next refresh
    /// under the ad's id and the true reason, not as `-` `replaced`.
    func testAFileKeptForTheRunningLaunchIsEvictedUnderItsAdAndReason() {
        serve([Ad(id: "sale", body: v1)])
        prefetch()
        var hidden = Ad(id: "sale", body: v1)
        hidden.extra = #""show": false,"#
        serve([hidden])
        let config = PrefetchConfig(manifestURL: URL(string: manifestURL)!, screen: Size(width: 720, height: 1280))
        Prefetcher(store: store, fetcher: net, sink: sink, config: config, protected: [SHA256.hex(of: v1)], now: { [now] in now }).run()
        XCTAssertEqual(events("evicted").count, 0, "kept under the player")
        prefetch()
        XCTAssertEqual(events("evicted").map { $0["id"] }, ["sale"])
        XCTAssertEqual(events("evicted").map { $0["reason"] }, ["hidden"])
        XCTAssertEqual(objects(), [])
    }

    func testHTTPIsRefusedExceptOnLoopback() {
        XCTAssertThrowsError(try URLPolicy.check(URL(string: "http://ads.example.com/m.json")!, allowHTTP: false)) {
            XCTAssertEqual("\($0)", "refusing plain http for ads.example.com (use https, or --allow-http)")
        }
        XCTAssertNoThrow(try URLPolicy.check(URL(string: "http://ads.example.com/m.json")!, allowHTTP: true))
        for url in ["http://127.0.0.1:8080/m.json", "http://localhost/m.json", "http://[::1]:9/m.json", "https://ads.example.com/m"] {
            XCTAssertNoThrow(try URLPolicy.check(URL(string: url)!, allowHTTP: false), url)
        }
        XCTAssertThrowsError(try URLPolicy.check(URL(string: "ftp://ads.example.com/m")!, allowHTTP: true))
    }

    /// Loopback means an address, not a name DNS could send anywhere: IPv4 literals in
    /// 127.0.0.0/8, ::1, and exactly `localhost`.
    func testOnlyRealLoopbackAddressesCountAsLoopback() {
        for url in ["http://127.1.2.3/m", "http://127.255.255.255/m", "http://[0:0:0:0:0:0:0:1]/m", "http://LOCALHOST/m"] {
            XCTAssertNoThrow(try URLPolicy.check(URL(string: url)!, allowHTTP: false), url)
        }
        for url in [
            "http://127.evil.example/m", "http://127.0.0.1.evil.example/m", "http://ads.localhost/m",
            "http://localhost.evil.example/m", "http://128.0.0.1/m", "http://127.0.0.256/m", "http://127.1/m",
            "http://0x7f.0.0.1/m", "http://[::2]/m", "http://[::ffff:127.0.0.1]/m", "http://127.0.0.01234/m"
        ] {
            XCTAssertThrowsError(try URLPolicy.check(URL(string: url)!, allowHTTP: false), url) {
                XCTAssertTrue("\($0)".hasPrefix("refusing plain http for "), "\($0)")
            }
        }
    }

    /// A lost index costs no download: the files on disk are verified and taken back.
    func testALostIndexIsRebuiltFromTheFilesOnDisk() throws {
        serve([Ad(id: "sale", body: v1)])
        prefetch()
        try Data("garbage".utf8).write(to: dir.appendingPathComponent("index.json"))
        XCTAssertNil(shown())
        let before = net.urls().count
        XCTAssertTrue(prefetch().ok)
        XCTAssertEqual(net.urls().count, before + 1, "only the manifest was fetched")
        XCTAssertEqual(events("download").count, 1, "the first prefetch's download only")
        XCTAssertEqual(shown(), "sale")
        // A damaged file is not taken back: it is fetched again.
        try Data("garbage".utf8).write(to: dir.appendingPathComponent("index.json"))
        try Data("version 0ne".utf8).write(to: dir.appendingPathComponent("objects/\(SHA256.hex(of: v1)).mp4"))
        XCTAssertTrue(prefetch().ok)
        XCTAssertEqual(events("download").count, 2)
        XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent("objects/\(SHA256.hex(of: v1)).mp4")), v1)
    }
}
