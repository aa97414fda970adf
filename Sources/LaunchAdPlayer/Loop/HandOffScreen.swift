import CSDL2
import Foundation
import LaunchAdCore

/// The hand-off to the `--then` app: the ad's last picture (or the fallback) stays on screen,
/// at full opacity and without the skip button, until the core's `HandOff` rule says the app is
/// there (its window mapped), the hold ran out, or the app ended; then the window closes.
struct HandOffScreen {
    let player: AdPlayer
    /// True: the picture goes now (the run was ended without this thread).
    var stopWhen: () -> Bool = { false }

    /// nil when there was no picture to hold (no window, nothing shown), or `stopWhen` said so.
    /// `before`: the windows there before the app started (see `HandOff.appWindowShown`).
    func run(appPID: Int32, holdSeconds: Double, before: Set<UInt32>?) -> (ending: HandOff.Ending, waitedMs: Int)? {
        // Only a picture a viewer saw is held (not one drawn in a window that never reached the screen).
        guard let output = player.output, output.kind == .ownWindow, player.firstFrameShown,
            player.videoTexture != nil || player.imageTexture != nil
        else { return nil }
        let watcher = output.videoDriver == "x11" ? X11Windows() : nil
        let start = ProcessClock.nowMs()
        var drawnAt: Int?
        var appWindowAt: Int?
        while true {
            let now = ProcessClock.nowMs()
            player.pulse?.beat(.handingOff)
            if stopWhen() { return nil }
            // The ad is over: input is dropped; the picture is redrawn now and then (an expose).
            var e = SDL_Event()
            while libsdl.SDL_PollEvent(&e) != 0 {}
            if drawnAt.map({ now - $0 >= 100 }) ?? true {
                drawHeld(output.renderer)
                drawnAt = now
            }
            if appWindowAt == nil, let windows = watcher?.topLevel(),
                HandOff.appWindowShown(appPID: appPID, parents: ProcessTable.parents(), windows: windows, before: before)
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

    private func drawHeld(_ renderer: Renderer) {
        var scene = Scene(
            layout: player.session.layout, content: player.content, picture: player.imageTexture, logo: player.logoTexture,
            skip: .hidden, skipStyle: player.config.session.skipStyle, opacity: 1)
        if player.videoTexture != nil, let dst = scene.pictureDestination {
            (scene.picture, scene.pictureSource) = player.videoPicture(drawn: Size(width: dst.width, height: dst.height)) ?? (nil, nil)
        }
        scene.draw(on: renderer, skipView: player.skipView)
        renderer.present()
    }
}
