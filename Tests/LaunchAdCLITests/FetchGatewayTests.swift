import Foundation
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdPlayer
import LaunchAdTestSupport
import XCTest

@testable import LaunchAdCLI
@testable import LaunchAdEngine

/// Issue 29, class fix 1: every network read goes through `FetchRequest` (reach required) and
/// `HTTPClient`; the list of the code that builds requests (`FetchGateway.entryPoints`) is
/// checked against the sources, and a public-only URL reaches no internal address through it.
final class FetchGatewayTests: XCTestCase {
    /// Each Swift file under Sources/ with its text, comments dropped line by line.
    static func sources() throws -> [(path: String, code: String)] {
        let root = Fixtures.repoRoot.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        return try files.map { path in
            let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            let code = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(
                separator: "\n")
            return (path, code)
        }
    }

    /// A new fetch cannot be added silently: the files that build a request are the listed ones,
    /// curl is driven only by CurlTransfer (made only by HTTPClient), and there is no second HTTP stack.
    func testEveryFetchIsBuiltInAListedEntryPoint() throws {
        let all = try Self.sources()
        let building = Set(all.filter { $0.code.contains("FetchRequest(") && !$0.path.hasSuffix("Prefetch/Fetcher.swift") }.map(\.path))
        XCTAssertEqual(building, Set(FetchGateway.entryPoints.keys), "list each new fetch in FetchGateway.entryPoints, with its reach")
        XCTAssertEqual(all.filter { $0.code.contains("CurlTransfer(") }.map(\.path), ["LaunchAdDelivery/Net/HTTPClient.swift"])
        for call in ["curl_easy_perform", "curl_easy_init"] {
            XCTAssertEqual(
                all.filter { $0.code.contains(call) }.map(\.path).filter { !$0.hasPrefix("C") },
                ["LaunchAdDelivery/Net/CurlTransfer.swift"],
                call)
        }
        for stack in ["curl_multi_", "URLSession", "URLRequest(", "contentsOf: URL(string", "NetworkOpener { ", "StreamReach"] {
            XCTAssertEqual(all.filter { $0.code.contains(stack) }.map(\.path), [], stack)
        }
    }

    /// A public-only request is refused before connecting to loopback (by address, by name, as
    /// an IPv4-mapped IPv6 address), the LAN and the cloud metadata service; the server on
    /// loopback never sees it. The same request with the user's reach arrives.
    func testAPublicOnlyRequestReachesNoInternalAddress() throws {
        let inside = try Collector(status: 200)
        let client = HTTPClient(connectTimeout: 2, totalTimeout: 3, allowHTTP: true)
        let urls = [
            "\(inside.url)/x", "http://localhost:\(inside.port)/x", "http://[::ffff:127.0.0.1]:\(inside.port)/x",
            "http://[::1]:\(inside.port)/x", "http://10.0.0.1/x", "http://169.254.169.254/latest/meta-data/",
            "http://[::ffff:169.254.169.254]/x", "http://0.0.0.0:\(inside.port)/x"
        ]
        for url in urls {
            XCTAssertThrowsError(try client.fetch(FetchRequest(url: URL(string: url)!, reach: .publicOnly, maxBytes: 100), progress: nil)) {
                XCTAssertTrue("\($0)".contains("an internal address"), "\(url): \($0)")
            }
        }
        XCTAssertEqual(inside.received.count, 0)
        XCTAssertEqual(
            try client.fetch(FetchRequest(url: URL(string: "\(inside.url)/x")!, reach: .any, maxBytes: 100), progress: nil).status, 200)
    }

    /// Issue 29 defect 2: a tag from a public address names an icon picture and a caption file on
    /// 127.0.0.1; neither is fetched (they were, though its impressions were refused).
    func testIconsAndCaptionFilesOfAPublicTagCannotReachInside() throws {
        AddressPolicy.countAsPublicSources(["127.0.0.2"])
        let inside = try Collector(status: 200)
        let tag = try Collector(status: 200, host: "127.0.0.2")
        var ad = VASTTags.inlineAd(
            id: "i", track: "\(inside.url)/t",
            media: [
                VASTTags.mediaFile("\(inside.url)/ad.mp4"),
                #"<ClosedCaptionFiles><ClosedCaptionFile type="text/vtt" language="en">\#(inside.url)/cc.vtt</ClosedCaptionFile></ClosedCaptionFiles>"#
            ])
        let icon = """
            <Icons><Icon program="AdChoices" width="20" height="20" xPosition="right" yPosition="bottom">
            <StaticResource creativeType="image/png">\(inside.url)/icon.png</StaticResource></Icon></Icons>
            """
        ad = ad.replacingOccurrences(of: "<VideoClicks>", with: icon + "\n<VideoClicks>")
        tag.answer = Data(VASTTags.document([ad]).utf8)
        let resolver = VASTResolver(client: HTTPClient(connectTimeout: 3, totalTimeout: 3), maxWrappers: 5)
        let (doc, docReach) = try resolver.loadReached("\(tag.url)/tag", reach: .any)
        XCTAssertEqual(docReach, .publicOnly)
        let resolved = try resolver.resolve(doc.ads[0], tagURL: "\(tag.url)/tag", reach: docReach).get()
        XCTAssertEqual(resolved.reach, .publicOnly)

        var o = PlayOptions(file: "\(tag.url)/tag")
        o.vast.timeout = 3
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("gateway-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let icons = VASTIcons.icons(resolved.linear, into: folder)
        XCTAssertEqual(icons.count, 1)
        let network = RunNetwork(PrefetchOptions())
        XCTAssertThrowsError(try VASTIcons.fetcher(resolved.linear, reach: resolved.reach, o: o, network: network)(icons[0], { false })) {
            XCTAssertTrue("\($0)".contains("an internal address"), "\($0)")
        }
        let events = RecordingSink()
        let captions = try XCTUnwrap(VASTCaptions.loader(resolved.linear.captionFiles, reach: resolved.reach, o: o, network: network))
        XCTAssertNil(captions(events, { false }))
        XCTAssertTrue(events.events.contains { $0.name == "captions_error" }, "\(events.events)")

        // validate --vast reads every caption file: held to the chain's reach too.
        var v = ValidateOptions()
        v.vastTimeout = 3
        var budget: Int64 = 1_000_000
        let read = ValidateVAST.captions(resolved.linear.captionFiles, reach: resolved.reach, budget: &budget, v)
        guard case .failure(let e)? = read.files.first?.read else { return XCTFail("\(read)") }
        XCTAssertTrue(e.message.contains("an internal address"), e.message)
        XCTAssertEqual(inside.received.map(\.target), [], "nothing reached the inside")
    }
}
