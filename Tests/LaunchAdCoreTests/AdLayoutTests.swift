import LaunchAdCore
import XCTest

final class GeometryTests: XCTestCase {
    func testSizeParsing() {
        XCTAssertEqual(Size(parsing: "720x1280"), Size(width: 720, height: 1280))
        XCTAssertEqual(Size(parsing: "720X1280"), Size(width: 720, height: 1280))
        XCTAssertEqual(Size(parsing: "1x1"), Size(width: 1, height: 1))
        for bad in [
            "", "x", "720", "720x", "x1280", "0x0", "0x100", "100x0", "-720x1280", "720x-1",
            "720x1280x3", "720*1280", " 720x1280", "720x1280 ", "7.5x10", "abcxdef"
        ] {
            XCTAssertNil(Size(parsing: bad), "'\(bad)'")
        }
        XCTAssertEqual(Size(width: 720, height: 1280).description, "720x1280")
        XCTAssertEqual(Size(width: 720, height: 1280).transposed, Size(width: 1280, height: 720))
        XCTAssertTrue(Size(width: 0, height: 5).isEmpty)
        XCTAssertFalse(Size(width: 1, height: 1).isEmpty)
    }

    func testScaledDownKeepsTheAspectAndNeverGrows() {
        XCTAssertEqual(Size(width: 720, height: 1280).scaledDown(toFit: Size(width: 360, height: 1000)), Size(width: 360, height: 640))
        XCTAssertEqual(Size(width: 720, height: 1280).scaledDown(toFit: Size(width: 1000, height: 640)), Size(width: 360, height: 640))
        XCTAssertEqual(Size(width: 100, height: 50).scaledDown(toFit: Size(width: 1000, height: 1000)), Size(width: 100, height: 50))
        XCTAssertEqual(Size(width: 100, height: 50).scaledDown(toFit: Size(width: 100, height: 50)), Size(width: 100, height: 50))
        XCTAssertEqual(
            Size(width: 10_000, height: 1).scaledDown(toFit: Size(width: 100, height: 100)), Size(width: 100, height: 1),
            "never a zero side")
    }

    func testScaledDownReachesTheBoundExactly() {
        // A Double scale factor floors 971.9999 to 971: the limiting side must land on the bound.
        XCTAssertEqual(Size(width: 750, height: 1334).scaledDown(toFit: Size(width: 1728, height: 972)), Size(width: 546, height: 972))
        XCTAssertEqual(Size(width: 640, height: 1136).scaledDown(toFit: Size(width: 1152, height: 921)), Size(width: 518, height: 921))
        for w in stride(from: 37, through: 2000, by: 97) {
            for h in stride(from: 41, through: 2000, by: 89) {
                for bounds in [Size(width: 320, height: 480), Size(width: 1001, height: 333), Size(width: 77, height: 1999)] {
                    let s = Size(width: w, height: h).scaledDown(toFit: bounds)
                    XCTAssertLessThanOrEqual(s.width, bounds.width)
                    XCTAssertLessThanOrEqual(s.height, bounds.height)
                    if w > bounds.width || h > bounds.height {
                        XCTAssertTrue(
                            s.width == bounds.width || s.height == bounds.height || s.width == 1 || s.height == 1,
                            "\(w)x\(h) into \(bounds) gave \(s)")
                    } else {
                        XCTAssertEqual(s, Size(width: w, height: h))
                    }
                }
            }
        }
    }

    func testRectContainsIsHalfOpen() {
        let r = Rect(x: 10, y: 20, width: 30, height: 40)
        XCTAssertTrue(r.contains(x: 10, y: 20))
        XCTAssertTrue(r.contains(x: 39.9, y: 59.9))
        XCTAssertFalse(r.contains(x: 40, y: 30))
        XCTAssertFalse(r.contains(x: 20, y: 60))
        XCTAssertFalse(r.contains(x: 9.9, y: 30))
        XCTAssertFalse(r.contains(x: 20, y: 19.9))
        XCTAssertEqual(r.maxX, 40)
        XCTAssertEqual(r.maxY, 60)
        XCTAssertEqual(r.midX, 25)
        XCTAssertEqual(r.midY, 40)
        XCTAssertEqual(r.size, Size(width: 30, height: 40))
        XCTAssertEqual(r.description, "10,20 30x40")
    }

