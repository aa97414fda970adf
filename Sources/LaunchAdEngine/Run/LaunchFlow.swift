import Foundation
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdMedia
import LaunchAdPlayer

/// `launch`'s run without its process: the cached ad at once (or the manifest's straight from the
/// network on a first launch), a background refresh for next time, the outbox, the play counted
/// for the frequency caps. The command line adds the app, the hand-off, metrics and the exit
/// status between these steps; the library calls them in order with no app.
public final class LaunchFlow {
    private let o: LaunchOptions
    private let sink: EventSink
    private let context: RunContext
    private let network: RunNetwork
    /// The outbox this run queues to and sends from; nil when the state folder cannot be used.
    public let outbox: Outbox?
    private let state = Locked<(refresh: BackgroundRefresh?, store: CacheStore?)>((nil, nil))
    /// Whether the cache folder was refused (not launchad's, another user's): an exit status of its own.
    public private(set) var cacheRefused = false

    /// Opens the outbox and starts sending what earlier runs left, while the ad plays.
    public init(_ o: LaunchOptions, sink: EventSink, context: RunContext) {
        self.o = o; self.sink = sink; self.context = context
        network = RunNetwork(o.cache)
        outbox = o.cache.delivery.openOutbox(events: sink, network: network)
        outbox?.startSending()
    }

    /// The background refresh, once `showAd` started it (a library's close cancels it).
    public var refresh: BackgroundRefresh? { state.withLock { $0.refresh } }

    /// The embedded run: the ad shown by `presenter`, its `end` written as soon as it is over
    /// (the application's window is its own again), then the refresh and the outbox given their
    /// time on this thread. `refreshed` receives the refresh as it starts, so that the caller can
    /// cancel it.
    public func run(presenter: AdPresenter, refreshed: @escaping (BackgroundRefresh) -> Void) -> Outcome {
        let shown = showAd(presenter: presenter, held: nil)
        if let refresh { refreshed(refresh) }
        countPlay(shown)
        let end = LaunchRun.end(shown)
        sink.emit(.end(end))
        finishBackground()
        return end.outcome
    }

    /// Picks and plays the ad (or reports none) while the refresh runs; returns when the ad is
    /// over. With `held`, the window and the ad's last picture stay for the hand-off to an app.
    public func showAd(presenter: AdPresenter, held: HeldPicture?) -> LaunchRun.Shown {
        // A player that cannot run shows no ad; the app still starts.
        if let problem = FFmpegLibraries.problem() ?? SDLLibraries.problem() {
            context.note(problem)
            let error = PlayError(.libraryMissing, problem)
            sink.emit(.error(error))
            return .failed(error)
        }
        let store: CacheStore
        let config: PrefetchConfig
        do {
            store = try CacheStore(directory: o.cache.cacheDirectory(), lockTimeout: 5)
            config = try o.cache.prefetchConfig(screen: o.screen)
        } catch {
            context.note("\(error)")
            cacheRefused = (error as? CacheError)?.isRefusal == true
            return .noAd(cacheRefused ? .cacheRefused : .cacheUnavailable)
        }
        let index = store.readIndex()
        // With trusted keys, the cache shows only the current manifest's ads, signed by one of
        // them (its expiry aside): a record kept from an older or unsigned manifest is not shown.
        let playable = ManifestTrustCheck.playable(index, trust: config.trust)
        let choice = AdSelector.choose(
            from: playable, now: Date(), screen: o.screen, plays: index.plays ?? [:],
            isAvailable: { store.isAvailable($0, in: index) })
        // The refresh first notes the cached ad as shown, and never deletes its files.
        let shownFiles = choice.map { [$0.variant] + ($0.fallback.map { [$0] } ?? []) }?.map(\.sha256) ?? []
        let now = Date()
        let prefetcher = Prefetcher(
            store: store, fetcher: network.fetcher, sink: TeeSink([sink, RejectionNotes(context)]), config: config,
            beacons: outbox, protected: Set(shownFiles))
        var markShown: (@Sendable () -> Void)?
        if !shownFiles.isEmpty { markShown = { _ = try? store.markShown(shownFiles, at: now) } }
        let refresh = BackgroundRefresh(prefetcher, before: markShown)
        state.withLock { $0 = (refresh, store) }

        let ad = Ad(flow: self, presenter: presenter, held: held)
        if let choice { return playCached(choice, index: index, store: store, refresh: refresh, ad: ad) }
        sink.emit(.cacheMiss(reason: index.ads.isEmpty ? .empty : playable.isEmpty ? .unverified : .nothingReady))
        refresh.start()
        return playFromNetwork(refresh: refresh, plays: index.plays ?? [:], ad: ad)
    }

