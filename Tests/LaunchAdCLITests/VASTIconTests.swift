import Foundation
import LaunchAdTestSupport
import XCTest

/// VAST `<Icons>` against nginx: the static icon fetched and drawn, its IconViewTracking sent once;
/// HTML icons listed as skipped; an icon picture over 1 MB refused with its reason.
extension VASTCaptionTests {
    func testIconsAreFetchedSeenOnceSkippedOrRefused() throws {
        try nginx.put("icon.png", Fixtures.solidPNG("blue", size: "20x20"))
        try nginx.put("huge.png", Data(repeating: 7, count: 1_100_000))
        let track = "\(nginx.base)/track"
        let icons = """
            <Icons>
              <Icon program="AdChoices" width="20" height="20" xPosition="right" yPosition="bottom" offset="00:00:00.200">
                <StaticResource creativeType="image/png"><![CDATA[\(nginx.base)/icon.png]]></StaticResource>
                <IconClicks><IconClickThrough>https://info.example/</IconClickThrough></IconClicks>
                <IconViewTracking><![CDATA[\(track)/icon/view?cb=[CACHEBUSTING]]]></IconViewTracking>
              </Icon>
              <Icon program="Html"><HTMLResource><![CDATA[<p>hi</p>]]></HTMLResource></Icon>
              <Icon program="Huge" width="20" height="20"><StaticResource creativeType="image/png">\(nginx.base)/huge.png</StaticResource></Icon>
              <Icon program="Local"><StaticResource creativeType="image/png">file:///etc/hostname</StaticResource></Icon>
            </Icons>
            """
        var ad = VASTTags.inlineAd(id: "ic", track: track, media: [VASTTags.mediaFile("\(nginx.base)/ad.mp4")])
        ad = ad.replacingOccurrences(of: "<VideoClicks>", with: icons + "\n<VideoClicks>")
        let url = try nginx.put("tag-icons.xml", Data(VASTTags.document(version: "4.2", [ad]).utf8))
        let run = try Launchad.run(["play", "--vast", url, "--state", state, "--size", "320x240", "--transition", "none"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let vastAd = try XCTUnwrap(run.events(named: "vast_ad").first)
        XCTAssertEqual(vastAd["icons"] as? Int, 2)
        let skipped = try XCTUnwrap(vastAd["icons_skipped"] as? [[String: Any]])
        XCTAssertEqual(skipped.map { $0["program"] as? String }, ["Html", "Local"])
        XCTAssertEqual(skipped.map { $0["reason"] as? String }, ["html", "not an http(s) URL"])
        let refused = try XCTUnwrap(run.events(named: "icon_error").first)
        XCTAssertEqual(refused["program"] as? String, "Huge")
        XCTAssertTrue((refused["message"] as? String ?? "").contains("1048576-byte limit"), "\(refused)")
        XCTAssertEqual(run.events(named: "icon_view").map { $0["program"] as? String }, ["AdChoices"])
        // Room for a loaded machine: the wait ends as soon as the beacon is in nginx's log.
        Wait.until(timeout: 20) { self.nginx.tracked.contains(where: { $0.hasPrefix("/track/icon/view") }) }
        XCTAssertEqual(nginx.tracked.filter { $0.hasPrefix("/track/icon/view?cb=") }.count, 1, "\(nginx.tracked)")
    }
}
