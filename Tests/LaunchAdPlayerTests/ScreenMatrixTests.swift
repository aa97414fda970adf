import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

@testable import LaunchAdPlayer

/// What a viewer sees on a real X server, on every kind of screen (issue 30): the player runs
/// in-process on a 1280x720 Xvfb, with no window manager and under openbox, windowed and
/// fullscreen, a landscape and a portrait ad, fit and fill, the fullscreen and logo-bottom
/// layouts, captions on, and turned a quarter. Each case plays five times; once a frame with the
/// skip button and the caption has been presented, the screen is read back (XGetImage on the
/// root, as x11grab reads it) and checked: the window where it should be, the picture's
/// rectangle, the caption's box and all of its text inside the picture, the skip pill inside
/// the picture at its top-right. Expected rectangles are worked out here, not by the layout code.
final class ScreenMatrixTests: XCTestCase {
    static let screen = Size(width: 1280, height: 720)
    static let windowed = Size(width: 960, height: 540)
    static let runs = 5
    static let caption = "Captions stay on the picture: this sentence is long enough to wrap inside it"

    struct Case: CustomStringConvertible {
        var fullscreen: Bool
        var portrait: Bool
        var fit: FitMode
        var layout: LayoutMode
        var rotation: ScreenRotation = .none

        var description: String {
            [
                fullscreen ? "fullscreen" : "windowed", portrait ? "portrait" : "landscape", fit.rawValue, layout.rawValue,
                rotation == .none ? "" : "rotate \(rotation.degrees)"
            ].filter { !$0.isEmpty }.joined(separator: " ")
        }
    }

    /// {windowed, fullscreen} x {landscape, portrait} x {fit, fill} x {fullscreen, logo-bottom},
    /// and a quarter turn of both ads fullscreen.
    static var cases: [Case] {
        var out: [Case] = []
        for fullscreen in [false, true] {
            for portrait in [false, true] {
                for fit in FitMode.allCases {
                    for layout in LayoutMode.allCases {
                        out.append(Case(fullscreen: fullscreen, portrait: portrait, fit: fit, layout: layout))
                    }
                }
            }
        }
        for portrait in [false, true] {
            out.append(Case(fullscreen: true, portrait: portrait, fit: .fit, layout: .fullscreen, rotation: .quarter))
        }
        return out
    }

    func testEveryCaseWithoutAWindowManager() throws {
        try runMatrix(windowManager: false)
    }

    func testEveryCaseUnderOpenbox() throws {
        try runMatrix(windowManager: true)
    }

    // MARK: Running

    /// Short solid clips (a landscape lime one, a portrait blue one), a white logo band's logo.
    struct Media {
        let landscape: String
        let portrait: String
        let logo: String

        init() throws {
            func clip(_ colour: String, _ size: String) throws -> String {
                try Fixtures.make(
                    "solid-\(colour)-\(size)-2s.mp4",
                    ["-f", "lavfi", "-i", "color=c=\(colour):s=\(size):r=25:d=2", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "25"])
            }
            landscape = try clip("lime", "320x180")
            portrait = try clip("blue", "180x320")
            logo = try Fixtures.make("logo-red-120x60.png", ["-f", "lavfi", "-i", "color=c=red:s=120x60", "-frames:v", "1"])
        }
    }

    func runMatrix(windowManager: Bool) throws {
        var needed = ["/usr/bin/Xvfb"]
        if windowManager { needed.append("/usr/bin/openbox") }
        for bin in needed where !FileManager.default.isExecutableFile(atPath: bin) {
            throw XCTSkip("\(bin) is not installed (scripts/setup.sh --test installs it)")
        }
        let media = try Media()
        let args = ["-screen", "0", "\(Self.screen.width)x\(Self.screen.height)x24", "-nolisten", "tcp", "-wr"]
        var wm: Process?
        let xvfb: Process, display: String
        if windowManager {
            let s = try Xvfb.withOpenbox(args)
            (xvfb, display, wm) = (s.xvfb, s.display, s.openbox)
        } else {
            (xvfb, display) = try Xvfb.start(args)
        }
        let restore = PlayerHarness.saveDisplayEnvironment()
        defer {
            restore()
            for p in [wm, xvfb].compactMap({ $0 }) {
                p.terminateIfRunning()
                p.waitUntilExit()
            }
        }
        let screen = try XScreen(display)
        XCTAssertEqual(screen.size, Self.screen)
        let started = Date()
        var failures: [String] = []
        for c in Self.cases {
            var passed = 0
            for run in 1...Self.runs {
                let problems = try play(c, media: media, display: display, screen: screen, windowManager: windowManager)
                if problems.isEmpty { passed += 1 } else { failures.append("\(c), run \(run): " + problems.joined(separator: "; ")) }
            }
            print("screen matrix (\(windowManager ? "openbox" : "no window manager")): \(c): \(passed)/\(Self.runs)")
        }
        let plays = Self.cases.count * Self.runs
        print(
            "screen matrix (\(windowManager ? "openbox" : "no window manager")): \(plays) plays in "
                + String(format: "%.1f s", Date().timeIntervalSince(started)))
        XCTAssertEqual(failures, [], "\(failures.count) of \(plays) plays wrong")
    }

