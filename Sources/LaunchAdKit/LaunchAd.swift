import Foundation
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdEngine
import LaunchAdMedia
import LaunchAdPlayer

/// A launch ad shown inside an application's own window: the embedding API over the engine's
/// runs, as the `launchad` command plays them (a file, a VAST tag with its pod, or a manifest's
/// cached ad), with the same events, beacons, outbox and play records.
///
/// Create it, `prepare` (it returns at once with a zero timeout; `.ready` comes as an event),
/// `attach` somewhere to draw, `present`, then `render()` every frame of your loop until it
/// returns `.ended`. Events arrive through `onEvent` and `events` on the thread calling
/// `render()` or `pollEvents()`, from inside those calls. Every method may be called from any
/// thread: one call runs at a time (a second thread waits, at most a picture's upload), and
/// `input`, `dismiss` and `setWakeup` never wait. From inside `onEvent`, `input` and `dismiss`
/// queue as usual, `close` takes effect when the outer call returns, and any other call is
/// refused (`StateError.reentrant`, or nothing done).
///
/// The process is left as it was found: no signal handler is installed (SDL is told not to),
/// no environment variable is set, nothing is written to stdout or stderr, and two ads never
/// share a setting.
public final class LaunchAd: Sendable {
    /// What `render()` did.
    public enum RenderResult: Int, Sendable {
        /// Nothing new to draw.
        case idle = 0
        /// A new frame was drawn into the renderer or buffer.
        case drawn = 1
        /// The ad is over; its `end` has been delivered.
        case ended = 2
    }

    /// Why an ad cannot be shown.
    public enum PrepareError: Error, Equatable, Sendable {
        /// Nothing to show (its `end` says why: no_ad, or an error).
        case noAd
        /// Not ready yet: presenting still shows it (or its fallback) as soon as it is, within
        /// `--wait`; `.ready` comes as an event when it is.
        case timeout
        /// FFmpeg or SDL2 cannot be loaded (its `error` event says which).
        case libraryMissing
        /// Called from inside `onEvent`.
        case reentrant
        /// The run is over (its `end` delivered), or the ad was closed.
        case ended
    }

    /// A call the ad's state does not allow now.
    public enum StateError: Error, Equatable, Sendable {
        /// `present` with nowhere to draw: attach first.
        case notAttached
        /// A second `attach`, or one after `present`.
        case alreadyAttached
        /// `render` after it returned `.ended`, or a call after `close`.
        case ended
        /// Called from inside `onEvent` (only `input`, `dismiss` and `close` are).
        case reentrant
    }

    /// What only the thread inside a call touches.
    private struct HostSide {
        var output: PlayerOutput?
        /// A buffer asked for: made at the first turn with an ad to draw (SDL is loaded by then,
        /// on the ad's own thread, never on the application's).
        var pendingBuffer: Size?
        /// An application's GL context attached (LaunchAd+GL.swift): its output made at the same turn.
        var pendingGL: GLOutput?
        var current: AdPlayer?
        /// Whether `current` draws into `output` yet (a player taken while preparing has not).
        var currentAttached = false
        var presenting = false
        var endDelivered = false
        var endedReturned = false
        var closed = false
        var onEvent: ((AdEvent) -> Void)?
        var continuations: [AsyncStream<AdEvent>.Continuation] = []

        /// Somewhere to draw was given (made, or a buffer to make).
        var isAttached: Bool { output != nil || pendingBuffer != nil || pendingGL != nil }
    }

    /// What any thread may touch at any time.
    private struct Shared: Sendable {
        var inputs: [SessionInput] = []
        var dismissed = false
        var flowStarted = false
        var closed = false
        /// `close` asked from inside the event callback: done when the outer call returns.
        var closeAsked = false
        var refresh: BackgroundRefresh?
    }

