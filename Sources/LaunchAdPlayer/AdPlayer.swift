import CSDL2
import Foundation
import LaunchAdCore
import LaunchAdMedia

/// Plays one launch ad: opens the creative (video through the engine, images through libavcodec),
/// presents it with the skip overlay, feeds window, pointer, key and host inputs to the session
/// and carries out its decisions. Runs on the calling (main) thread until the ad is over.
public final class AdPlayer {
    /// What a test sees at each presented frame, before it reaches the screen.
    public struct PresentedFrame {
        /// When the frame was drawn, in `ProcessClock` milliseconds (the events' `t_ms`).
        public let nowMs: Int
        /// The media time of the picture on screen (seconds), for video.
        public let mediaTime: Double?
        /// The audio clock (what is being heard) at that moment, while audio plays.
        public let audioClock: Double?
        /// The layout the frame was drawn with.
        public let layout: AdLayout
        /// The skip button as drawn.
        public let skip: SkipButtonState
        /// Whether the ad was paused.
        public let isPaused: Bool
        /// The renderer that drew the frame, to read its pixels back before it is presented.
        public let renderer: Renderer
    }

    /// Tests watch each presented frame through this (with `@testable import`).
    var presentHook: ((PresentedFrame) -> Void)?
    /// systemd's notify socket (READY, WATCHDOG, STATUS), if the run has one.
    public var notifier: ServiceNotifier?
    /// Keep the window and the ad's last picture when the run ends, for `handOff` to the app.
    public var holdsLastPicture = false
    var watchdog: WatchdogPolicy?

    let config: PlayerConfig
    /// Opens an http(s) ad, fallback or logo; nil refuses them.
    let network: NetworkOpener?
    let events: EventSink
    var session: AdSession
    var engine: PlaybackEngine?
    var clock = MediaClock()
    var sdl: SDLVideo?
    var window: Window?
    /// The header's size the window opened at, before the streams were probed; the window
    /// takes the probed size if that differs (a sample aspect only the stream itself carries).
    var windowGuess: Size?
    var renderer: Renderer?
    var skipView: SkipButtonView?
    var captionView: CaptionView?
    /// Every cue known (read before the run, or decoded from the file as it plays), and the
    /// caption on screen now.
    var captions: CaptionTrack
    var captionText: String?
    var captionJob: CaptionReadJob?
    var captionFileJob: CaptionFileJob?
    /// The caption file and icon pictures, loaded beside playback.
    public var sideLoads = SideLoads()
    var captionReadStarted = false
    // VAST icons: decoding, decoded, on screen now, seen, refused.
    var iconJobs: [Int: ImageDecodeJob] = [:]
    var iconPictures: [Int: Texture] = [:]
    var iconsShown: [Int] = []
    var iconsViewed: Set<Int> = []
    var iconsRefused: Set<Int> = []
    var control: ControlChannel?

    // What is on screen.
    var videoTexture: VideoSurface?
    var imageTexture: Texture?
    var logoTexture: Texture?
    var content: (size: Size, rotation: Int)?
    var runStartMs = 0
    /// The still image's size in its file (it may be shown scaled down).
    var imageSourceSize: Size?
    var shownPTS: Double?
    /// A new video picture is in the texture and not yet presented.
    var pictureToPresent = false
    var firstFrameShown = false
    var facts: VideoFacts?
    var startSent = false
    /// Something visible changed (a picture, the window, a pause) since the last present.
    var dirty = true
    var pacer = PresentPacer(stepMs: PresentPacer.stepMs(frameDuration: nil))
    /// Frames presented by `draw`, for the tests that check nothing is redrawn for nothing.
    var presents = 0
    /// Extra seconds each present takes: tests make a slow screen with it, to see frames dropped.
    var presentDelay: Double = 0
    /// The still image being decoded (the ad or the fallback), and the logo.
    var imageJob: ImageDecodeJob?
    var logoJob: ImageDecodeJob?
    /// Image threads; the run waits for them (bounded) so none outlives it.
    let imageThreads = DispatchGroup()

