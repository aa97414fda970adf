import Foundation
import XCTest

@testable import LaunchAdCore

/// `<ClosedCaptionFiles>` and `<Icons>` read from a Linear, and the caption file chosen.
final class VASTCaptionsAndIconsTests: XCTestCase {
    let doc = """
        <VAST version="4.2"><Ad id="a"><InLine><AdSystem>x</AdSystem><Creatives><Creative><Linear>
          <Duration>00:00:10</Duration>
          <MediaFiles>
            <MediaFile delivery="progressive" type="video/mp4" width="320" height="240">https://cdn.example/a.mp4</MediaFile>
            <ClosedCaptionFiles>
              <ClosedCaptionFile type="text/vtt" language="en"><![CDATA[https://cdn.example/en.vtt]]></ClosedCaptionFile>
              <ClosedCaptionFile type="application/ttml+xml" language="fr">https://cdn.example/fr.ttml</ClosedCaptionFile>
              <ClosedCaptionFile type="text/html" language="de">https://cdn.example/de.html</ClosedCaptionFile>
              <ClosedCaptionFile type="text/vtt" language="es">file:///etc/passwd</ClosedCaptionFile>
            </ClosedCaptionFiles>
          </MediaFiles>
          <Icons>
            <Icon program="AdChoices" width="20" height="20" xPosition="right" yPosition="12" offset="00:00:01" duration="00:00:05">
              <StaticResource creativeType="image/png"><![CDATA[https://cdn.example/i.png]]></StaticResource>
              <IconClicks><IconClickThrough>https://info.example/</IconClickThrough>
                <IconClickTracking>https://t.example/ic</IconClickTracking></IconClicks>
              <IconViewTracking>https://t.example/iv</IconViewTracking>
            </Icon>
            <Icon program="Other" width="50" height="50" xPosition="left" yPosition="bottom"><HTMLResource><![CDATA[<b>x</b>]]></HTMLResource></Icon>
          </Icons>
        </Linear></Creative></Creatives></InLine></Ad></VAST>
        """

    func testCaptionFilesAndIconsAreRead() throws {
        let linear = try XCTUnwrap(try VASTParser.parse(Data(doc.utf8), budget: VASTLimits.budget(seconds: 5)).ads.first?.linear)
        XCTAssertEqual(linear.mediaFiles.count, 1)
        XCTAssertEqual(linear.captionFiles.map(\.language), ["en", "fr", "de", "es"])
        XCTAssertEqual(linear.captionFiles.map(\.format), [.webvtt, .ttml, nil, .webvtt])
        XCTAssertEqual(linear.icons.count, 2)
        let icon = linear.icons[0]
        XCTAssertEqual(icon.program, "AdChoices")
        XCTAssertEqual([icon.width, icon.height], [20, 20])
        XCTAssertEqual(icon.x, .end)
        XCTAssertEqual(icon.y, .pixels(12))
        XCTAssertEqual(icon.offset, .seconds(1))
        XCTAssertEqual(icon.duration, .seconds(5))
        XCTAssertEqual(icon.resource, .image(url: "https://cdn.example/i.png", type: "image/png"))
        XCTAssertEqual(icon.clickThrough, "https://info.example/")
        XCTAssertEqual(icon.clickTracking, ["https://t.example/ic"])
        XCTAssertEqual(icon.viewTracking, ["https://t.example/iv"])
        XCTAssertEqual(linear.icons[1].resource, .web(kind: "html"))
        XCTAssertEqual(linear.icons[1].y, .end)
    }

    func testTheCaptionFileChosenIsReadableAndHTTPS() throws {
        let files = try XCTUnwrap(
            try VASTParser.parse(Data(doc.utf8), budget: VASTLimits.budget(seconds: 5)).ads.first?.linear?.captionFiles)
        XCTAssertEqual(VASTCaptionChoice.choose(files, preferred: "fr-CA", locale: "en")?.url, "https://cdn.example/fr.ttml")
        XCTAssertEqual(VASTCaptionChoice.choose(files, preferred: nil, locale: "en-US")?.language, "en")
        XCTAssertEqual(
            VASTCaptionChoice.choose(files, preferred: "de", locale: nil)?.language, "en", "HTML is not captions: the first usable")
        XCTAssertEqual(VASTCaptionChoice.choose(files, preferred: "es", locale: nil)?.language, "en", "a file:// URL is never chosen")
    }
}
