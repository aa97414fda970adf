import LaunchAdCore
import XCTest

/// Which video driver a run asks SDL for, and when kmsdrm may start.
final class DisplayChoiceTests: XCTestCase {
    func testX11WhenDisplayIsSetWaylandWhenOnlyWaylandDisplayIs() {
        XCTAssertEqual(
            DisplayChoice.decide(environment: ["DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0", "XDG_RUNTIME_DIR": "/run/user/1000"]), .x11)
        XCTAssertEqual(
            DisplayChoice.decide(environment: ["WAYLAND_DISPLAY": "wayland-1", "XDG_RUNTIME_DIR": "/run/user/1000"]),
            .wayland(socket: "/run/user/1000/wayland-1"))
        XCTAssertEqual(DisplayChoice.decide(environment: ["WAYLAND_DISPLAY": "/tmp/wl/sock"]), .wayland(socket: "/tmp/wl/sock"))
        XCTAssertEqual(DisplayChoice.decide(environment: ["DISPLAY": "", "WAYLAND_DISPLAY": ""]), .sdlDefault)
        XCTAssertEqual(DisplayChoice.decide(environment: [:]).driverHint, nil)
    }

    func testSDLVideoDriverWins() {
        let env = ["DISPLAY": ":0", "XDG_RUNTIME_DIR": "/run/user/7"]
        XCTAssertEqual(
            DisplayChoice.decide(environment: env.merging(["SDL_VIDEODRIVER": "wayland"]) { $1 }), .wayland(socket: "/run/user/7/wayland-0")
        )
        XCTAssertEqual(DisplayChoice.decide(environment: env.merging(["SDL_VIDEODRIVER": "kmsdrm"]) { $1 }), .kmsdrm)
        XCTAssertEqual(DisplayChoice.decide(environment: env.merging(["SDL_VIDEODRIVER": "dummy"]) { $1 }), .sdlDefault)
        XCTAssertEqual(DisplayChoice.kmsdrm.driverHint, "kmsdrm")
    }

    func testWaylandWithoutARuntimeDirIsUnusable() {
        guard case .unusable(let why) = DisplayChoice.decide(environment: ["WAYLAND_DISPLAY": "wl-x"]) else {
            return XCTFail("expected unusable")
        }
        XCTAssertTrue(why.contains("XDG_RUNTIME_DIR") && why.contains("wl-x"), why)
    }

    func testKMSNeedsAnOpenableCardAndReadableInput() {
        typealias N = KMSReadiness.Node
        XCTAssertTrue(KMSReadiness.problem(drm: nil, input: [])!.contains("/dev/dri does not exist"))
        XCTAssertTrue(KMSReadiness.problem(drm: [N(path: "/dev/dri/renderD128", usable: true)], input: [])!.contains("no card"))
        XCTAssertTrue(KMSReadiness.problem(drm: [N(path: "/dev/dri/card0", usable: false)], input: [])!.contains("/dev/dri/card0"))
        let card = [N(path: "/dev/dri/card0", usable: true)]
        XCTAssertTrue(KMSReadiness.problem(drm: card, input: [N(path: "/dev/input/event0", usable: false)])!.contains("input"))
        XCTAssertNil(
            KMSReadiness.problem(
                drm: card, input: [N(path: "/dev/input/event0", usable: false), N(path: "/dev/input/event1", usable: true)]))
        XCTAssertNil(KMSReadiness.problem(drm: card, input: []), "a panel with no input device at all")
    }
}

/// Scene and output coordinates under each turn.
final class ScreenRotationTests: XCTestCase {
    let out = Size(width: 640, height: 360)

    func testSceneShapeAndCorners() {
        XCTAssertEqual(ScreenRotation.quarter.scene(out), Size(width: 360, height: 640))
        XCTAssertEqual(ScreenRotation.half.scene(out), out)
        // The scene's top-left corner goes to the output's top-right (90), bottom-right (180), bottom-left (270).
        XCTAssertEqual(
            ScreenRotation.quarter.toOutput(Rect(x: 0, y: 0, width: 10, height: 20), output: out), Rect(x: 620, y: 0, width: 20, height: 10)
        )
        XCTAssertEqual(
            ScreenRotation.half.toOutput(Rect(x: 0, y: 0, width: 10, height: 20), output: out), Rect(x: 630, y: 340, width: 10, height: 20))
        XCTAssertEqual(
            ScreenRotation.threeQuarter.toOutput(Rect(x: 0, y: 0, width: 10, height: 20), output: out),
            Rect(x: 0, y: 350, width: 20, height: 10))
    }

    func testToSceneUndoesToOutput() {
        for r in ScreenRotation.allCases {
            let p = r.toOutput(x: 100, y: 50, output: out)
            let q = r.toScene(x: p.x, y: p.y, output: out)
            XCTAssertEqual(q.x, 100, accuracy: 1e-9, "\(r)")
            XCTAssertEqual(q.y, 50, accuracy: 1e-9, "\(r)")
        }
    }
}
