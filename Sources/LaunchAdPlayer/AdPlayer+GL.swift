import Foundation
import LaunchAdCore

/// A GL output's frames, and the wakes that ask the application for them.
extension AdPlayer {
    /// Draws `scene` into the application's GL framebuffer; false when nothing was drawn (no
    /// picture yet, no context current, detached), which `render` reports as idle, so the
    /// application draws its own content.
    func drawGL(_ gl: GLOutput, _ scene: Scene) -> Bool {
        scheduleGLWake(gl)
        guard videoTexture != nil || imageTexture != nil || firstFrameShown else { return false }
        let drawn = gl.draw(
            scene, picture: videoTexture as? GLVideoPicture, skipView: skipView, captionView: captionView, quiet: session.isPaused)
        switch drawn {
        case .drawn: return true
        case .skipped: return false
        case .failed(let problem):
            events.emit(.renderError(message: problem))
            return false
        }
    }

    /// Wakes the application when the next frame is due: the next video picture's time (every
    /// 10 ms while the decoder is behind), each step of a fade, zoom or countdown ring, the
    /// countdown's next label; at least every 100 ms, for the session's clock (quartiles, the
    /// first-frame wait, an image's end). The audio clock moves in steps (the sound device takes
    /// its samples in blocks): a turn that found its picture not due yet waits at least a third
    /// of a frame before the next, rather than drawing the same frame again every few ms.
    func scheduleGLWake(_ gl: GLOutput) {
        let now = ProcessClock.nowMs()
        var ms = 100
        if videoTexture != nil, firstFrameShown, !session.isPaused, let engine {
            if let next = engine.queuedTimestamps.first(where: { $0 > (shownPTS ?? -.infinity) }) {
                let t = engine.audioClock ?? clock.time(at: ProcessClock.uptimeSeconds())
                let least = pictureToPresent ? 1 : max(4, pacer.stepMs / 3)
                ms = Checked.int(((next - t) * 1000).rounded(.up), clampedTo: least...ms)
            } else if !engine.videoDrained {
                ms = 10
            }
        }
        let skip = session.skipButton(now: now)
        let ring = skip.visible && skip.progress < 1 && (config.session.skipStyle == .ring || skipView?.hasFont == false)
        let moving = firstFrameShown && (session.opacity(now: now) < 1 || session.zoom(now: now) != 1)
        if ring || moving { ms = min(ms, pacer.stepMs) }
        if let label = session.msUntilSkipLabelChanges(now: now) { ms = min(ms, label) }
        gl.wake.wake(afterMs: ms, wakeLoop)
    }
}