    func testRectScaledAboutItsCentre() {
        let r = Rect(x: 0, y: 0, width: 720, height: 1280)
        let z = r.scaled(by: 1.25)
        XCTAssertEqual(z, Rect(x: -90, y: -160, width: 900, height: 1600))
        XCTAssertEqual(z.midX, r.midX)
        XCTAssertEqual(z.midY, r.midY)
        XCTAssertEqual(r.scaled(by: 1), r)
    }
}

final class PlacementTests: XCTestCase {
    func testFitLetterboxesAPortraitAdInASquare() {
        let p = Placement.place(Size(width: 720, height: 1280), in: Rect(x: 0, y: 0, width: 1000, height: 1000), fit: .fit)
        XCTAssertEqual(p.source, Rect(x: 0, y: 0, width: 720, height: 1280))
        XCTAssertEqual(p.destination, Rect(x: 218, y: 0, width: 563, height: 1000))
    }

    func testFitLetterboxesALandscapeAdOnAPhone() {
        let p = Placement.place(Size(width: 1920, height: 1080), in: Rect(x: 0, y: 0, width: 720, height: 1280), fit: .fit)
        XCTAssertEqual(p.destination, Rect(x: 0, y: 437, width: 720, height: 405))
        XCTAssertEqual(p.source, Rect(x: 0, y: 0, width: 1920, height: 1080))
    }

    func testFitOfTheSameAspectFillsTheArea() {
        let area = Rect(x: 0, y: 0, width: 360, height: 640)
        XCTAssertEqual(Placement.place(Size(width: 720, height: 1280), in: area, fit: .fit).destination, area)
        XCTAssertEqual(
            Placement.place(Size(width: 720, height: 1280), in: area, fit: .fill).source,
            Rect(x: 0, y: 0, width: 720, height: 1280))
    }

    func testFitScalesUpSmallAds() {
        let p = Placement.place(Size(width: 180, height: 320), in: Rect(x: 0, y: 0, width: 720, height: 1280), fit: .fit)
        XCTAssertEqual(p.destination, Rect(x: 0, y: 0, width: 720, height: 1280))
    }

    func testFitInsideAnOffsetArea() {
        let p = Placement.place(Size(width: 100, height: 100), in: Rect(x: 10, y: 20, width: 300, height: 100), fit: .fit)
        XCTAssertEqual(p.destination, Rect(x: 110, y: 20, width: 100, height: 100))
    }

    func testFillCropsALandscapeAdCentred() {
        let content = Size(width: 1920, height: 1080)
        let area = Rect(x: 0, y: 0, width: 800, height: 1200)
        let p = Placement.place(content, in: area, fit: .fill)
        XCTAssertEqual(p.destination, area)
        XCTAssertEqual(p.source, Rect(x: 600, y: 0, width: 720, height: 1080))
        XCTAssertEqual(p.source.midX, content.width / 2)
    }

    func testFillCropsAPortraitAdCentredVertically() {
        let content = Size(width: 720, height: 1280)
        let area = Rect(x: 0, y: 0, width: 1280, height: 720)
        let p = Placement.place(content, in: area, fit: .fill)
        XCTAssertEqual(p.destination, area)
        XCTAssertEqual(p.source, Rect(x: 0, y: 437, width: 720, height: 405))
    }

    func testFillInTheLogoBottomAdArea() {
        let layout = AdLayout(window: Size(width: 720, height: 1280), mode: .logoBottom, skipStyle: .text)
        let p = Placement.place(Size(width: 720, height: 1280), in: layout.adArea, fit: .fill)
        XCTAssertEqual(p.destination, Rect(x: 0, y: 0, width: 720, height: 1040))
        XCTAssertEqual(p.source, Rect(x: 0, y: 120, width: 720, height: 1040))
    }

    func testEmptyContentOrAreaDoesNotCrash() {
        let area = Rect(x: 0, y: 0, width: 100, height: 100)
        XCTAssertEqual(Placement.place(Size(width: 0, height: 0), in: area, fit: .fit).destination, area)
        XCTAssertEqual(
            Placement.place(Size(width: 10, height: 10), in: Rect(x: 5, y: 5, width: 0, height: 0), fit: .fill).destination,
            Rect(x: 5, y: 5, width: 0, height: 0))
    }

