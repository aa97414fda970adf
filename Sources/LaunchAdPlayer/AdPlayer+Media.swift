import CSDL2
import Foundation
import LaunchAdCore
import LaunchAdMedia

/// One turn of the player's loop, and the media it follows: the engine's pictures uploaded on
/// the clock, the still image and the logo once decoded.
extension AdPlayer {
    /// Takes what the decoders and image threads made, draws a frame when one is due, and runs
    /// the session's clock; the outcome once the ad is over.
    func turn(now: Int) -> Outcome? {
        if let outcome = followEngine(now: now) { return outcome }
        if let outcome = followImage(now: now) { return outcome }
        followLogo()
        followCaptionRead()
        followIcons()
        // Present what is ready before the deadline is judged: a picture that arrived during
        // a slow step counts as shown, not as late.
        renderIfNeeded()
        // The link opener's verdict, said before the `end` it was holding back.
        if let verdict = linkWait.take(), let outcome = carryOut(session.handle(.linkOpened(failure: verdict), now: ProcessClock.nowMs())) {
            return outcome
        }
        return carryOut(session.tick(now: ProcessClock.nowMs()))
    }

    func followEngine(now: Int) -> Outcome? {
        guard let engine, !session.usingFallback, imageTexture == nil else { return nil }
        switch engine.state {
        case .opening:
            return nil
        case .failed(let e):
            guard session.phase == .waiting else { return nil }
            return carryOut(session.handle(.adUnavailable(code: e.code, message: e.message), now: now))
        case .ready(let f):
            // The first picture may be decoded already: no loop turn lost before it is uploaded.
            if !startSent, let outcome = creativeOpened(f, now: now) { return outcome }
            return advanceVideo(f)
        }
    }

    func creativeOpened(_ f: VideoFacts, now: Int) -> Outcome? {
        startSent = true
        facts = f
        if f.isStillImage {
            engine?.stop()
            session.imageReady(durationMs: config.imageDurationMs)
            imageJob = ImageDecodeJob(path: config.source, isFallback: false, network: network, in: imageThreads, wake: wakeLoop)
            return nil
        }
        windowLoop?.creativeOpened(f)
        emitStart(kind: .video, size: f.displaySize, duration: f.duration, hasAudio: f.hasAudio)
        session.videoReady(durationMs: f.duration.flatMap(Checked.milliseconds), frameDuration: f.frameDuration)
        pacer.stepMs = PresentPacer.stepMs(frameDuration: f.frameDuration)
        session.frames = FrameCounter()
        yuvMode =
            f.colorMatrix == .bt709
            ? SDL_YUV_CONVERSION_BT709 : f.colorMatrix == .bt601 ? SDL_YUV_CONVERSION_BT601 : SDL_YUV_CONVERSION_AUTOMATIC
        libsdl.SDL_SetYUVConversionMode(yuvMode)
        return nil
    }

    func emitStart(kind: CreativeStart.Kind, size: Size, duration: Double?, hasAudio: Bool) {
        events.emit(
            .start(
                CreativeStart(
                    file: config.source, kind: kind, width: size.width, height: size.height, duration: duration, hasAudio: hasAudio)))
    }

    /// Picks the picture for the clock, uploads it, and notices the end of the stream.
    func advanceVideo(_ f: VideoFacts) -> Outcome? {
        guard let engine, let renderer else { return nil }
        let now = ProcessClock.uptimeSeconds()
        let queued = engine.queuedTimestamps
        if !firstFrameShown {
            guard videoTexture == nil else { return nil }
            guard !queued.isEmpty, let picture = engine.popPictures(1) else {
                if engine.videoDrained { return carryOut(session.handle(.endOfStream, now: ProcessClock.nowMs())) }
                return nil
            }
            upload(picture, renderer: renderer, facts: f)
            return nil  // the clock starts when this picture is presented (startClock)
        }
        let t = masterClock(now: now)
        // What the watch needs to know when the next picture is due.
        session.upcomingPicture(pts: queued.first { $0 > (shownPTS ?? -.infinity) }, drained: engine.videoDrained)
        let decision = FrameTiming.decide(queued: queued, shown: shownPTS, clock: t)
        if decision.show || decision.drop > 0 {
            let count = decision.drop + (decision.show ? 1 : 0)
            session.frames?.drop(decision.drop)
            if let picture = engine.popPictures(count), decision.show {
                upload(picture, renderer: renderer, facts: f)
                return nil  // the last picture is presented before the end is judged
            }
        }
        if engine.videoDrained && engine.audioDrained && t >= (shownPTS ?? 0) + f.frameDuration {
            return carryOut(session.handle(.endOfStream, now: ProcessClock.nowMs()))
        }
        return nil
    }