    /// Plays `c` once and returns what is wrong on screen (nothing: empty).
    func play(_ c: Case, media: Media, display: String, screen: XScreen, windowManager: Bool) throws -> [String] {
        let h = PlayerHarness(x11: display)
        var o = PlayOptions(file: c.portrait ? media.portrait : media.landscape)
        o.fullscreen = c.fullscreen
        if !c.fullscreen { o.size = Self.windowed }
        o.fit = c.fit
        o.layout = c.layout
        if c.layout == .logoBottom { o.logo = media.logo }
        o.rotation = c.rotation
        o.transition = .none
        o.captionMode = .on
        // What is on screen is checked here, not the wait: a machine busy with other builds may
        // take seconds to open a window.
        o.wait = 15
        let track = CaptionTrack([CaptionCue(startMs: 0, endMs: 60_000, text: Self.caption)])
        var shot: Result<(Rect, RGBPicture), any Error>?
        var overlayPresented = false
        h.onFrame = { s, h in
            guard shot == nil else { return }
            // This hook runs before its frame is presented: once a frame with the button and the
            // caption has been, the next hook finds it on the screen.
            if overlayPresented {
                shot = Result {
                    guard let window = screen.window(ofProcess: getpid()) else {
                        throw XScreen.Failed(description: "no window on the screen")
                    }
                    return (window, try screen.grab(window))
                }
                PlayerHarness.pushQuit()
            }
            overlayPresented = s.skip.visible && !h.events("caption").isEmpty
        }
        var config = PlayerConfig(o)
        config.captions = track
        // No fade-in: the overlay is checked on the frame where it first shows, at full strength.
        config.session.fadeInMs = 0
        let outcome = h.playConfig(config)
        guard let shot else {
            let error = h.first("error").map { " (\($0.string("code") ?? "?"): \($0.string("message") ?? "?"))" } ?? ""
            return ["the overlay never reached the screen (outcome \(outcome)\(error), events \(h.events.map(\.name)))"]
        }
        let (window, picture) = try shot.get()
        // LAUNCHAD_TEST_SCREENS=DIR keeps each frame checked, as a PPM file, to look at.
        if let dump = ProcessInfo.processInfo.environment["LAUNCHAD_TEST_SCREENS"] {
            var ppm = Data("P6\n\(picture.size.width) \(picture.size.height)\n255\n".utf8)
            ppm.append(contentsOf: picture.pixels)
            try ppm.write(
                to: URL(fileURLWithPath: dump + "/\(c)-\(Date().timeIntervalSince1970).ppm".replacingOccurrences(of: " ", with: "_")))
        }
        var problems: [String] = []
        if outcome != .skipped { problems.append("outcome \(outcome), not skipped by the quit") }
        if c.fullscreen {
            if window != Rect(size: Self.screen) { problems.append("the fullscreen window is at \(window)") }
        } else if window.size != Self.windowed
            || (!windowManager
                && window.origin != ((Self.screen.width - Self.windowed.width) / 2, (Self.screen.height - Self.windowed.height) / 2))
        {
            problems.append("the window is at \(window)")
        }
        // The `window` event tells the size the X server gave the window, not the one asked for.
        let said = h.first("window").map { Size(width: $0.int("width") ?? 0, height: $0.int("height") ?? 0) }
        if said != window.size {
            problems.append("the window event says \(said.map(\.description) ?? "nothing"), the screen shows \(window.size)")
        }
        return problems + Self.check(picture, c)
    }

    // MARK: Looking

    /// Where the picture should be in the scene (the window's inside, turned back): centred in
    /// the ad's area, as large as fits (fit), or the whole area (fill).
    static func expectedPicture(_ c: Case, scene: Size) -> (picture: Rect, adArea: Rect) {
        let band = c.layout == .logoBottom ? min(scene.height / 2, scene.width / 3) : 0
        let area = Rect(x: 0, y: 0, width: scene.width, height: scene.height - band)
        guard c.fit == .fit else { return (area, area) }
        let content = c.portrait ? Size(width: 180, height: 320) : Size(width: 320, height: 180)
        let s = min(Double(area.width) / Double(content.width), Double(area.height) / Double(content.height))
        let w = Int((Double(content.width) * s).rounded()), h = Int((Double(content.height) * s).rounded())
        return (Rect(x: (area.width - w) / 2, y: (area.height - h) / 2, width: w, height: h), area)
    }