    /// Odd sizes: the picture stays inside its area, keeps its shape within a pixel, touches two
    /// opposite edges, and is centred within a pixel; a crop is inside the picture and centred.
    func testOddSizesStayInsideCentredAndInShape() {
        let contents = [
            Size(width: 720, height: 1280), Size(width: 1920, height: 1080), Size(width: 641, height: 479),
            Size(width: 1, height: 1), Size(width: 999, height: 1), Size(width: 3, height: 1001)
        ]
        let areas = [
            Rect(x: 0, y: 0, width: 641, height: 999), Rect(x: 7, y: 13, width: 333, height: 777),
            Rect(x: 0, y: 0, width: 1365, height: 767), Rect(x: 0, y: 0, width: 64, height: 64),
            Rect(x: 0, y: 0, width: 1242, height: 1794)
        ]
        for content in contents {
            for area in areas {
                let fit = Placement.place(content, in: area, fit: .fit)
                let d = fit.destination
                let label = "\(content) in \(area)"
                XCTAssertGreaterThanOrEqual(d.x, area.x, label)
                XCTAssertGreaterThanOrEqual(d.y, area.y, label)
                XCTAssertLessThanOrEqual(d.maxX, area.maxX, label)
                XCTAssertLessThanOrEqual(d.maxY, area.maxY, label)
                XCTAssertTrue(d.width == area.width || d.height == area.height, label)
                XCTAssertLessThanOrEqual(abs((d.x - area.x) - (area.maxX - d.maxX)), 1, label)
                XCTAssertLessThanOrEqual(abs((d.y - area.y) - (area.maxY - d.maxY)), 1, label)
                // Shape: the other side is the content's ratio of the touching side, within a pixel.
                if d.width == area.width {
                    XCTAssertLessThanOrEqual(
                        abs(Double(d.height) - Double(d.width) * Double(content.height) / Double(content.width)), 1, label)
                } else {
                    XCTAssertLessThanOrEqual(
                        abs(Double(d.width) - Double(d.height) * Double(content.width) / Double(content.height)), 1, label)
                }
                XCTAssertEqual(fit.source, Rect(size: content), label)
                XCTAssertGreaterThan(d.width, 0, label)
                XCTAssertGreaterThan(d.height, 0, label)

                let fill = Placement.place(content, in: area, fit: .fill)
                let s = fill.source
                XCTAssertEqual(fill.destination, area, label)
                XCTAssertGreaterThanOrEqual(s.x, 0, label)
                XCTAssertGreaterThanOrEqual(s.y, 0, label)
                XCTAssertLessThanOrEqual(s.maxX, content.width, label)
                XCTAssertLessThanOrEqual(s.maxY, content.height, label)
                XCTAssertTrue(s.width == content.width || s.height == content.height, label)
                XCTAssertLessThanOrEqual(abs(s.x - (content.width - s.maxX)), 1, label)
                XCTAssertLessThanOrEqual(abs(s.y - (content.height - s.maxY)), 1, label)
                XCTAssertGreaterThan(s.width, 0, label)
                XCTAssertGreaterThan(s.height, 0, label)
            }
        }
    }
}

final class AdLayoutTests: XCTestCase {
    func testFullscreenTheAdTakesTheWholeWindow() {
        let layout = AdLayout(window: Size(width: 720, height: 1280), mode: .fullscreen, skipStyle: .text)
        XCTAssertEqual(layout.adArea, Rect(x: 0, y: 0, width: 720, height: 1280))
        XCTAssertNil(layout.logoBand)
        XCTAssertNil(layout.logoPlacement(logo: Size(width: 100, height: 100)))
        XCTAssertEqual(layout.window, Size(width: 720, height: 1280))
    }

