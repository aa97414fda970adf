import Foundation
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdMedia
import LaunchAdTestSupport
import XCTest

@testable import LaunchAdCLI
@testable import LaunchAdEngine

/// Issue 29, class fix 1: every fetching entry point of `FetchGateway.entryPoints` is driven
/// here with a public document's URL pointing inside: 127.0.0.1, [::1], 10.0.0.1 and the cloud
/// metadata service 169.254.169.254. None gets through, and the server inside sees nothing. An
/// entry point added to the list without a probe here fails the test.
final class FetchEntryPointTests: XCTestCase {
    /// Entry points that only fetch what the user named: no document's URL goes through them.
    static let userNamedOnly: [String: String] = [
        "LaunchAdDelivery/VAST/TagSniffer.swift": "the URL on the command line",
        "LaunchAdDelivery/Prefetch/Prefetcher+Manifest.swift": "--manifest",
        "LaunchAdDelivery/Prefetch/Prefetcher+Signature.swift": "--manifest's URL.minisig",
        "LaunchAdDelivery/Fleet/ClickHouseClient.swift": "--clickhouse",
        "LaunchAdCLI/ScheduleCommand.swift": "--manifest"
    ]

    var folder: URL!
    var inside: Collector!
    let publicEnvironment = Launchad.headlessEnvironment(["LAUNCHAD_TEST_PUBLIC_ADDRESSES": "127.0.0.2"])

