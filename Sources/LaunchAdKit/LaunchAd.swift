import Foundation
import LaunchAdEngine
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdMedia
import LaunchAdPlayer

/// A launch ad shown inside an application's own window: the embedding API over the same flows
/// as the `launchad` command (a file, a VAST tag with its pod, or a manifest's cached ad), the
/// same events, beacons, outbox and play records.
///
/// Use it from one thread, the one that owns the window's renderer (or any one thread, with a
/// buffer): create it, `prepare`, `attach` somewhere to draw, `present`, then `render()` every
/// frame of your loop until it returns `.ended`. Events arrive through `onEvent` and `events`
/// on that thread, from inside `render()` or `pollEvents()`.
public final class LaunchAd {
    /// What `render()` did.
    public enum RenderResult: Int, Sendable {
        /// Nothing new to draw.
        case idle = 0
        /// A new frame was drawn into the renderer or buffer.
        case drawn = 1
        /// The ad is over; its `end` has been delivered.
        case ended = 2
    }

    private let request: RunRequest
    /// The run's cancellation: `close()` ends its waits (a slow tag, the refresh, the beacon wait).
    private let cancellation = Cancellation()
    private let queue: EventQueue
    private let stage: HostStage
    private let wakeHook = Locked<(@Sendable () -> Void)?>(nil)
    private var flow: Thread?
    private(set) var output: PlayerOutput?
    private var current: AdPlayer?
    /// Whether `current` draws into `output` yet (a player taken while preparing has not).
    private var currentAttached = false
    private var presenting = false
    private var endDelivered = false
    private var inputs: [SessionInput] = []
    private var dismissed = false
    private let refresh = Locked<BackgroundRefresh?>(nil)
    private var continuations: [AsyncStream<AdEvent>.Continuation] = []

    /// Called with each event on the application's thread (from `render()` or `pollEvents()`).
    public var onEvent: ((AdEvent) -> Void)?

    /// `launchad` arguments after the program's name: `["play", "ad.mp4", "--skip-after", "2"]`,
    /// `["play", "--vast", URL]`, `["launch", "--manifest", URL]`. Options about a window or a
    /// process (the application owns those) are refused, as are other commands.
    public init(arguments: [String]) throws(UsageError) {
        request = try EmbeddedArguments.parse(arguments)
        let hook = wakeHook
        let wake: @Sendable () -> Void = { hook.withLock { $0 }?() }
        queue = EventQueue(wake: wake)
        stage = HostStage(wake: wake)
    }

    deinit { close() }

    /// Called from any thread (a decoder's, a network one) when the application should call
    /// `render()` or `pollEvents()` soon; it must only wake the application's loop.
    public func setWakeup(_ wake: (@Sendable () -> Void)?) { wakeHook.withLock { $0 = wake } }

    /// The run's events as they are delivered (from `render()` or `pollEvents()`), ending after `end`.
    public var events: AsyncStream<AdEvent> {
        let (stream, continuation) = AsyncStream<AdEvent>.makeStream()
        continuations.append(continuation)
        return stream
    }

    // MARK: Prepare

    /// Why an ad cannot be shown.
    public enum PrepareError: Error, Equatable, Sendable {
        /// Nothing to show (its `end` says why: no_ad, or an error).
        case noAd
        /// Not ready yet: presenting still shows it (or its fallback) as soon as it is, within `--wait`.
        case timeout
        /// FFmpeg or SDL2 cannot be loaded.
        case libraryMissing(String)
    }

    /// Starts the run (the tag fetched, the cache read, the creative opened) and waits at most
    /// `timeout` seconds for its first picture. Blocks the calling thread.
    public func prepareNow(timeout: Double) throws(PrepareError) {
        try begin()
        let deadline = Self.deadline(timeout)
        while true {
            let prepared = stage.waitUntilPrepared(deadline: deadline)
            // A creative that failed to open is the session's to judge: its fallback, the next
            // media file or ad, or no ad at all.
            guard prepared == .ready, current == nil, let player = stage.takePlayer() else { return try Self.judge(prepared) }
            current = player
            currentAttached = false
            guard player.readiness == .failed else { return }
            if let result = player.step() {
                current = nil
                stage.finished(result)
                continue
            }
            if player.readiness != .failed { return }
        }
    }

