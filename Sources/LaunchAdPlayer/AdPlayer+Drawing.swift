import CSDL2
import LaunchAdCore

/// Drawing one frame: the ad, the logo band, the skip button, the fade.
extension AdPlayer {
    func renderIfNeeded() {
        guard let renderer else { return }
        let now = ProcessClock.nowMs()
        let out = renderer.sceneSize
        if out != session.layout.window {
            session.layout = AdLayout(window: out, mode: config.layout, skipStyle: config.session.skipStyle)
            dirty = true
        }
        let skip = session.skipButton(now: now)
        let animating: Bool
        switch session.phase {
        case .leaving: animating = true
        case .showing: animating = session.opacity(now: now) < 1 || (config.session.skipStyle == .ring && skip.visible && !session.isPaused)
        default: animating = false
        }
        guard dirty || animating || skip != lastSkip else { return }
        draw(now: now, skip: skip)
        lastSkip = skip
        dirty = false
        if !firstFrameShown && (videoTexture != nil || imageTexture != nil) {
            firstFrameShown = true
            startClock()
            _ = carryOut(session.handle(.firstFrame, now: ProcessClock.nowMs()))
            dirty = true // the overlay appears with the first frame
        }
    }

    func draw(now: Int, skip: SkipButtonState) {
        guard let renderer else { return }
        let layout = session.layout
        Scene(layout: layout, content: content, picture: videoTexture ?? imageTexture, fit: config.fit, zoom: session.zoom(now: now),
              logo: logoTexture, skip: skip, skipStyle: config.session.skipStyle,
              opacity: firstFrameShown ? session.opacity(now: now) : 1).draw(on: renderer, skipView: skipView)
        presentHook?(PresentedFrame(nowMs: now, mediaTime: videoTexture == nil ? nil : shownPTS, audioClock: engine?.audioClock,
                                    layout: layout, skip: skip,
                                    isPaused: session.isPaused, renderer: renderer))
        renderer.present()
    }

    /// How long to sleep: until the next picture is due, at most 10 ms, so input stays prompt.
    func waitMs() -> Int32 {
        guard firstFrameShown, !session.isPaused, let next = engine?.queuedTimestamps.first else { return 10 }
        let due = (next - masterClock(now: ProcessClock.uptimeSeconds())) * 1000
        return Int32(max(1, min(10, due)))
    }
}
