import CSDL2
import Foundation
import LaunchAdCore
import LaunchAdMedia

/// Carrying out the session's decisions, and the player's start and end on an output.
extension AdPlayer {
    func carryOut(_ actions: [SessionAction]) -> Outcome? {
        for action in actions {
            switch action {
            case .setPaused(let p):
                let now = ProcessClock.uptimeSeconds()
                if firstFrameShown || !p { clock.setPaused(p || !firstFrameShown, at: now) }
                if firstFrameShown { engine?.setPaused(p) }
                dirty = true
            case .setMuted(let m):
                engine?.setMuted(m)
            case .openLink(let link):
                linkWait.open(link, events: events, wake: wakeLoop)
            case .showFallback:
                engine?.stop()
                videoTexture = nil
                guard let fallback = config.fallback else { continue }
                session.fallbackReady(durationMs: config.imageDurationMs, now: ProcessClock.nowMs())
                // Replaces an image ad still decoding: its late result is dropped.
                imageJob = ImageDecodeJob(path: fallback, isFallback: true, network: network, in: imageThreads)
            case .finish(let outcome):
                linkWait.stopWaiting()
                return outcome
            }
        }
        return nil
    }

    var sessionOutcome: Outcome? {
        if case .ended(let o) = session.phase { return o }
        return nil
    }

    func finish(_ actions: [SessionAction]) -> Outcome? { carryOut(actions) ?? sessionOutcome }

    /// What the player needs once it has somewhere to draw: its overlay views, the `window`
    /// event (and `font_missing` when no font can be found).
    func outputAttached() {
        guard let output else { return }
        let r = output.renderer
        if output.kind != .ownWindow { r.rotation = config.rotation }
        let fontPath = Font.locate(requested: config.font)
        if fontPath == nil {
            events.emit(
                .fontMissing(
                    message: config.font.map { "cannot read the font \($0); drawing the ring without text" }
                        ?? "no TrueType font found; drawing the ring without text"))
        }
        skipView = SkipButtonView(renderer: r, fontPath: fontPath)
        captionView = CaptionView(renderer: r, fontPath: fontPath)
        let drawn = r.outputSize
        events.emit(
            .window(
                WindowOpened(
                    width: drawn.width, height: drawn.height, fullscreen: config.fullscreen && output.kind == .ownWindow,
                    videoDriver: output.videoDriver, renderer: output.gl?.rendererName ?? r.name, rotate: r.rotation.degrees)))
    }

    func tearDown() {
        stopMedia()
        // SDL's objects, window last.
        skipView = nil
        captionView = nil
        iconPictures = [:]
        videoTexture = nil
        imageTexture = nil
        logoTexture = nil
        output = nil
        video = nil
    }

    /// Stops the engine threads (they use the audio device) and the image threads.
    func stopMedia() {
        windowLoop?.stopControl()
        engine?.stop(wait: true)
        engine = nil
        captionJob?.stop()
        captionFileJob?.stop()
        for job in iconJobs.values { job.stop() }
        // A picture still decoding (an image ad the fallback replaced) finishes on its own; the
        // wait is bounded, as a decode cannot be interrupted.
        _ = imageThreads.wait(timeout: .now() + 3)
        imageJob = nil
        logoJob = nil
        captionJob = nil
        captionFileJob = nil
        iconJobs = [:]
    }
}