    /// Writes the ad's play into the cache index, where the frequency caps of later launches
    /// count it (only the ad itself, not its fallback); a cache that cannot be written is a note.
    public func countPlay(_ shown: LaunchRun.Shown) {
        guard let store = state.withLock({ $0.store }), let play = LaunchRun.countedPlay(shown, nowMs: ProcessClock.nowMs(), now: Date())
        else { return }
        do { try store.recordPlay(play.adID, at: play.at) } catch {
            context.note("cannot count the play for the frequency caps: \(error)")
        }
    }

    /// Gives the refresh `--refresh-timeout` and the outbox `--beacon-wait`; both end at once
    /// when the run is cancelled.
    public func finishBackground() {
        refresh?.finish(timeout: o.refreshTimeout, cancellation: context.cancellation)
        outbox?.finish(waitingAtMost: o.cache.delivery.beaconWait, cancellation: context.cancellation)
    }

    /// The metrics file this run writes (`--metrics` if it passed its check, else the manifest's).
    public func metricsPath(checked: String?) -> String? {
        let cache = try? CacheStore(directory: o.cache.cacheDirectory())
        return LaunchRun.metricsPath(given: o.play.metricsPath, checked: checked, manifest: cache?.readIndex().manifest?.metrics)
    }

    /// The usual launch: the cached files, while the refresh (made to note the ad as shown
    /// first, and never to delete its files) runs beside it.
    private func playCached(
        _ choice: AdChoice, index: CacheIndex, store: CacheStore, refresh: BackgroundRefresh, ad: Ad
    ) -> LaunchRun.Shown {
        let path = { (c: Creative) in store.url(of: index.files[c.sha256]!).path }
        sink.emit(.cacheHit(id: choice.ad.id, sha256: choice.variant.sha256, file: path(choice.variant)))
        refresh.start()
        // The captions cached with the creative (a caption problem never holds the ad back).
        let captions = choice.ad.captions.flatMap { store.isAvailable($0, in: index) ? path($0) : nil }
        let play = LaunchRun.options(
            o.play, for: choice, file: path(choice.variant), fallback: choice.fallback.map(path), captions: captions,
            handsOff: !o.then.isEmpty)
        // An ad cached by an older launchad (no reach recorded) is held to public addresses until refreshed.
        let reach = index.record(for: choice.ad.id)?.reach ?? .publicOnly
        let report = LaunchRun.reportTarget(commandLine: o.cache.delivery.reportTarget, manifest: index.manifest?.report)
        return .played(ad.play(choice, play, reach: reach, report: report), adID: choice.ad.id, streamed: false)
    }

    /// Nothing cached to show: the manifest's ad straight from the network, if the manifest
    /// comes within --wait and the creative starts within what is left of it.
    private func playFromNetwork(refresh: BackgroundRefresh, plays: [String: [Date]], ad: Ad) -> LaunchRun.Shown {
        let waitBegan = ProcessClock.uptimeSeconds()
        guard let manifest = refresh.waitForManifest(timeout: o.play.wait, cancellation: context.cancellation) else {
            return .noAd(.noManifest)
        }
        let allowHTTP = o.cache.allowHTTP
        guard
            let choice = AdSelector.choose(
                from: manifest.ads, now: Date(), screen: o.screen, plays: plays,
                isAvailable: { Self.streamable($0.url, allowHTTP: allowHTTP) })
        else {
            return .noAd(.nothingScheduled)
        }
        let captions = choice.ad.captions.flatMap { Self.streamable($0.url, allowHTTP: allowHTTP) ? Self.location($0.url) : nil }
        let play = LaunchRun.options(
            o.play, for: choice, file: Self.location(choice.variant.url), fallback: choice.fallback.map { Self.location($0.url) },
            captions: captions, waitLeft: o.play.wait - (ProcessClock.uptimeSeconds() - waitBegan), handsOff: !o.then.isEmpty)
        sink.emit(.stream(id: choice.ad.id, url: choice.variant.url.absoluteString))
        let report = LaunchRun.reportTarget(commandLine: o.cache.delivery.reportTarget, manifest: manifest.report)
        // The creative and its captions stream from where the manifest says: its reach holds.
        return .played(
            ad.play(choice, play, reach: refresh.prefetcher.manifestReach, report: report), adID: choice.ad.id, streamed: true)
    }

