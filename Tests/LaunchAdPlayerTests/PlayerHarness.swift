import CSDL2
import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

@testable import LaunchAdPlayer

/// Runs the real player in-process with SDL's headless drivers, recording events and what was
/// presented, and lets a test act at chosen moments (push window events, clicks, keys).
final class PlayerHarness {
    struct Sample {
        let nowMs: Int
        let mediaTime: Double?
        let audioClock: Double?
        let skip: SkipButtonState
        let isPaused: Bool
        let layout: AdLayout
        /// RGBA of the window's centre pixel, or of `probe` when given.
        let pixel: [UInt8]
        let probes: [[UInt8]]
    }

    let sink = RecordingSink()
    private(set) var samples: [Sample] = []
    var probes: [(Int, Int)] = []
    /// Called at every presented frame; return value ignored. Use it to push inputs.
    var onFrame: ((Sample, PlayerHarness) -> Void)?
    private(set) var wallSeconds = 0.0

    /// The display variables a compositor session changes, and a closure that puts them back.
    static func saveDisplayEnvironment() -> () -> Void {
        let keys = ["DISPLAY", "WAYLAND_DISPLAY", "XDG_RUNTIME_DIR", "SDL_VIDEODRIVER"]
        let saved = keys.map { ($0, getenv($0).map { String(cString: $0) }) }
        return { for (k, v) in saved { if let v { setenv(k, v, 1) } else { unsetenv(k) } } }
    }

    /// Headless (SDL's dummy driver), or in a Wayland compositor's session when one is given.
    init(compositor: Compositor? = nil) {
        setenv("SDL_AUDIODRIVER", "dummy", 1)
        if let compositor {
            unsetenv("SDL_VIDEODRIVER")
            unsetenv("DISPLAY")
            setenv("WAYLAND_DISPLAY", compositor.socketName, 1)
            setenv("XDG_RUNTIME_DIR", compositor.runtimeDir, 1)
        } else {
            setenv("SDL_VIDEODRIVER", "dummy", 1)
        }
    }

    /// On a real X server (a test's Xvfb, display ":N"), through SDL's X11 driver.
    init(x11 display: String) {
        setenv("SDL_AUDIODRIVER", "dummy", 1)
        unsetenv("SDL_VIDEODRIVER")
        unsetenv("WAYLAND_DISPLAY")
        setenv("DISPLAY", display, 1)
    }

    /// `captions`: cues read before the run, as `play --captions` hands them to the player.
    func play(_ options: PlayOptions, captions: CaptionTrack? = nil) -> Outcome {
        var config = PlayerConfig(options)
        config.captions = captions
        return playConfig(config)
    }

    func playConfig(_ config: PlayerConfig) -> Outcome {
        let player = AdPlayer(config: config, events: sink)
        player.presentHook = { [unowned self, unowned player] f in
            PlayerHarness.currentWindow.withLock { $0 = player.window?.id ?? 0 }
            let out = f.layout.window
            let centre = (try? f.renderer.readPixels(Rect(x: out.width / 2, y: out.height / 2, width: 1, height: 1))) ?? []
            let probed = probes.map { (try? f.renderer.readPixels(Rect(x: $0.0, y: $0.1, width: 1, height: 1))) ?? [] }
            let s = Sample(
                nowMs: f.nowMs, mediaTime: f.mediaTime, audioClock: f.audioClock, skip: f.skip, isPaused: f.isPaused, layout: f.layout,
                pixel: centre, probes: probed)
            samples.append(s)
            onFrame?(s, self)
        }
        let start = Date()
        // A run that hangs (a regression) is closed after a minute and fails its test, instead
        // of holding up the whole suite.
        let guardTimer = DispatchWorkItem { PlayerHarness.pushQuit() }
        DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: guardTimer)
        let outcome = player.run().outcome
        guardTimer.cancel()
        wallSeconds = Date().timeIntervalSince(start)
        if ProcessInfo.processInfo.environment["LAUNCHAD_TEST_EVENTS"] != nil {
            sink.events.forEach { print($0.jsonLine()) }
        }
        return outcome
    }

    var events: [AdEvent] { sink.events }
    func events(_ name: String) -> [AdEvent] { sink.events.filter { $0.name == name } }
    func first(_ name: String) -> AdEvent? { events(name).first }

    // MARK: Inputs, as SDL would deliver them

    /// The window of the run in progress (SDL numbers each new window): events are pushed to it,
    /// as SDL would deliver them.
    static let currentWindow = Locked<UInt32>(0)
    private static var windowID: UInt32 { currentWindow.withLock { $0 } }

    static func pushWindowEvent(_ id: SDL_WindowEventID) {
        var e = SDL_Event()
        e.type = SDL_WINDOWEVENT.rawValue
        e.window.event = UInt8(id.rawValue)
        e.window.windowID = windowID
        _ = libsdl.SDL_PushEvent(&e)
    }

    static func pushClick(x: Int, y: Int) {
        var e = SDL_Event()
        e.type = SDL_MOUSEBUTTONUP.rawValue
        e.button.button = UInt8(SDL_BUTTON_LEFT)
        e.button.x = Int32(x)
        e.button.y = Int32(y)
        e.button.windowID = windowID
        _ = libsdl.SDL_PushEvent(&e)
    }

    static func pushFingerUp(x: Double, y: Double) {
        var e = SDL_Event()
        e.type = SDL_FINGERUP.rawValue
        e.tfinger.x = Float(x)
        e.tfinger.y = Float(y)
        _ = libsdl.SDL_PushEvent(&e)
    }

    /// The window's close button (or SIGTERM): the ad ends as skipped.
    static func pushQuit() {
        var e = SDL_Event()
        e.type = SDL_QUIT.rawValue
        _ = libsdl.SDL_PushEvent(&e)
    }

    static func pushKey(_ key: SDL_KeyCode, repeating: Bool = false) {
        var e = SDL_Event()
        e.type = SDL_KEYDOWN.rawValue
        e.key.repeat = repeating ? 1 : 0
        e.key.keysym.sym = Int32(key.rawValue)
        e.key.windowID = windowID
        _ = libsdl.SDL_PushEvent(&e)
    }
}

extension AdEvent {
    func int(_ key: String) -> Int? { if case .int(let v)? = self[key] { return v }; return nil }
    func string(_ key: String) -> String? { if case .string(let v)? = self[key] { return v }; return nil }
}

/// Nearest of the named test colours to an RGBA pixel.
func colourName(_ p: [UInt8]) -> String {
    guard p.count >= 3 else { return "none" }
    let named: [(String, (Int, Int, Int))] = [
        ("red", (255, 0, 0)), ("lime", (0, 255, 0)), ("blue", (0, 0, 255)),
        ("white", (255, 255, 255)), ("black", (0, 0, 0)), ("yellow", (255, 255, 0))
    ]
    let (r, g, b) = (Int(p[0]), Int(p[1]), Int(p[2]))
    return named.min { a, c in
        let da = (a.1.0 - r) * (a.1.0 - r) + (a.1.1 - g) * (a.1.1 - g) + (a.1.2 - b) * (a.1.2 - b)
        let dc = (c.1.0 - r) * (c.1.0 - r) + (c.1.1 - g) * (c.1.1 - g) + (c.1.2 - b) * (c.1.2 - b)
        return da < dc
    }!.0
}
