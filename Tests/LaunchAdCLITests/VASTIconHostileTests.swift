import Foundation
import LaunchAdTestSupport
import XCTest

/// Issue 29 defects 4 and 5, on loopback: icon servers that take the request and never answer
/// do not hold the ad's first frame (sixteen held it 16 s with `--wait 2`), and an icon picture
/// declaring 16000x16000 is refused by its header before any decoder sees it (two took 2.2 GB).
extension VASTCaptionTests {
    /// A PNG whose IHDR declares `side`x`side`, then a few bytes of nothing: what matters is
    /// that nothing past the header is read.
    static func pngDeclaring(side: UInt32) -> Data {
        func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        var d: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        d += be32(13) + Array("IHDR".utf8) + be32(side) + be32(side) + [8, 2, 0, 0, 0] + be32(0x1234_5678)
        d += be32(1000) + Array("IDAT".utf8) + [UInt8](repeating: 0, count: 1000) + be32(0)
        return Data(d)
    }

    func testIconsThatNeverArriveOrAreHugeDoNotHoldTheAd() throws {
        // 16 icons, the most a Linear keeps: a 16000x16000 bomb and 15 servers that never answer.
        let servers = try (0..<15).map { _ in try Collector(status: 200) }
        servers.forEach { $0.hang = true }
        defer { servers.forEach { $0.hang = false } }
        try nginx.put("bomb.png", Self.pngDeclaring(side: 16000))
        let icon = { (program: String, url: String) in
            #"<Icon program="\#(program)" width="20" height="20" xPosition="right" yPosition="top"><StaticResource creativeType="image/png">\#(url)</StaticResource></Icon>"#
        }
        let icons =
            "<Icons>" + icon("Bomb", "\(nginx.base)/bomb.png")
            + servers.enumerated().map { icon("Silent\($0.offset)", "\($0.element.url)/icon.png") }.joined() + "</Icons>"
        var ad = VASTTags.inlineAd(id: "ic", track: "\(nginx.base)/track", media: [VASTTags.mediaFile("\(nginx.base)/ad.mp4")])
        ad = ad.replacingOccurrences(of: "<VideoClicks>", with: icons + "\n<VideoClicks>")
        let url = try nginx.put("tag-silent-icons.xml", Data(VASTTags.document(version: "4.2", [ad]).utf8))
        let fallback = try Fixtures.write("silent-icons-fallback.png", Fixtures.solidPNG("green"))
        let run = try Launchad.run([
            "play", "--vast", url, "--state", state, "--size", "320x240", "--transition", "none", "--wait", "2", "--fallback", fallback,
            "--vast-timeout", "30"
        ])
        XCTAssertEqual(run.status, 0, run.stderr)
        let first = try XCTUnwrap(run.events(named: "first_frame").first, run.stdout)
        XCTAssertEqual(first["fallback"] as? Bool, false, "the ad itself, not the fallback")
        XCTAssertLessThan(try XCTUnwrap(first["t_ms"] as? Int), 2000, "within --wait 2 of the start")
        XCTAssertEqual(run.events(named: "wait_expired").count, 0)
        XCTAssertEqual(run.events(named: "end").last?["outcome"] as? String, "completed")
        XCTAssertTrue(servers.allSatisfy { $0.received.count == 1 }, "each icon was asked for")
        let bomb = try XCTUnwrap(run.events(named: "icon_error").first { $0["program"] as? String == "Bomb" }, run.stdout)
        XCTAssertEqual(bomb["message"] as? String, "the picture is 16000x16000, over 4096 px a side")
        XCTAssertLessThan(run.seconds, 15, "the 2 s ad was held by its icons (--vast-timeout 30)")
    }
}