    func testSkipButtonTopRightAtPhoneScale() {
        // 375 points wide is one unit: 16 margin, 72x32 text button, 44x44 ring.
        let text = AdLayout(window: Size(width: 375, height: 667), mode: .fullscreen, skipStyle: .text)
        XCTAssertEqual(text.skipButton, Rect(x: 287, y: 16, width: 72, height: 32))
        let ring = AdLayout(window: Size(width: 375, height: 667), mode: .fullscreen, skipStyle: .ring)
        XCTAssertEqual(ring.skipButton, Rect(x: 315, y: 16, width: 44, height: 44))
    }

    func testSkipButtonScalesWithTheWindow() {
        let layout = AdLayout(window: Size(width: 720, height: 1280), mode: .fullscreen, skipStyle: .text)
        // 720 / 375 = 1.92 units.
        XCTAssertEqual(layout.skipButton, Rect(x: 551, y: 31, width: 138, height: 61))
        XCTAssertEqual(layout.window.width - layout.skipButton.maxX, layout.skipButton.y, "same margin right and top")
        let big = AdLayout(window: Size(width: 1440, height: 2560), mode: .fullscreen, skipStyle: .text)
        XCTAssertEqual(big.skipButton.width, 276)
        XCTAssertEqual(big.skipButton.height, 123)
        XCTAssertGreaterThan(big.skipButton.width, layout.skipButton.width)
    }

    func testSkipButtonOnALandscapeWindowScalesWithTheShortSide() {
        let layout = AdLayout(window: Size(width: 1280, height: 720), mode: .fullscreen, skipStyle: .text)
        XCTAssertEqual(layout.skipButton, Rect(x: 1111, y: 31, width: 138, height: 61))
    }

    func testSkipButtonStaysInsideTinyAndOddWindows() {
        for window in [
            Size(width: 64, height: 64), Size(width: 65, height: 4001), Size(width: 333, height: 777),
            Size(width: 16384, height: 64), Size(width: 641, height: 1137)
        ] {
            for style in SkipStyle.allCases {
                let layout = AdLayout(window: window, mode: .fullscreen, skipStyle: style)
                let b = layout.skipButton
                XCTAssertGreaterThanOrEqual(b.x, 0, "\(window) \(style)")
                XCTAssertGreaterThan(b.y, 0)
                XCTAssertLessThan(b.maxX, window.width)
                XCTAssertLessThan(b.maxY, window.height)
                XCTAssertGreaterThan(b.width, 0)
                XCTAssertGreaterThan(b.height, 0)
                XCTAssertGreaterThan(b.midX, window.width / 2, "right half")
                XCTAssertLessThan(b.midY, window.height / 2, "top half")
            }
        }
        XCTAssertEqual(AdLayout.unit(for: Size(width: 64, height: 64)), 0.5, "never smaller than half a unit")
        XCTAssertEqual(AdLayout.unit(for: Size(width: 750, height: 1334)), 2)
    }

    func testLogoBottomAdHeightIsWindowHeightMinusAThirdOfTheWidth() {
        let cases: [(Size, Int)] = [
            (Size(width: 720, height: 1280), 1040),
            (Size(width: 750, height: 1334), 1084),
            (Size(width: 640, height: 1136), 923),  // 640 / 3 = 213
            (Size(width: 1080, height: 1920), 1560),
            (Size(width: 641, height: 1001), 788)
        ]
        for (window, adHeight) in cases {
            let layout = AdLayout(window: window, mode: .logoBottom, skipStyle: .text)
            XCTAssertEqual(layout.adArea, Rect(x: 0, y: 0, width: window.width, height: adHeight), "\(window)")
            XCTAssertEqual(layout.logoBand, Rect(x: 0, y: adHeight, width: window.width, height: window.height - adHeight), "\(window)")
            XCTAssertEqual(layout.logoBand?.maxY, window.height)
            XCTAssertTrue(
                layout.adArea.contains(x: Double(layout.skipButton.x), y: Double(layout.skipButton.maxY - 1)),
                "the skip button is on the ad")
        }
    }

    func testLogoBottomOnAWideWindowKeepsHalfForTheAd() {
        let layout = AdLayout(window: Size(width: 1920, height: 1080), mode: .logoBottom, skipStyle: .text)
        XCTAssertEqual(layout.adArea.height, 540)
        XCTAssertEqual(layout.logoBand, Rect(x: 0, y: 540, width: 1920, height: 540))
    }