    private let request: RunRequest
    private let queue: EventQueue
    private let stage: HostStage
    private let waker = Waker()
    /// The run's cancellation: `close()` ends its waits (a slow tag, the refresh, the beacon wait).
    private let cancellation = Cancellation()
    private let host = EntryLock(HostSide())
    private let shared = Locked(Shared())

    /// `launchad` arguments after the program's name: `["play", "ad.mp4", "--skip-after", "2"]`,
    /// `["play", "--vast", URL]`, `["launch", "--manifest", URL]`. Options about a window or a
    /// process (the application owns those) are refused, as are other commands. Nothing is
    /// opened, fetched or started here.
    public init(arguments: [String]) throws(UsageError) {
        request = try EmbeddedArguments.parse(arguments)
        let waker = self.waker
        queue = EventQueue(wake: { waker.wake() })
        stage = HostStage(events: queue, wake: { waker.wake() })
    }

    deinit { close() }

    /// Called from the ad's own wake-up thread when the application should call `render()` or
    /// `pollEvents()` soon; it must only wake the application's loop. A slow hook delays later
    /// wake-ups, never the ad's decoding.
    public func setWakeup(_ wake: (@Sendable () -> Void)?) { waker.setHook(wake) }

    /// Called with each event, from inside `render()` or `pollEvents()`.
    public var onEvent: ((AdEvent) -> Void)? {
        get { host.run { $0.onEvent } ?? nil }
        set { _ = host.run { $0.onEvent = newValue } }
    }

    /// The run's events as they are delivered (from `render()` or `pollEvents()`), ending after `end`.
    public var events: AsyncStream<AdEvent> {
        let (stream, continuation) = AsyncStream<AdEvent>.makeStream()
        if host.run({ $0.continuations.append(continuation) }) == nil { continuation.finish() }
        return stream
    }

    // MARK: Prepare

    /// Starts the run (the tag fetched, the cache read, the creative opened and its first
    /// picture decoded, all on the ad's own threads) and waits at most `timeout` seconds for it
    /// to be ready. With 0 it returns at once, and never waits on a library being loaded: the
    /// `.ready` event (or the run's `end`) says when. Calling it again asks again.
    public func prepareNow(timeout: Double) throws(PrepareError) {
        guard let over = host.run({ side in side.closed || side.endDelivered }) else { throw .reentrant }
        if over { throw .ended }
        startFlow()
        let prepared = stage.waitUntilPrepared(deadline: Self.deadline(timeout))
        switch prepared {
        case .ready: return
        case .waiting: throw .timeout
        case .ended: throw queue.firstError == .failure(.libraryMissing) ? .libraryMissing : .noAd
        }
    }