    override func setUpWithError() throws {
        folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("entry-points-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        inside = try Collector(status: 200)
        AddressPolicy.countAsPublicSources(["127.0.0.2"])
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    /// The inside, as a public document may name it (plain http is allowed for loopback only).
    var targets: [String] {
        [
            "\(inside.url)/x.mp4", "http://[::1]:\(inside.port)/x.mp4", "https://10.0.0.1/x.mp4",
            "https://169.254.169.254/latest/meta-data/x.mp4"
        ]
    }

    /// A tag served from 127.0.0.2 (a "public" address here) whose one ad names `media`.
    func publicTag(media: String) throws -> Collector {
        let tag = try Collector(status: 200, host: "127.0.0.2")
        tag.answer = Data(
            VASTTags.document([VASTTags.inlineAd(id: "p", track: "https://track.example/t", media: [VASTTags.mediaFile(media)])]).utf8)
        return tag
    }

    /// Each probe drives its entry point with a public document's reach toward `target` and
    /// returns what it said; the refusal must name the internal address.
    var probes: [String: (String) throws -> String] {
        let client = HTTPClient(connectTimeout: 2, totalTimeout: 3, allowHTTP: false)
        return [
            "LaunchAdDelivery/Net/HTTPByteSource.swift": { target in
                let opener = HTTPByteSource.opener(client: client, maxBytes: 1 << 20, reach: .publicOnly)
                do { _ = try Demuxer(path: target, network: opener) } catch { return "\(error)" }
                return "opened"
            },
            "LaunchAdDelivery/VAST/VASTResolver.swift": { target in
                do { _ = try VASTResolver(client: client, maxWrappers: 5).loadReached(target, reach: .publicOnly) } catch {
                    return "\(error)"
                }
                return "fetched"
            },
            "LaunchAdDelivery/Captions/CaptionLoader.swift": { target in
                let budget = CaptionFormat.budget(seconds: 3, limitName: "--vast-timeout")
                switch CaptionLoader.load(target, reach: .publicOnly, fetcher: client, budget: budget) {
                case .failure(let e): return e.message
                case .success: return "read"
                }
            },
            "LaunchAdDelivery/Outbox/OutboxJob.swift": { [folder] target in
                let box = try Outbox(
                    stateDirectory: folder!.appendingPathComponent("state-\(UUID().uuidString)"), config: OutboxConfig(), fetcher: client,
                    clock: { Date() })
                box.enqueue(beacons: [target], event: "impression", at: Date(), reach: .publicOnly)
                // A public manifest's play-record collector, a plain one (JSON array POSTs).
                box.enqueue(record: #"{"id":"r"}"#, collector: target, batch: 10, reach: .publicOnly, at: Date())
                _ = try box.flush(lockWait: 2)
                let s = box.status()
                let refused = s.counts.beacons.refused == 1 && s.counts.records.refused == 1 && s.pending == 0
                return refused ? "refused: an internal address" : "\(s)"
            },
            "LaunchAdDelivery/Outbox/ClickHouseSender.swift": { [folder] target in
                // A public manifest's ClickHouse collector.
                let box = try Outbox(
                    stateDirectory: folder!.appendingPathComponent("state-\(UUID().uuidString)"), config: OutboxConfig(), fetcher: client,
                    clock: { Date() })
                let collector = ReportTarget(url: target, batch: 10, clickHouse: .standard, reach: .publicOnly)
                box.enqueue(record: #"{"screen_id":"s"}"#, for: collector, credentials: nil, at: Date())
                _ = try box.flush(lockWait: 2)
                let s = box.status()
                return s.counts.records.refused == 1 && s.pending == 0 ? "refused: an internal address" : "\(s)"
            },
            "LaunchAdEngine/VAST/VASTIcons.swift": { [folder] target in
                let doc = try VASTParser.parse(
                    Data(VASTTags.document([self.iconAd(target)]).utf8), budget: VASTLimits.budget(seconds: 3))
                let linear = try XCTUnwrap(doc.ads.first?.linear)
                let icons = VASTIcons.icons(linear, into: folder!.appendingPathComponent("icons-\(UUID().uuidString)"))
                do {
                    try VASTIcons.fetcher(linear, reach: .publicOnly, o: PlayOptions(file: "tag"), network: RunNetwork(PrefetchOptions()))(
                        try XCTUnwrap(icons.first), { false })
                } catch {
                    return "\(error)"
                }
                return "fetched"
            },
            "LaunchAdCLI/VAST/ValidateVAST.swift": { target in
                let tag = try self.publicTag(media: target)
                var o = ValidateOptions()
                o.vastTimeout = 3
                let reports = ValidateVAST.reports(o, tag: "\(tag.url)/tag.xml", spec: .launchAd)
                return ValidationReport(reports).render(.text)
            },
            "LaunchAdDelivery/Prefetch/Prefetcher.swift": { target in
                let manifest = try Collector(status: 200, host: "127.0.0.2")
                manifest.answer = Data(
                    #"{"ads": [{"id": "r", "type": "video", "variants": [{"url": "\#(target)", "width": 320, "height": 240, "bytes": 1000, "sha256": "\#(String(repeating: "ab", count: 32))"}]}]}"#
                        .utf8)
                return try self.prefetch("\(manifest.url)/m.json")
            },
            "LaunchAdDelivery/Prefetch/Prefetcher+VAST.swift": { [folder] target in
                // The user's manifest file names a tag on the "public" 127.0.0.2: the tag is
                // fetched, and the media file it names is held to its reach.
                let tag = try self.publicTag(media: target)
                let manifest = folder!.appendingPathComponent("m-\(UUID().uuidString).json")
                try Data(#"{"ads": [{"id": "v", "type": "vast", "vast": "\#(tag.url)/tag.xml"}]}"#.utf8).write(to: manifest)
                let said = try self.prefetch(manifest.path)
                return said.contains("refusing \(target)") ? said : "not the media file that was refused: \(said)"
            }
        ]
    }

    func iconAd(_ icon: String) -> String {
        VASTTags.inlineAd(id: "i", track: "https://track.example/t", media: [VASTTags.mediaFile("https://cdn.example/ad.mp4")])
            .replacingOccurrences(
                of: "<VideoClicks>",
                with:
                    #"<Icons><Icon program="AdChoices" width="20" height="20" xPosition="right" yPosition="top"><StaticResource creativeType="image/png">\#(icon)</StaticResource></Icon></Icons><VideoClicks>"#
            )
    }

    /// `launchad prefetch` of a manifest from the "public" 127.0.0.2: its stdout and stderr.
    func prefetch(_ manifest: String) throws -> String {
        let cache = folder.appendingPathComponent("cache-\(UUID().uuidString)").path
        // Its own state folder: the refused ad's Error URIs are queued there, not in the user's.
        let state = folder.appendingPathComponent("state-\(UUID().uuidString)").path
        let run = try Launchad.run(
            [
                "prefetch", "--manifest", manifest, "--cache", cache, "--state", state, "--retries", "0", "--no-progress", "--timeout",
                "3"
            ],
            environment: publicEnvironment)
        return run.stdout + run.stderr
    }

    func testEveryEntryPointIsProbedOrFetchesOnlyWhatTheUserNamed() {
        let probed = Set(probes.keys), userNamed = Set(Self.userNamedOnly.keys)
        XCTAssertEqual(probed.intersection(userNamed), [])
        XCTAssertEqual(probed.union(userNamed), Set(FetchGateway.entryPoints.keys), "a new entry point needs its probe here")
        for (path, why) in Self.userNamedOnly {
            XCTAssertTrue(FetchGateway.entryPoints[path]?.hasPrefix("any:") == true, "\(path): \(why)")
        }
    }

    func testNoEntryPointLetsAPublicDocumentReachInside() throws {
        for (path, probe) in probes.sorted(by: { $0.key < $1.key }) {
            for target in targets {
                let said = try probe(target)
                XCTAssertTrue(said.contains("an internal address"), "\(path) with \(target): \(said.prefix(600))")
            }
        }
        XCTAssertEqual(inside.received.map(\.target), [], "nothing reached the inside")
    }
}
