import CSDL2
import Foundation
import LaunchAdCore

/// The hand-off to the `--then` app: the ad's last picture (or the fallback) stays on screen,
/// at full opacity and without the skip button, until the core's `HandOff` rule says the app is
/// there (its window mapped), the hold ran out, or the app ended; then the window closes.
extension AdPlayer {
    /// nil when there was no picture to hold (no window, nothing shown); the window is closed either way.
    public func handOff(appPID: Int32, holdSeconds: Double) -> (ending: HandOff.Ending, waitedMs: Int)? {
        defer { tearDown() }
        guard let renderer, window != nil, videoTexture != nil || imageTexture != nil else { return nil }
        let watcher = sdl?.driverName == "x11" ? X11Windows() : nil
        let start = ProcessClock.nowMs()
        var drawnAt: Int?
        var appWindowAt: Int?
        while true {
            let now = ProcessClock.nowMs()
            // The ad is over: input is dropped; the picture is redrawn now and then (an expose).
            var e = SDL_Event()
            while libsdl.SDL_PollEvent(&e) != 0 {}
            if drawnAt.map({ now - $0 >= 100 }) ?? true {
                drawHeld(renderer)
                drawnAt = now
            }
            if appWindowAt == nil, let windows = watcher?.topLevel(),
                HandOff.appWindowShown(appPID: appPID, parents: ProcessTable.parents(), windows: windows)
            {
                appWindowAt = now - start
            }
            if let ending = HandOff.ending(
                elapsedMs: now - start, holdMs: Int((holdSeconds * 1000).rounded()), appWindowAt: appWindowAt,
                watching: watcher != nil, appExited: ProcessTable.hasEnded(appPID))
            {
                return (ending, now - start)
            }
            libsdl.SDL_Delay(20)
        }
    }

    /// Closes a held window without a hand-off (the app could not be started).
    public func close() { tearDown() }

    private func drawHeld(_ renderer: Renderer) {
        var scene = Scene(
            layout: session.layout, content: content, picture: imageTexture, logo: logoTexture,
            skip: .hidden,
            skipStyle: config.session.skipStyle, opacity: 1)
        if videoTexture != nil, let dst = scene.pictureDestination {
            (scene.picture, scene.pictureSource) = videoPicture(drawn: Size(width: dst.width, height: dst.height)) ?? (nil, nil)
        }
        scene.draw(on: renderer, skipView: skipView)
        renderer.present()
    }
}

/// Processes as /proc lists them: each one's parent, and whether one has ended (gone, or a
/// zombie not yet waited for: its window cannot come any more).
enum ProcessTable {
    static func parents() -> [Int32: Int32] {
        var out: [Int32: Int32] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(name), let (_, parent) = stat(pid) else { continue }
            out[pid] = parent
        }
        return out
    }

    static func hasEnded(_ pid: Int32) -> Bool {
        guard let (state, _) = stat(pid) else { return true }
        return state == "Z" || state == "X"
    }

    /// State and parent from `/proc/PID/stat` ("pid (comm) S ppid ..."; comm may hold spaces and parentheses).
    private static func stat(_ pid: Int32) -> (Character, Int32)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count >= 2, let state = fields[0].first, let parent = Int32(fields[1]) else { return nil }
        return (state, parent)
    }
}