    /// Starts the media clock and the sound at the first picture's time, once it is on screen,
    /// so a slow first present does not leave the clock ahead of the picture.
    func startClock() {
        guard let pts = shownPTS, videoTexture != nil else { return }
        let now = ProcessClock.uptimeSeconds()
        clock.set(pts, at: now)
        if !session.isPaused {
            clock.setPaused(false, at: now)
            engine?.setPaused(false)
        }
    }

    /// Audio is the master clock while it plays; the media clock carries on from it after.
    func masterClock(now: Double) -> Double {
        if let a = engine?.audioClock, !session.isPaused {
            clock.set(a, at: now)
            return a
        }
        return clock.time(at: now)
    }

    func upload(_ picture: DecodedPicture, renderer: Renderer, facts f: VideoFacts) {
        do {
            let surface =
                videoTexture
                ?? (output?.gl != nil ? GLVideoPicture(matrix: f.colorMatrix) : VideoSurface(renderer: renderer, matrix: f.colorMatrix))
            try surface.update(picture)
            videoTexture = surface
            session.frames?.pictureReady()
            pictureToPresent = true
            shownPTS = picture.pts
            content = (f.displaySize, f.rotation)
            dirty = true
        } catch {
            session.frames?.drop(1)
            events.emit(.renderError(message: "\(error)"))
        }
    }

    /// The video picture's texture for a destination of `drawn` size.
    func videoPicture(drawn: Size) -> (texture: Texture, source: Rect?)? {
        do { return try videoTexture?.texture(drawn: drawn) } catch {
            events.emit(.renderError(message: "\(error)"))
            return nil
        }
    }

    /// Shows the still image once its thread has decoded it; a failure is the session's to judge.
    func followImage(now: Int) -> Outcome? {
        guard let job = imageJob, let result = job.outcome else { return nil }
        imageJob = nil
        if let outcome = showImage(result, now: now, isFallback: job.isFallback) { return outcome }
        // Announced once decoded, so the event carries the picture's real size.
        if !job.isFallback, imageTexture != nil, !session.usingFallback, let size = imageSourceSize {
            emitStart(kind: .image, size: size, duration: nil, hasAudio: false)
        }
        return nil
    }

    /// Uploads the logo once both it and the window are there.
    func followLogo() {
        guard let job = logoJob, let renderer, let result = job.outcome else { return }
        logoJob = nil
        do { logoTexture = try Texture.image(renderer, try result.get()) } catch {
            events.emit(.logoUnavailable(message: "\(error)"))
        }
        dirty = true
    }

    func showImage(_ result: Result<RGBAImage, any Error>, now: Int, isFallback: Bool) -> Outcome? {
        do {
            let image = try result.get()
            // The picture's size is known before the window opens, so a fallback window has its shape.
            content = (Size(width: image.width, height: image.height), 0)
            imageSourceSize = Size(width: image.sourceWidth, height: image.sourceHeight)
            videoTexture = nil
            if output == nil, let outcome = windowLoop?.openWindowWhenSized(now: now, force: true) { return outcome }
            guard let renderer else { return sessionOutcome }
            imageTexture = try Texture.image(renderer, image)
            dirty = true
            return nil
        } catch {
            let code: FailureCode = isFallback ? .fallbackUnavailable : ((error as? MediaError)?.code ?? .imageFailed)
            return carryOut(session.handle(.adUnavailable(code: code, message: "\(error)"), now: ProcessClock.nowMs()))
        }
    }
}
