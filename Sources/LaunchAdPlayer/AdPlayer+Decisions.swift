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
                imageJob = ImageDecodeJob(path: fallback, isFallback: true, network: network, in: imageThreads, wake: wakeLoop)
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
        let fontPath = overlayFont ?? Font.locate(requested: config.font)
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

    /// `waiting`: the media threads are waited for here (the command line's own window); an
    /// application's thread never waits on them (`releaseMedia`).
    func tearDown(waiting: Bool = true) {
        if waiting { stopMedia() } else { releaseMedia() }
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

    /// Tells the media threads to stop without waiting for them: a read stuck on a network mount
    /// or a FIFO, or a picture still decoding, never holds an application's thread. A thread of
    /// the player's own waits for them (their objects go with them); the engine's ends within a
    /// second, as a stop promises.
    func releaseMedia() {
        windowLoop?.stopControl()
        let engine = self.engine
        engine?.stop(wait: false)
        captionJob?.stop()
        captionFileJob?.stop()
        for job in iconJobs.values { job.stop() }
        let images = imageThreads
        let reaper = Thread {
            engine?.stop(wait: true)
            _ = images.wait(timeout: .now() + 3)
        }
        reaper.name = "launchad-release"
        reaper.start()
        self.engine = nil
        imageJob = nil
        logoJob = nil
        captionJob = nil
        captionFileJob = nil
        iconJobs = [:]
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