    func testSmallLogoIsCentredInTheBandAndNotEnlarged() {
        let layout = AdLayout(window: Size(width: 720, height: 1280), mode: .logoBottom, skipStyle: .text)
        let p = layout.logoPlacement(logo: Size(width: 400, height: 100))
        XCTAssertEqual(p?.source, Rect(x: 0, y: 0, width: 400, height: 100))
        XCTAssertEqual(p?.destination, Rect(x: 160, y: 1110, width: 400, height: 100))
        XCTAssertEqual(p?.destination.midX, 360)
        XCTAssertEqual(p?.destination.midY, layout.logoBand?.midY)
    }

    func testLargeLogoIsScaledDownInsideTheBandWithAMargin() {
        let layout = AdLayout(window: Size(width: 720, height: 1280), mode: .logoBottom, skipStyle: .text)
        let band = layout.logoBand!
        for logo in [Size(width: 2000, height: 500), Size(width: 500, height: 2000), Size(width: 1000, height: 1000)] {
            guard let d = layout.logoPlacement(logo: logo)?.destination else { return XCTFail("no placement") }
            XCTAssertGreaterThan(d.y, band.y, "\(logo)")
            XCTAssertLessThan(d.maxY, band.maxY)
            XCTAssertGreaterThan(d.x, band.x - 1)
            XCTAssertLessThan(d.maxX, band.maxX + 1)
            XCTAssertLessThanOrEqual(abs(d.midX - band.midX), 1)
            XCTAssertLessThanOrEqual(abs(d.midY - band.midY), 1)
            XCTAssertLessThanOrEqual(abs(Double(d.width) / Double(d.height) - Double(logo.width) / Double(logo.height)), 0.05)
        }
        XCTAssertEqual(
            layout.logoPlacement(logo: Size(width: 2000, height: 500))?.destination,
            Rect(x: 36, y: 1079, width: 648, height: 162))
    }
}

/// Where the overlay goes (issue 30): on the letterboxed picture, sized for the window but never
/// larger than the picture holds; on the ad's area for fill, before a picture, or for a banner.
final class OverlayPlacementTests: XCTestCase {
    func testAPortraitAdLetterboxedInALandscapeWindowCarriesTheOverlay() {
        let layout = AdLayout(
            window: Size(width: 1280, height: 720), mode: .fullscreen, skipStyle: .text, picture: Size(width: 720, height: 1280), fit: .fit)
        XCTAssertEqual(layout.picture, Rect(x: 437, y: 0, width: 405, height: 720))
        XCTAssertEqual(layout.overlayArea, layout.picture)
        // 405 pixels wide: a phone screen's width holds 1.08 units, not the window's 1.92.
        XCTAssertEqual(layout.unit, 1.08, accuracy: 0.001)
        XCTAssertEqual(layout.skipButton, Rect(x: 437 + 405 - 17 - 78, y: 17, width: 78, height: 35))
    }

    func testALandscapeAdOnAPhoneKeepsThePhonesScale() {
        let layout = AdLayout(
            window: Size(width: 720, height: 1280), mode: .fullscreen, skipStyle: .text, picture: Size(width: 1920, height: 1080), fit: .fit
        )
        XCTAssertEqual(layout.picture, Rect(x: 0, y: 437, width: 720, height: 405))
        XCTAssertEqual(layout.overlayArea, layout.picture)
        XCTAssertEqual(layout.unit, AdLayout.unit(for: Size(width: 720, height: 1280)), "a 16:9 picture as wide as the phone")
        XCTAssertEqual(layout.skipButton, Rect(x: 551, y: 437 + 31, width: 138, height: 61))
    }

    func testFillOrNoPictureYetPutsTheOverlayOnTheAdsArea() {
        let window = Size(width: 1280, height: 720)
        let plain = AdLayout(window: window, mode: .fullscreen, skipStyle: .text)
        let filled = AdLayout(window: window, mode: .fullscreen, skipStyle: .text, picture: Size(width: 720, height: 1280), fit: .fill)
        XCTAssertNil(plain.picture)
        XCTAssertEqual(plain.overlayArea, plain.adArea)
        XCTAssertEqual(filled.overlayArea, filled.adArea)
        XCTAssertEqual(filled.skipButton, plain.skipButton)
        XCTAssertEqual(filled.picture, Rect(x: 0, y: -778, width: 1280, height: 2276), "covering the window, to be clipped")
    }

