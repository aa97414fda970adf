import LaunchAdCore

/// The caption clock and the caption on screen.
extension AdPlayer {
    /// The ad's own time for captions, in ms: the media time of the picture on screen for a
    /// video (a pause or a stall holds it, so the cue holds too), the shown time for an image.
    func captionClockMs(now: Int) -> Int? {
        guard firstFrameShown else { return nil }
        if videoTexture != nil { return shownPTS.map { Int(($0 * 1000).rounded()) } }
        return imageTexture != nil ? session.shownMs(now: now) : nil
    }

    /// Notes the caption that should be on screen now; a change is one redraw (and one
    /// `caption` event when a cue appears), nothing more.
    func followCaptions(now: Int) {
        let text = captionClockMs(now: now).flatMap { captions.onScreen(atMs: $0, mode: config.captionMode, muted: session.muted) }
        guard text != captionText else { return }
        captionText = text
        dirty = true
        if let text, let at = captionClockMs(now: now) {
            events.emit(AdEvent("caption", tMs: ProcessClock.nowMs(), [("text", .string(text)), ("at_ms", .int(at))]))
        }
    }
}