    /// A player for `config` that reports to `events`; `network` opens an http(s) creative or logo.
    /// Nothing opens until `run()`.
    public init(config: PlayerConfig, events: EventSink, network: NetworkOpener? = nil) {
        self.config = config
        self.network = network
        let events = EndGate(events)
        self.events = events
        captions = config.captions ?? CaptionTrack([])
        session = AdSession(
            config: config.session,
            layout: AdLayout(window: Size(width: 720, height: 1280), mode: config.layout, skipStyle: config.session.skipStyle),
            events: events, now: ProcessClock.nowMs())
    }

    /// `play`'s options, turned into the player's configuration once.
    public convenience init(options: PlayOptions, events: EventSink, network: NetworkOpener? = nil) {
        self.init(config: PlayerConfig(options), events: events, network: network)
    }

    /// Plays the ad; returns how it ended (after its `end` event, when the session reports it).
    public func run() -> PlayResult {
        let outcome = runLoop()
        tellService(now: ProcessClock.nowMs())
        return session.result
            ?? PlayResult(end: RunEnd(outcome: outcome, shownMs: 0), error: nil, adShownAtMs: nil, closed: false, gaveWay: false)
    }

    private func runLoop() -> Outcome {
        runStartMs = ProcessClock.nowMs()
        // The file opens and is probed on the engine's thread (which loads FFmpeg if `play` has
        // not) while SDL loads and starts its sound and video here.
        let engine = PlaybackEngine(
            source: config.source, muted: config.session.muted, events: events, network: network, wake: LoopWake.post)
        self.engine = engine
        engine.start(holdingAudio: true)
        // SDL's subsystems are started and stopped on this thread only; the engine's thread
        // opens its device once the audio subsystem is up.
        let audioSubsystem = libsdl.SDL_InitSubSystem(SDL_INIT_AUDIO) == 0
        defer { if audioSubsystem { libsdl.SDL_QuitSubSystem(SDL_INIT_AUDIO) } }
        engine.releaseAudio()
        if let logo = config.logo { logoJob = ImageDecodeJob(path: logo, isFallback: false, network: network, in: imageThreads) }
        startIcons()
        startCaptionFile()
        // Held for the hand-off to the app, the window and its last picture stay; `handOff` closes them.
        defer { if holdsLastPicture { stopMedia() } else { tearDown() } }
        do {
            sdl = try SDLVideo()
        } catch {
            return finish(
                session.handle(
                    .failed(code: (error as? SDLError)?.code ?? .noDisplay, message: "\(error)"),
                    now: ProcessClock.nowMs())) ?? .error
        }
        if config.controlStdin {
            control = ControlChannel()
            control?.start()
        }
        while true {
            let now = ProcessClock.nowMs()
            if window == nil, let outcome = openWindowWhenSized(now: now) { return outcome }
            if let outcome = pumpEvents(now: now) { return outcome }
            if let outcome = followEngine(now: now) { return outcome }
            if let outcome = followImage(now: now) { return outcome }
            followLogo()
            followCaptionRead()
            followIcons()
            // Present what is ready before the deadline is judged: a picture that arrived during
            // a slow step counts as shown, not as late.
            renderIfNeeded()
            if let outcome = carryOut(session.tick(now: ProcessClock.nowMs())) { return outcome }
            tellService(now: ProcessClock.nowMs())
            _ = libsdl.SDL_WaitEventTimeout(nil, waitMs())
        }
    }

    // MARK: Window