    /// `prepareNow` without blocking the calling thread while it waits: for an application's
    /// async start-up.
    public func prepare(timeout: Double) async throws(PrepareError) {
        try begin()
        let (stage, deadline) = (self.stage, Self.deadline(timeout))
        _ = await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: stage.waitUntilPrepared(deadline: deadline)) }
        }
        try prepareNow(timeout: max(0, deadline.timeIntervalSinceNow))
    }

    private func begin() throws(PrepareError) {
        if let problem = FFmpegLibraries.problem() ?? SDLLibraries.problem() { throw .libraryMissing(problem) }
        startFlow()
    }

    private static func deadline(_ timeout: Double) -> Date {
        Date(timeIntervalSinceNow: timeout.isFinite ? min(max(0, timeout), 3600) : 0)
    }

    private static func judge(_ p: HostStage.Preparation) throws(PrepareError) {
        switch p {
        case .ready: return
        case .ended: throw .noAd
        case .waiting: throw .timeout
        }
    }

    private func startFlow() {
        guard flow == nil else { return }
        let (request, queue, stage, refresh) = (self.request, self.queue, self.stage, self.refresh)
        let context = RunContext.quiet(cancellation)
        let thread = Thread {
            EmbeddedFlow.run(request, sink: queue, presenter: stage, context: context) { started in refresh.withLock { $0 = started } }
            stage.flowFinished()
        }
        thread.name = "launchad-run"
        flow = thread
        thread.start()
    }

    // MARK: Show

    /// Draws into `output` (an application's renderer, or a buffer) from the next `render()`.
    public func attach(_ output: PlayerOutput) throws(PrepareError) {
        guard self.output == nil else { return }
        self.output = output
    }

    /// Draws into an application's X11 window (its id on `$DISPLAY`, from Xlib, GTK, Qt or Tk)
    /// from the next `render()`, which also presents each frame; the window is the
    /// application's again after `.ended` (or `close()`). Throws for an unknown or destroyed id,
    /// no display, SDL_VIDEODRIVER naming another driver, or SDL's video already running with
    /// another driver in this process; nothing is attached then.
    public func attach(x11Window id: UInt) throws(X11AttachError) {
        guard output == nil else { return }
        output = try PlayerOutput.x11(window: id)
    }

    /// Starts showing: the first frame is drawn by the next `render()`.
    public func present() {
        startFlow()
        presenting = true
    }

    /// One turn: what the decoders made taken, the countdown run, a frame drawn when due, the
    /// events waiting delivered. Call it every frame of the application's loop (or when woken).
    public func render() -> RenderResult {
        let showing = presenting || dismissed
        if current == nil, showing, let next = stage.takePlayer() {
            current = next
            currentAttached = false
        }
        var drew = false
        if let player = current, showing {
            if !currentAttached, let output {
                player.attach(output)
                currentAttached = true
            }
            for input in inputs { player.handle(input) }
            inputs = []
            if dismissed { player.handle(.control(.end)) }
            if let result = player.step() {
                current = nil
                stage.finished(result)
            } else {
                drew = player.drewFrame
            }
        }
        pollEvents()
        if endDelivered && current == nil {
            // SDL's window over the application's X11 window goes now: the window is its own again.
            // A GL output's objects go while the host's context is current (else at close).
            if output?.kind == .x11Window || output?.releaseHostResources(force: false) == true { output = nil }
            return .ended
        }
        return drew ? .drawn : .idle
    }

    /// Delivers the events waiting; returns how many.
    @discardableResult
    public func pollEvents() -> Int {
        let events = queue.drain()
        for e in events {
            onEvent?(e)
            for c in continuations { c.yield(e) }
            if case .end = e.event {
                endDelivered = true
                for c in continuations { c.finish() }
            }
        }
        return events.count
    }

    /// An input from the application (a click or tap in output pixels, a key, its window's
    /// focus), acted on at the next `render()`.
    public func input(_ input: SessionInput) { inputs.append(input) }

    /// Ends the ad now (`ended_by_host`); its `end` comes with a coming `render()`.
    public func dismiss() {
        dismissed = true
        startFlow()
    }

    /// Stops everything: the decoders, the sound, the flow (waiting beacons stay in the outbox
    /// for the next run). Textures made on an application's renderer are destroyed here: call it
    /// before destroying that renderer.
    public func close() {
        cancellation.cancel()
        if let waiting = stage.abort() { waiting.stop() }
        current?.stop()
        current = nil
        output?.releaseHostResources()
        output = nil
        refresh.withLock { $0?.prefetcher.cancel() }
        for c in continuations { c.finish() }
        continuations = []
    }
}