    /// What is wrong in a frame of the window's inside (empty: nothing).
    static func check(_ frame: RGBPicture, _ c: Case) -> [String] {
        let scene = c.rotation.scene(frame.size)
        let (expected, area) = expectedPicture(c, scene: scene)
        let main = c.portrait ? 2 : 1  // blue or lime
        let others = c.portrait ? (0, 1) : (0, 2)
        var picture = Box(), pill = Box(), box = Box()
        var whites: [Int] = []  // y * scene width + x
        frame.pixels.withUnsafeBufferPointer { px in
            let width = frame.size.width
            // Turned a quarter, scene pixel (x, y) is window pixel (W-1-y, x): a scene row is a window column.
            let turned = c.rotation == .quarter
            let step = turned ? width * 3 : 3
            for y in area.y..<area.maxY {
                var o = turned ? (width - 1 - y) * 3 : y * width * 3
                o += area.x * step
                // Plain integer work per pixel: this loop runs in a debug build.
                var rowPicture = (Int.max, Int.min), rowDark = (Int.max, Int.min)
                for x in area.x..<area.maxX {
                    let m = Int(px[o + main]), a = Int(px[o + others.0]), b = Int(px[o + others.1])
                    o += step
                    if m >= 140 && a >= 140 && b >= 140 {
                        whites.append(y * scene.width + x)
                    } else if a <= 70 && b <= 70 && (m >= 190 || (m >= 60 && m < 150 && a <= 40 && b <= 40)) {
                        if rowPicture.0 == Int.max { rowPicture.0 = x }
                        rowPicture.1 = x
                        // The picture darkened by a translucent black box (the pill, the caption's box).
                        if m < 150 {
                            if rowDark.0 == Int.max { rowDark.0 = x }
                            rowDark.1 = x
                        }
                    }
                }
                if rowPicture.0 != Int.max { picture.add(rowPicture.0, y); picture.add(rowPicture.1, y) }
                // Above the picture's middle the pill, below it the caption's box.
                if rowDark.0 != Int.max {
                    if y < expected.midY {
                        pill.add(rowDark.0, y); pill.add(rowDark.1, y)
                    } else {
                        box.add(rowDark.0, y); box.add(rowDark.1, y)
                    }
                }
            }
        }
        var problems: [String] = []
        guard let shown = picture.rect else { return ["no picture on screen"] }
        if !shown.isNear(expected, by: 2) { problems.append("the picture is at \(shown), expected \(expected)") }
        guard let pillRect = pill.rect else { return problems + ["no skip pill on the picture"] }
        guard let boxRect = box.rect else { return problems + ["no caption box on the picture"] }
        if !shown.holds(pillRect) { problems.append("the skip pill \(pillRect) is not inside the picture \(shown)") }
        if pillRect.midX < shown.midX || pillRect.midY > shown.y + shown.height / 4 {
            problems.append("the skip pill \(pillRect) is not at the picture's top right (\(shown))")
        }
        if !shown.holds(boxRect) { problems.append("the caption box \(boxRect) is not inside the picture \(shown)") }
        if boxRect.width > shown.width * 90 / 100 + 2 { problems.append("the caption box \(boxRect) is wider than 90 % of \(shown)") }
        let points = whites.map { (x: Double($0 % scene.width), y: Double($0 / scene.width)) }
        let inBox = points.filter { boxRect.contains(x: $0.x, y: $0.y) }.count
        let stray = points.filter { !boxRect.contains(x: $0.x, y: $0.y) && !pillRect.contains(x: $0.x, y: $0.y) }
        if inBox < 20 { problems.append("no caption text in its box (\(inBox) white pixels)") }
        if let first = stray.first {
            problems.append("\(stray.count) text pixels outside the caption box and the pill, e.g. at \(Int(first.x)),\(Int(first.y))")
        }
        return problems
    }

    /// A bounding box grown one pixel at a time.
    struct Box {
        var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min
        mutating func add(_ x: Int, _ y: Int) {
            minX = min(minX, x); minY = min(minY, y); maxX = max(maxX, x); maxY = max(maxY, y)
        }
        var rect: Rect? { minX > maxX ? nil : Rect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1) }
    }
}

extension Rect {
    fileprivate var origin: (Int, Int) { (x, y) }

    fileprivate func isNear(_ other: Rect, by d: Int) -> Bool {
        abs(x - other.x) <= d && abs(y - other.y) <= d && abs(maxX - other.maxX) <= d && abs(maxY - other.maxY) <= d
    }

    fileprivate func holds(_ r: Rect) -> Bool { r.x >= x && r.y >= y && r.maxX <= maxX && r.maxY <= maxY }
}