    func testABannerTooThinForTheButtonLeavesItOnTheAdsArea() {
        let window = Size(width: 1280, height: 720)
        for content in [Size(width: 16000, height: 10), Size(width: 10, height: 16000), Size(width: 1280, height: 60)] {
            let layout = AdLayout(window: window, mode: .fullscreen, skipStyle: .text, picture: content, fit: .fit)
            XCTAssertEqual(layout.overlayArea, layout.adArea, "\(content)")
            XCTAssertEqual(layout.skipButton, AdLayout(window: window, mode: .fullscreen, skipStyle: .text).skipButton)
        }
        let justEnough = AdLayout(window: window, mode: .fullscreen, skipStyle: .text, picture: Size(width: 1280, height: 64), fit: .fit)
        XCTAssertEqual(justEnough.overlayArea, justEnough.picture)
        XCTAssertEqual(justEnough.unit, 0.5, "never under half a point")
    }

    func testLogoBottomLetterboxesInTheAreaAboveTheBand() {
        let layout = AdLayout(
            window: Size(width: 960, height: 540), mode: .logoBottom, skipStyle: .text, picture: Size(width: 180, height: 320), fit: .fit)
        XCTAssertEqual(layout.adArea, Rect(x: 0, y: 0, width: 960, height: 270))
        XCTAssertEqual(layout.picture, Rect(x: 404, y: 0, width: 152, height: 270))
        XCTAssertEqual(layout.overlayArea, layout.picture)
    }

    /// Odd windows and pictures: the button stays inside the overlay area, which stays inside the
    /// ad's area and is the picture whenever the picture is letterboxed and big enough.
    func testTheButtonStaysOnTheOverlayAreaForOddSizes() {
        let windows = [
            Size(width: 1, height: 1), Size(width: 64, height: 64), Size(width: 333, height: 777), Size(width: 1280, height: 720),
            Size(width: 16000, height: 90), Size(width: 641, height: 1137)
        ]
        let pictures = [
            Size(width: 1, height: 1), Size(width: 16000, height: 1), Size(width: 720, height: 1280), Size(width: 1920, height: 1080),
            Size(width: 641, height: 479), Size(width: 3, height: 1001)
        ]
        for window in windows {
            for picture in pictures {
                for mode in LayoutMode.allCases {
                    for fit in FitMode.allCases {
                        for style in SkipStyle.allCases {
                            let l = AdLayout(window: window, mode: mode, skipStyle: style, picture: picture, fit: fit)
                            let label = "\(window) \(picture) \(mode) \(fit) \(style)"
                            let o = l.overlayArea, a = l.adArea
                            XCTAssertTrue(o.x >= a.x && o.y >= a.y && o.maxX <= a.maxX && o.maxY <= a.maxY, label)
                            if fit == .fill { XCTAssertEqual(o, a, label) }
                            if let p = l.picture, fit == .fit, min(p.width, p.height) >= AdLayout.thinnestOverlayArea {
                                XCTAssertEqual(o, p, label)
                            }
                            guard min(o.width, o.height) >= AdLayout.thinnestOverlayArea else { continue }
                            let b = l.skipButton
                            XCTAssertTrue(b.x >= o.x && b.y >= o.y && b.maxX <= o.maxX && b.maxY <= o.maxY, label)
                            XCTAssertGreaterThan(b.midX, o.midX, label)
                            XCTAssertLessThan(b.midY, o.midY, label)
                        }
                    }
                }
            }
        }
    }
}

final class DevicePresetTests: XCTestCase {
    func testAFullscreenWindowIsCreatedAtTheDisplaysSize() {
        let display = Size(width: 1280, height: 720)
        for requested in [nil, Size(width: 300, height: 200)] {
            for content in [nil, Size(width: 720, height: 1280)] {
                XCTAssertEqual(
                    windowSize(
                        requested: requested, device: .iphoneSE, content: content, display: Size(width: 1280, height: 690),
                        fullscreenDisplay: display), display, "not a default portrait size made fullscreen later")
            }
        }
        XCTAssertEqual(
            windowSize(requested: nil, device: nil, content: nil, display: nil, fullscreenDisplay: Size(width: 0, height: 0)),
            Size(width: 720, height: 1280), "an unknown display: the usual size")
    }

