import LaunchAdCore
import XCTest

/// `launchad preview`'s decisions: which devices, where each panel goes, what the button reads.
final class GalleryTests: XCTestCase {
    func testDeviceLists() throws {
        XCTAssertEqual(
            try PreviewDevice.parseList("all").map(\.name),
            ["iphone-se", "iphone-8", "iphone-8-plus", "iphone-x", "ipad", "android-hd", "android-fhd", "desktop"])
        XCTAssertEqual(try PreviewDevice.parseList("desktop,iphone-se,desktop").map(\.label), ["desktop 1920x1080", "iphone-se 640x1136"])
        for bad in ["iphone-11", "", "ipad,,desktop"] {
            XCTAssertThrowsError(try PreviewDevice.parseList(bad)) { e in
                XCTAssertTrue(
                    (e as? UsageError)?.message.hasPrefix("--devices takes all or a comma-separated list of iphone-se") == true, "\(e)")
            }
        }
    }

    func testPanelsShareOneHeightSideBySide() {
        let devices = [PreviewDevice(name: "a", screen: Size(width: 640, height: 1136)), .desktop]
        let g = GalleryLayout(devices: devices, panelHeight: 640)
        // 640 * 640/1136 = 360.6 -> 361; 1920 * 640/1080 = 1137.8 -> 1138.
        XCTAssertEqual(g.panels, [Rect(x: 16, y: 16, width: 361, height: 640), Rect(x: 393, y: 16, width: 1138, height: 640)])
        XCTAssertEqual(g.labels[1], Rect(x: 393, y: 656, width: 1138, height: 32))
        XCTAssertEqual(g.canvas, Size(width: 16 + 361 + 16 + 1138 + 16, height: 16 + 640 + 32 + 16))
        // The desktop's skip button (1920x1080: unit 2.88, 46 px margin, 207x92) lands scaled in its panel.
        let skip = AdLayout(window: Size(width: 1920, height: 1080), mode: .fullscreen, skipStyle: .text).skipButton
        XCTAssertEqual(skip, Rect(x: 1667, y: 46, width: 207, height: 92))
        XCTAssertEqual(
            g.place(skip, panel: 1, screen: Size(width: 1920, height: 1080)), Rect(x: 393 + 988, y: 16 + 27, width: 123, height: 55))
    }

    func testTheButtonReadsWhatTheSessionSaysAtThatMoment() {
        let layout = AdLayout(window: Size(width: 640, height: 1136), mode: .fullscreen, skipStyle: .text)
        var config = SessionConfig(limitMs: nil, countdownMs: 6000)
        XCTAssertEqual(skipButton(config, layout: layout, atMs: 0).text, "Skip 6")
        XCTAssertEqual(skipButton(config, layout: layout, atMs: 2200).text, "Skip 4")
        config.skipAfterMs = 3000
        let early = skipButton(config, layout: layout, atMs: 1000)
        XCTAssertEqual([early.text], ["Ad 2"])
        XCTAssertFalse(early.enabled)
        config.showSkip = false
        XCTAssertFalse(skipButton(config, layout: layout, atMs: 1000).visible)
    }
}
