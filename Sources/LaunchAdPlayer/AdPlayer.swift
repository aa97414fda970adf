import CSDL2
import Foundation
import LaunchAdCore
import LaunchAdMedia

/// Plays one launch ad: opens the creative (video through the engine, images through libavcodec),
/// draws it with the skip overlay on a `PlayerOutput`, feeds window, pointer, key and host inputs
/// to the session and carries out its decisions. Driven by a loop: its own window's
/// (`run()`, the command line's `WindowLoop`), or an application's (`attach` then `step()` each
/// frame, embedded), always on one thread at a time.
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
    /// The run's supervisor, told by the window loop that this thread is alive (nil: none watches).
    public var pulse: PlayerPulse?
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
    /// Where the ad is drawn, once there is somewhere.
    var output: PlayerOutput?
    /// The command line's window loop, when that drives the player (it resizes its window to the
    /// probed size, and opens one for a picture decoded before it had any).
    weak var windowLoop: WindowLoop?
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

    // What is on screen.
    var videoTexture: (any VideoPictureHolder)?
    var imageTexture: Texture?
    var logoTexture: Texture?
    var content: (size: Size, rotation: Int)?
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
    /// Whether the last `step()` drew a frame.
    public internal(set) var drewFrame = false
    /// Extra seconds each present takes: tests make a slow screen with it, to see frames dropped.
    var presentDelay: Double = 0
    /// The still image being decoded (the ad or the fallback), and the logo.
    var imageJob: ImageDecodeJob?
    var logoJob: ImageDecodeJob?
    /// The overlay's font, found and read once by `startMedia` (the thread that prepares the ad,
    /// not an application's, looks through the font folders and reads the file from disk).
    var overlayFont: String?
    /// The clicked link being opened (`--open-links`), its verdict awaited before the `end`.
    let linkWait = LinkWait()
    /// Image threads; the run waits for them (bounded) so none outlives it.
    let imageThreads = DispatchGroup()
    /// The outcome once the ad is over.
    var outcome: Outcome?
    /// SDL's video subsystem, when the player's own window loop started it; kept with the
    /// window for a hand-off.
    var video: SDLVideo?
    /// The YUV matrix of the stream (SDL's mode is process-wide: set while the ad draws).
    var yuvMode = SDL_YUV_CONVERSION_AUTOMATIC

    /// A player for `config` that reports to `events`; `network` opens an http(s) creative or logo.
    /// Nothing opens until `run()` (or `startMedia()`).
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

    var renderer: Renderer? { output?.renderer }
    var window: Window? { output?.window }

    /// Plays the ad in a window of its own; returns how it ended (after its `end` event, when
    /// the session reports it). `quitRequested` is asked at every turn: true ends the ad as a
    /// closed window does (the command line's quit signals).
    public func run(quitRequested: @escaping () -> Bool = { false }) -> PlayResult {
        // The loop is held for the whole run: the player refers to it weakly.
        let loop = WindowLoop(self, quitRequested: quitRequested)
        let outcome = withExtendedLifetime(loop) { loop.run() }
        tellService(now: ProcessClock.nowMs())
        return result(outcome)
    }

    /// How the ad ended, `outcome` if the session has no result of its own.
    func result(_ outcome: Outcome) -> PlayResult {
        session.result
            ?? PlayResult(end: RunEnd(outcome: outcome, shownMs: 0), error: nil, adShownAtMs: nil, closed: false, gaveWay: false)
    }

    // MARK: Embedded: an application's loop drives the player

    /// Where the media stands before anything is shown (what an application's `prepare` waits for).
    public enum Readiness: Equatable, Sendable {
        /// Still opening or decoding the first picture.
        case opening
        /// The first picture (or the still image) is ready to draw.
        case ready
        /// The creative cannot be shown (its fallback may be).
        case failed
    }

    /// Opens the creative, its logo, icons and caption file, and starts SDL's sound, ahead of
    /// any window: an application prepares the ad before it shows it. Called once; `run()` and
    /// the first `step()` call it too.
    public func startMedia() {
        guard engine == nil, imageJob == nil, outcome == nil else { return }
        // The file opens and is probed on the engine's thread (which loads FFmpeg if `play` has
        // not) while SDL loads and starts its sound and video here.
        let engine = PlaybackEngine(
            source: config.source, muted: config.session.muted, events: events, network: network,
            wake: wakeLoop)
        self.engine = engine
        engine.start(holdingAudio: true)
        // The engine's thread opens its device once the audio subsystem is up.
        _ = SDLAudio.started
        engine.releaseAudio()
        overlayFont = Font.locate(requested: config.font)
        if let path = overlayFont { Font.warm(path) }
        if let logo = config.logo {
            logoJob = ImageDecodeJob(path: logo, isFallback: false, network: network, in: imageThreads, wake: wakeLoop)
        }
        startIcons()
        startCaptionFile()
    }

    /// Called from any thread when the loop should take a turn (a picture is ready); without
    /// it, the window loop's SDL wait ends. Set before `startMedia()`.
    public var onWake: (@Sendable () -> Void)?

    /// Makes the loop take a turn from any thread: the application's hook, else the window loop's SDL wait ends.
    var wakeLoop: @Sendable () -> Void { { [hook = onWake] in if let hook { hook() } else { LoopWake.post() } } }

    /// How far the media got (for an application waiting before it shows the ad).
    public var readiness: Readiness {
        // The fallback image replaced the creative: ready once decoded (or failed).
        if session.usingFallback { return imageJob == nil || imageJob?.outcome != nil ? .ready : .opening }
        switch engine?.state {
        // A still image is decoded on its own thread once the loop turns.
        case .ready(let f): return f.isStillImage || !(engine?.queuedTimestamps.isEmpty ?? true) ? .ready : .opening
        case .failed: return .failed
        default: return imageTexture != nil || videoTexture != nil ? .ready : .opening
        }
    }

    /// Draws from now on into an application's output; the first frame follows at the next
    /// `step()`, and `--wait` counts from now (the ad may have been prepared long before).
    public func attach(_ output: PlayerOutput) {
        self.output = output
        output.followHost()
        outputAttached()
        session.restartWait(now: ProcessClock.nowMs())
        dirty = true
    }

    /// One turn of an application's loop: what the decoders made taken, the countdown run, a
    /// frame drawn when one is due. Nil while the ad goes on; its result once it is over.
    public func step() -> PlayResult? {
        if outcome == nil, output?.windowLost == true {
            handle(.failed(code: .windowLost, message: "the application's X11 window was destroyed while the ad played"))
        }
        if let outcome { return result(outcome) }
        startMedia()
        drewFrame = false
        let turned = output.map { o in o.borrowed(yuv: yuvMode) { turn(now: ProcessClock.nowMs()) } } ?? turn(now: ProcessClock.nowMs())
        if let done = turned {
            finishEmbedded(done)
            return result(done)
        }
        return nil
    }

    /// An input from an application (a click, a key, its window's focus), acted on now.
    public func handle(_ input: SessionInput) {
        guard outcome == nil, !iconTook(input) else { return }
        if let done = carryOut(session.handle(input, now: ProcessClock.nowMs())) { finishEmbedded(done) }
    }

    /// Stops everything now (an application destroying the ad mid-run); no `end` is written.
    public func stop() {
        if outcome == nil { outcome = .endedByHost }
        tearDown(waiting: false)
    }

    /// An application's thread ends the ad: its media threads are told to stop, not waited for.
    private func finishEmbedded(_ done: Outcome) {
        outcome = done
        tellService(now: ProcessClock.nowMs())
        tearDown(waiting: false)
    }
}