    /// `prepareNow` without blocking the calling thread while it waits: for an application's
    /// async start-up.
    public func prepare(timeout: Double) async throws(PrepareError) {
        guard let over = host.run({ side in side.closed || side.endDelivered }) else { throw .reentrant }
        if over { throw .ended }
        startFlow()
        let (stage, deadline) = (self.stage, Self.deadline(timeout))
        _ = await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: stage.waitUntilPrepared(deadline: deadline)) }
        }
        try prepareNow(timeout: 0)
    }

    /// `timeout` seconds from now: NaN and negatives are no time, anything over an hour
    /// (infinity too) an hour.
    private static func deadline(_ timeout: Double) -> Date {
        Date(timeIntervalSinceNow: timeout.isNaN ? 0 : min(max(0, timeout), 3600))
    }

    /// Starts the run on its own thread, once; from any thread, never waiting.
    private func startFlow() {
        let start = shared.withLock { s -> Bool in
            defer { s.flowStarted = true }
            return !s.flowStarted && !s.closed
        }
        guard start else { return }
        let (request, queue, stage, shared) = (self.request, self.queue, self.stage, self.shared)
        let context = RunContext.quiet(cancellation)
        let thread = Thread {
            EmbeddedFlow.run(request, sink: queue, presenter: stage, context: context) { started in
                shared.withLock { $0.refresh = started }
            }
            stage.flowFinished()
        }
        thread.name = "launchad-run"
        thread.start()
    }

    // MARK: Show

    /// Draws into `output` (an application's renderer, or a buffer) from the next `render()`.
    public func attach(_ output: PlayerOutput) throws(StateError) {
        try checked { side throws(StateError) in
            guard !side.isAttached, !side.presenting else { throw .alreadyAttached }
            side.output = output
        }
    }

    /// Draws into a buffer of `size` (32-bit pixels, B, G, R, A in memory) that the ad makes
    /// when it first has something to draw: no library is loaded on the calling thread.
    public func attach(bufferOf size: Size) throws(StateError) {
        try checked { side throws(StateError) in
            guard !side.isAttached, !side.presenting else { throw .alreadyAttached }
            side.pendingBuffer = size
        }
    }

    /// The attached buffer's pixels as the last `render()` left them (nil before the first
    /// drawn frame, or without a buffer); valid until the next call.
    public func bufferPixels() throws(StateError) -> (pointer: UnsafeRawPointer, size: Size, pitch: Int)? {
        try checked { side throws(StateError) in side.output?.kind == .buffer ? side.output?.pixels : nil }
    }

    /// Draws into an application's X11 window (its id on `$DISPLAY`, from Xlib, GTK, Qt or Tk)
    /// from the next `render()`, which also presents each frame; the window is the
    /// application's again after `.ended` (or `close()`), as it was (SDL's drag-and-drop mark
    /// taken off). Throws `X11AttachError` for an unknown or destroyed id, no display,
    /// SDL_VIDEODRIVER naming another driver, or SDL's video already running with another driver
    /// in this process (nothing is attached then), and `StateError` for a second attach.
    public func attach(x11Window id: UInt) throws {
        let made: Result<Void, any Error> = try checked { side throws(StateError) in
            guard !side.isAttached, !side.presenting else { throw .alreadyAttached }
            do {
                side.output = try PlayerOutput.x11(window: id)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try made.get()
    }

    /// Starts showing: the first frame is drawn by the next `render()`, and `--wait` counts from
    /// here. Starts the run if `prepare` did not.
    public func present() throws(StateError) {
        try checked { side throws(StateError) in
            guard !side.endDelivered else { throw .ended }
            guard side.isAttached else { throw .notAttached }
            side.presenting = true
        }
        startFlow()
        stage.presented()
    }

    /// One turn: what the decoders made taken, the countdown run, a frame drawn when due, the
    /// events waiting delivered. Call it every frame of the application's loop (or when woken).
    public func render() throws(StateError) -> RenderResult {
        let result = try checked { side throws(StateError) -> RenderResult in
            guard !side.endedReturned else { throw .ended }
            let r = turn(&side)
            if r == .ended { side.endedReturned = true }
            return r
        }
        closeIfAsked()
        return result
    }

    private func turn(_ side: inout HostSide) -> RenderResult {
        let (inputs, dismissed) = shared.withLock { s in
            defer { s.inputs = [] }
            return (s.inputs, s.dismissed)
        }
        let showing = side.presenting || dismissed
        if side.current == nil, showing, let next = stage.takePlayer() {
            side.current = next
            side.currentAttached = false
        }
        var drew = false
        if let player = side.current, showing {
            if side.output == nil, let size = side.pendingBuffer { side.output = try? PlayerOutput.buffer(size) }
            if side.output == nil, let gl = side.pendingGL { side.output = try? PlayerOutput.gl(gl) }
            if !side.currentAttached, let output = side.output {
                player.attach(output)
                side.currentAttached = true
            }
            for input in inputs { player.handle(input) }
            if dismissed { player.handle(.control(.end)) }
            // Presented before the ad was ready: `ready` is said now, before its first frame.
            if player.readiness == .ready, stage.sayReady() { queue.emit(.ready) }
            if let result = player.step() {
                side.current = nil
                stage.finished(result)
            } else {
                drew = player.drewFrame
            }
        } else if !inputs.isEmpty {
            // Not showing yet: the inputs wait for the ad.
            shared.withLock { $0.inputs = inputs + $0.inputs }
        }
        deliver(&side)
        if side.endDelivered && side.current == nil {
            // SDL's window over the application's X11 window goes now: the window is its own again.
            // A GL output's objects go while the host's context is current (else at close).
            if side.output?.kind == .x11Window || side.output?.releaseHostResources(force: false) == true { side.output = nil }
            return .ended
        }
        return drew ? .drawn : .idle
    }

    /// Whether the calling thread is inside one of this ad's calls (its event callback).
    public var isInsideCall: Bool { host.isReentrant }

    /// Delivers the events waiting; returns how many (0 from inside `onEvent`).
    @discardableResult
    public func pollEvents() -> Int {
        let n = host.run { side in deliver(&side) } ?? 0
        closeIfAsked()
        return n
    }

    @discardableResult
    private func deliver(_ side: inout HostSide) -> Int {
        let events = queue.drain()
        for e in events {
            side.onEvent?(e)
            for c in side.continuations { c.yield(e) }
            if case .end = e.event {
                side.endDelivered = true
                for c in side.continuations { c.finish() }
                side.continuations = []
            }
        }
        return events.count
    }

    /// An input from the application (a click or tap in output pixels, a key, its window's
    /// focus), acted on at the next `render()`. From any thread; never waits.
    public func input(_ input: SessionInput) { shared.withLock { $0.inputs.append(input) } }

    /// Ends the ad now (`ended_by_host`); its `end` comes with a coming `render()`. From any
    /// thread; never waits.
    public func dismiss() {
        shared.withLock { $0.dismissed = true }
        stage.presented()
        startFlow()
    }

    /// Stops everything: the decoders, the sound, the run (waiting beacons stay in the outbox
    /// for the next run). Textures made on an application's renderer are destroyed here: call it
    /// before destroying that renderer. From inside `onEvent` it takes effect when the outer
    /// call returns.
    public func close() {
        if host.isReentrant {
            shared.withLock { $0.closeAsked = true }
            return
        }
        let first = shared.withLock { s -> Bool in
            defer { s.closed = true }
            return !s.closed
        }
        guard first else { return }
        cancellation.cancel()
        waker.close()
        if let waiting = stage.abort() { waiting.stop() }
        _ = host.run { side in
            side.current?.stop()
            side.current = nil
            side.output?.releaseHostResources()
            side.output = nil
            side.closed = true
            for c in side.continuations { c.finish() }
            side.continuations = []
        }
        shared.withLock { $0.refresh }?.prefetcher.cancel()
    }

    private func closeIfAsked() {
        if shared.withLock({ $0.closeAsked }) && !host.isReentrant { close() }
    }

    /// The output attached, the GL context waiting for the first turn, and whether another may
    /// be attached, as the thread inside (LaunchAd+GL.swift).
    func withOutput<T>(_ body: (PlayerOutput?, inout GLOutput?, _ attachable: Bool) throws(StateError) -> T) throws(StateError) -> T {
        try checked { side throws(StateError) in try body(side.output, &side.pendingGL, !side.isAttached && !side.presenting) }
    }

    /// Runs `body` as the thread inside; `.reentrant` from inside `onEvent`, `.ended` after `close`.
    private func checked<T>(_ body: (inout HostSide) throws(StateError) -> T) throws(StateError) -> T {
        let outcome: Result<T, StateError>? = host.run { side in
            guard !side.closed else { return .failure(.ended) }
            do throws(StateError) { return .success(try body(&side)) } catch { return .failure(error) }
        }
        guard let outcome else { throw .reentrant }
        return try outcome.get()
    }
}
