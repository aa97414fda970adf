import CSDL2
import Foundation
import LaunchAdCore

/// Drawing one frame: the ad, the logo band, the skip button, the fade.
extension AdPlayer {
    func renderIfNeeded() {
        guard let renderer else { return }
        let now = ProcessClock.nowMs()
        // Laid out again whenever the renderer's real output size (read every turn: a window
        // manager or the X server may resize the window at any time) or the picture changes.
        let layout = AdLayout(
            window: renderer.sceneSize, mode: config.layout, skipStyle: config.session.skipStyle, picture: content?.size, fit: config.fit)
        if layout != session.layout {
            session.layout = layout
            dirty = true
        }
        followCaptions(now: now)
        let icons = visibleIcons(now: now)
        followIconsShown(icons)
        let skip = session.skipButton(now: now)
        let animating: Bool
        switch session.phase {
        case .leaving: animating = true
        case .showing: animating = session.opacity(now: now) < 1
        default: animating = false
        }
        // Without a font the text style is drawn as a ring, whose progress shows.
        let style: SkipStyle = skipView?.hasFont == false ? .ring : config.session.skipStyle
        // A host's renderer is drawn at every turn: SDL leaves the back buffer undefined after a
        // present, so a host that presents each frame needs the ad drawn each frame.
        let everyTurn = output?.kind == .hostRenderer || output?.kind == .gl
        guard everyTurn || pacer.shouldPresent(now: now, changed: dirty, skip: skip, style: style, animating: animating) else { return }
        // A picture counts as seen only in a window the X server had on screen before it was drawn.
        let onScreen = windowLoop?.windowOnScreen ?? true
        draw(now: now, skip: skip, icons: icons.map { ($0.texture, $0.rect) })
        guard drewFrame else { return }  // a GL frame not drawn (no picture, no context)
        pacer.presented(now: now, skip: skip, style: style)
        dirty = !onScreen
        if !firstFrameShown && (videoTexture != nil || imageTexture != nil) && onScreen {
            firstFrameShown = true
            startClock()
            _ = carryOut(session.handle(.firstFrame, now: ProcessClock.nowMs()))
            dirty = true  // the overlay appears with the first frame
            checkLabelGlyphs()
        }
    }

    /// Says so when the font cannot draw the button's label. Checked as the button first
    /// appears, not before: opening the font is not on the way to the first picture.
    private func checkLabelGlyphs() {
        let label = config.session.skipLabel
        if let skipView, skipView.hasFont, !skipView.fontCovers(label) {
            events.emit(.fontMissing(message: "the font has no glyphs for '\(label)'; choose one with --font"))
        }
    }

    func draw(now: Int, skip: SkipButtonState, icons: [(Texture, Rect)] = []) {
        guard let renderer else { return }
        let layout = session.layout
        var scene = Scene(
            layout: layout, content: content, picture: imageTexture, zoom: session.zoom(now: now),
            logo: logoTexture, skip: skip, skipStyle: config.session.skipStyle,
            opacity: firstFrameShown ? session.opacity(now: now) : 1)
        scene.caption = captionText
        scene.icons = icons
        // The video picture is made for the size it is drawn at (the software path scales it once).
        if videoTexture != nil, let dst = scene.pictureDestination {
            (scene.picture, scene.pictureSource) = videoPicture(drawn: Size(width: dst.width, height: dst.height)) ?? (nil, nil)
        }
        if let gl = output?.gl {
            guard drawGL(gl, scene) else { return }
        } else {
            scene.draw(on: renderer, skipView: skipView, captionView: captionView)
        }
        presentHook?(
            PresentedFrame(
                nowMs: now, mediaTime: videoTexture == nil ? nil : shownPTS, audioClock: engine?.audioClock,
                layout: layout, skip: skip,
                isPaused: session.isPaused, renderer: renderer))
        if presentDelay > 0 { Thread.sleep(forTimeInterval: presentDelay) }
        output?.present()
        presents += 1
        drewFrame = true
        // The sound starts with the first picture's present: before that its clock means nothing.
        if videoTexture != nil {
            let heard = firstFrameShown && !session.isPaused ? engine?.audioClock : nil
            session.frames?.presented(pictureTime: shownPTS, audioClock: heard)
            if pictureToPresent, let pts = shownPTS { session.picturePresented(pts: pts, now: ProcessClock.nowMs()) }
            pictureToPresent = false
        }
    }

    /// How long to sleep: until the next picture is due, at most 10 ms, so input stays prompt.
    func waitMs() -> Int32 {
        // Until the first picture is on screen the engine ends the wait itself (`LoopWake`) when
        // the video opens and when that picture is decoded.
        guard firstFrameShown else { return 10 }
        guard !session.isPaused, let next = engine?.queuedTimestamps.first else { return 10 }
        let due = (next - masterClock(now: ProcessClock.uptimeSeconds())) * 1000
        return Int32(max(1, min(10, due)))
    }
}