    /// Plays the chosen ad with its tracking and play record, its creative, captions and
    /// beacons held to `reach`; its end is watched (beacons and record on disk) as soon as it is
    /// over, and written as the run's `end` only after the hand-off.
    private struct Ad {
        let flow: LaunchFlow
        let presenter: AdPresenter
        let held: HeldPicture?

        func play(_ choice: AdChoice, _ play: PlayOptions, reach: Reach, report: ReportTarget?) -> PlayResult {
            let o = flow.o
            let record = o.cache.delivery.recording(
                flow.sink, target: report, outbox: flow.outbox, adID: choice.ad.id,
                sha256: { [sha = choice.variant.sha256] in sha }, options: play)
            let tracking = LaunchFlow.tracked(choice, play, queue: ReachQueue.fixed(flow.outbox, reach))
            let stream = AdStream(flow.sink, tracking: tracking, record: record)
            var ad = AdPlay(options: play, network: flow.network, reach: reach, context: flow.context)
            ad.holding = held
            ad.reportsEnd = false
            let result = ad.play(sink: stream, presenter: presenter)
            stream.adEnded(.end(result.end), written: false)
            return result
        }
    }

    /// The manifest's `tracking` for the chosen ad, fired as VAST tracking is (the same tracker,
    /// macros and outbox): impression, creativeView and start at the first frame, the quartiles
    /// on shown time, and so on.
    static func tracked(_ choice: AdChoice, _ play: PlayOptions, queue: ReachQueue?) -> TrackingWatcher? {
        guard let queue, let ad = ManifestTracking.resolvedAd(choice.ad, reach: queue.reach) else { return nil }
        var context = MacroContext(timestamp: Date(), cacheBusting: "", deviceUA: VASTPlay.userAgent)
        context.fullscreen = play.fullscreen
        context.muted = play.muted
        context.skippable = play.showSkip
        context.assetURI = choice.variant.url.absoluteString
        context.transactionID = UUID().uuidString.lowercased()
        return TrackingWatcher(tracker: VASTTracker(ad: ad, context: context), queue: queue)
    }

    /// A URL the first launch may play straight away: one the policy allows, and for a file a
    /// regular file (a FIFO or device would be read forever).
    static func streamable(_ url: URL, allowHTTP: Bool) -> Bool {
        guard (try? URLPolicy.check(url, allowHTTP: allowHTTP)) != nil else { return false }
        guard url.isFileURL else { return true }
        var st = stat()
        return stat(url.path, &st) == 0 && st.st_mode & S_IFMT == S_IFREG
    }

    static func location(_ url: URL) -> String { url.isFileURL ? url.path : url.absoluteString }
}

/// Passes `rejected` events on as notes ("ID: REASON"), and `manifest_rejected` ones ("manifest
/// URL refused (REASON): ..."): the command line prints them on stderr.
final class RejectionNotes: EventSink, Sendable {
    private let context: RunContext
    init(_ context: RunContext) { self.context = context }
    func emit(_ event: AdEvent) {
        if let note = event.event.refusalNote { context.note(note) }
    }
}

/// Sends each event to several sinks.
public final class TeeSink: EventSink, Sendable {
    private let sinks: [EventSink]
    public init(_ sinks: [EventSink]) { self.sinks = sinks }
    public func emit(_ event: AdEvent) { sinks.forEach { $0.emit(event) } }
}