    /// Creates the window once the creative's size is known (or after a short wait, at the
    /// default size), so it opens at the right shape without holding up the first frame.
    private func openWindowWhenSized(now: Int, force: Bool = false) -> Outcome? {
        var contentSize: Size?
        // A window whose size does not depend on the ad opens at once, while the file opens.
        let sizeKnown = config.size != nil || config.device != nil || config.fullscreen
        switch engine?.state {
        // A still image opens the window itself once decoded, at the picture's shape.
        case .ready(let f) where f.isStillImage && !force: return nil
        case .ready(let f): contentSize = f.isStillImage ? nil : f.displaySize
        // The header's size is known before the streams are probed: the window opens (and
        // shows its first, blank picture) while they are.
        case .opening where !session.usingFallback && !sizeKnown:
            if let early = engine?.headerDisplaySize {
                contentSize = early
                windowGuess = early
            } else if now - runStartMs < 400 {
                return nil
            }
        // No window for an ad that failed: the fallback (if any) opens it, sized to the picture.
        case .failed where !force: return nil
        default: break
        }
        // --size and --device are the output's shape; the ad's own shape is the scene's, turned.
        // A fullscreen window is created at the display's size, its final one: made fullscreen
        // from a smaller size, it stays smaller on an X server without a window manager.
        let size = windowSize(
            requested: config.size, device: config.device, content: (contentSize ?? content?.size).map(config.rotation.scene),
            display: sdl?.usableDisplaySize, fullscreenDisplay: config.fullscreen ? sdl?.displaySize : nil)
        do {
            let w = try Window(title: "LaunchAd", size: size, fullscreen: config.fullscreen)
            let r = try Renderer(window: w)
            r.rotation = config.rotation
            window = w
            renderer = r
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
                        width: drawn.width, height: drawn.height, fullscreen: config.fullscreen, videoDriver: sdl?.driverName ?? "none",
                        renderer: r.name, rotate: config.rotation.degrees)))
            r.clear()
            r.present()
            // Creating a window sends shown/hidden events of its own; they are not the viewer's doing.
            libsdl.SDL_PumpEvents()
            libsdl.SDL_FlushEvent(SDL_WINDOWEVENT.rawValue)
        } catch {
            return finish(
                session.handle(.failed(code: (error as? SDLError)?.code ?? .windowFailed, message: "\(error)"), now: ProcessClock.nowMs())
            )
        }
        return nil
    }

    // MARK: Inputs

    private func pumpEvents(now: Int) -> Outcome? {
        // A SIGTERM or SIGINT the executable noted before SDL could: SDL's quit, as if it had.
        if QuitSignal.take() != nil, let outcome = carryOut(session.handle(.closeRequested, now: ProcessClock.nowMs())) {
            return outcome
        }
        var e = SDL_Event()
        while libsdl.SDL_PollEvent(&e) != 0 {
            if let input = input(from: e), !iconTook(input), let outcome = carryOut(session.handle(input, now: ProcessClock.nowMs())) {
                return outcome
            }
            if e.type == SDL_WINDOWEVENT.rawValue { dirty = true }
        }
        let lines = control?.take() ?? []
        for line in lines {
            guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
            guard let command = ControlCommand.parse(line) else {
                let known = ControlCommand.allCases.map(\.rawValue).joined(separator: ", ")
                events.emit(.controlError(line: line, message: "unknown control command; expected one of \(known)"))
                continue
            }
            if let outcome = carryOut(session.handle(.control(command), now: ProcessClock.nowMs())) { return outcome }
        }
        // Acted on, and the ad goes on: the next control line may be read.
        if let control, !lines.isEmpty, session.phase == .waiting || session.phase == .showing { control.proceed() }
        return nil
    }

    // MARK: Media

    private func followEngine(now: Int) -> Outcome? {
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

    private func creativeOpened(_ f: VideoFacts, now: Int) -> Outcome? {
        startSent = true
        facts = f
        if f.isStillImage {
            engine?.stop()
            session.imageReady(durationMs: config.imageDurationMs)
            imageJob = ImageDecodeJob(path: config.source, isFallback: false, network: network, in: imageThreads)
            return nil
        }
        if let guess = windowGuess, guess != f.displaySize, let window {
            window.resize(
                to: windowSize(
                    requested: nil, device: nil, content: config.rotation.scene(f.displaySize), display: sdl?.usableDisplaySize))
            dirty = true
        }
        windowGuess = nil
        emitStart(kind: .video, size: f.displaySize, duration: f.duration, hasAudio: f.hasAudio)
        session.videoReady(durationMs: f.duration.map { Int(($0 * 1000).rounded()) }, frameDuration: f.frameDuration)
        pacer.stepMs = PresentPacer.stepMs(frameDuration: f.frameDuration)
        session.frames = FrameCounter()
        libsdl.SDL_SetYUVConversionMode(
            f.colorMatrix == .bt709
                ? SDL_YUV_CONVERSION_BT709
                : f.colorMatrix == .bt601 ? SDL_YUV_CONVERSION_BT601 : SDL_YUV_CONVERSION_AUTOMATIC)
        return nil
    }

    private func emitStart(kind: CreativeStart.Kind, size: Size, duration: Double?, hasAudio: Bool) {
        events.emit(
            .start(
                CreativeStart(
                    file: config.source, kind: kind, width: size.width, height: size.height, duration: duration, hasAudio: hasAudio)))
    }

    /// Picks the picture for the clock, uploads it, and notices the end of the stream.
    private func advanceVideo(_ f: VideoFacts) -> Outcome? {
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

    private func upload(_ picture: DecodedPicture, renderer: Renderer, facts f: VideoFacts) {
        do {
            let surface = videoTexture ?? VideoSurface(renderer: renderer, matrix: f.colorMatrix)
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
    private func followImage(now: Int) -> Outcome? {
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
    private func followLogo() {
        guard let job = logoJob, let renderer, let result = job.outcome else { return }
        logoJob = nil
        do { logoTexture = try Texture.image(renderer, try result.get()) } catch {
            events.emit(.logoUnavailable(message: "\(error)"))
        }
        dirty = true
    }

    private func showImage(_ result: Result<RGBAImage, any Error>, now: Int, isFallback: Bool) -> Outcome? {
        do {
            let image = try result.get()
            // The picture's size is known before the window opens, so a fallback window has its shape.
            content = (Size(width: image.width, height: image.height), 0)
            imageSourceSize = Size(width: image.sourceWidth, height: image.sourceHeight)
            videoTexture = nil
            if renderer == nil, let outcome = openWindowWhenSized(now: now, force: true) { return outcome }
            guard let renderer else { return sessionOutcome }
            imageTexture = try Texture.image(renderer, image)
            dirty = true
            return nil
        } catch {
            let code: FailureCode = isFallback ? .fallbackUnavailable : ((error as? MediaError)?.code ?? .imageFailed)
            return carryOut(session.handle(.adUnavailable(code: code, message: "\(error)"), now: ProcessClock.nowMs()))
        }
    }

    // MARK: Decisions

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
                LinkOpener.open(link, events: events)
            case .showFallback:
                engine?.stop()
                videoTexture = nil
                guard let fallback = config.fallback else { continue }
                session.fallbackReady(durationMs: config.imageDurationMs, now: ProcessClock.nowMs())
                // Replaces an image ad still decoding: its late result is dropped.
                imageJob = ImageDecodeJob(path: fallback, isFallback: true, network: network, in: imageThreads)
            case .finish(let outcome):
                return outcome
            }
        }
        return nil
    }

    private var sessionOutcome: Outcome? {
        if case .ended(let o) = session.phase { return o }
        return nil
    }

    private func finish(_ actions: [SessionAction]) -> Outcome? { carryOut(actions) ?? sessionOutcome }

    func tearDown() {
        stopMedia()
        // SDL's objects, window last.
        skipView = nil
        captionView = nil
        iconPictures = [:]
        videoTexture = nil
        imageTexture = nil
        logoTexture = nil
        renderer = nil
        window = nil
        sdl = nil
    }

    /// Stops the engine threads (they use the audio device) and the image threads.
    private func stopMedia() {
        control?.stop()
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