    func testPresetsAreNativePortraitScreens() {
        let expected: [String: Size] = [
            "iphone-se": Size(width: 640, height: 1136),
            "iphone-8": Size(width: 750, height: 1334),
            "iphone-8-plus": Size(width: 1242, height: 2208),
            "ipad": Size(width: 1536, height: 2048),
            "android-fhd": Size(width: 1080, height: 1920)
        ]
        for (name, size) in expected {
            XCTAssertEqual(DevicePreset(rawValue: name)?.screen, size, name)
        }
        for preset in DevicePreset.allCases {
            XCTAssertLessThan(preset.screen.width, preset.screen.height, "\(preset) is portrait")
        }
    }

    func testRequestedSizeWins() {
        XCTAssertEqual(
            windowSize(
                requested: Size(width: 300, height: 200), device: .ipad, content: Size(width: 10, height: 10),
                display: Size(width: 100, height: 100)), Size(width: 300, height: 200))
    }

    func testDeviceScaledToNinetyPercentOfTheDisplay() {
        let display = Size(width: 1920, height: 1080)
        XCTAssertEqual(windowSize(requested: nil, device: .iphone8, content: nil, display: display), Size(width: 546, height: 972))
        for preset in DevicePreset.allCases {
            let s = windowSize(requested: nil, device: preset, content: Size(width: 1, height: 1), display: display)
            XCTAssertLessThanOrEqual(s.width, 1728)
            XCTAssertEqual(s.height, 972, "\(preset): the height is what limits on a landscape display")
            let ratio = Double(preset.screen.width) / Double(preset.screen.height)
            XCTAssertEqual(Double(s.width) / Double(s.height), ratio, accuracy: 0.005, "\(preset) keeps its shape")
        }
    }

    func testDeviceThatFitsIsNotScaled() {
        XCTAssertEqual(
            windowSize(requested: nil, device: .iphoneSE, content: nil, display: Size(width: 3840, height: 2160)),
            Size(width: 640, height: 1136))
    }

    func testWithoutADisplayTheNativeSize() {
        XCTAssertEqual(windowSize(requested: nil, device: .ipad, content: nil, display: nil), Size(width: 1536, height: 2048))
        XCTAssertEqual(
            windowSize(requested: nil, device: .ipad, content: nil, display: Size(width: 0, height: 0)),
            Size(width: 1536, height: 2048))
    }

    func testTheAdsOwnSizeOrADefault() {
        XCTAssertEqual(
            windowSize(
                requested: nil, device: nil, content: Size(width: 1920, height: 1080),
                display: Size(width: 1366, height: 768)), Size(width: 1228, height: 691))
        XCTAssertEqual(
            windowSize(
                requested: nil, device: nil, content: Size(width: 320, height: 240),
                display: Size(width: 1366, height: 768)), Size(width: 320, height: 240))
        XCTAssertEqual(windowSize(requested: nil, device: nil, content: nil, display: nil), Size(width: 720, height: 1280))
    }

    func testAnAdThatFitsTheDisplayOpensPixelForPixel() {
        let display = Size(width: 1920, height: 1080)
        XCTAssertEqual(
            windowSize(requested: nil, device: nil, content: Size(width: 1920, height: 1080), display: display),
            Size(width: 1920, height: 1080))
        XCTAssertEqual(
            windowSize(requested: nil, device: nil, content: Size(width: 1080, height: 1080), display: display),
            Size(width: 1080, height: 1080))
        // One pixel too many: scaled to 90 % of the display, as a device screen is.
        XCTAssertEqual(
            windowSize(requested: nil, device: nil, content: Size(width: 1920, height: 1081), display: display),
            Size(width: 1726, height: 972))
        XCTAssertEqual(
            windowSize(requested: nil, device: .androidFHD, content: Size(width: 10, height: 10), display: Size(width: 1080, height: 1920)),
            Size(width: 972, height: 1728))
    }
}
