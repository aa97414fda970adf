import Foundation
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdMedia

/// `launchad launch`: the cached ad at once, a background refresh for next time, then the app.
public enum LaunchCommand {
    /// Plays the chosen ad with these options, its creative held to this reach, its play
    /// recorded for this collector.
    typealias AdPlay = (AdChoice, PlayOptions, Reach, ReportTarget?) -> PlayResult

    public static func run(_ o: LaunchOptions) -> Int32 {
        // FFmpeg's ~30 ms of loading overlaps reading the cache and SDL's start-up.
        FFmpegLibraries.openInBackground()
        let out: EventSink
        do { out = try PlayCommand.eventSink(path: o.play.eventsPath) } catch {
            return PrefetchCommand.fail("\(error)", ExitCode.usage)
        }
        // An unwritable --metrics is one event and one line: the ad still plays and the app starts.
        let metricsPath = MetricsReport.check(o.play.metricsPath, events: out)
        let sink = MetricsSink(out, adID: "")
        var refresh: BackgroundRefresh?
        // What earlier runs left in the outbox goes out while the ad plays, on its own thread.
        let outbox = o.cache.delivery.openOutbox(events: sink)
        outbox?.startSending()
        var refused = false
        var store: CacheStore?
        let held = o.then.isEmpty ? nil : HeldPicture()
        let shown = showAd(
            o, sink: sink, queue: outbox, presenter: WindowPresenter(), refresh: &refresh, cacheRefused: &refused, store: &store, held: held
        )
        // The app starts right after the ad; the refresh may go on meanwhile, but this process
        // does not end before it is over (or out of time), and `end` stays the last event.
        // The windows there before the app: a new one that names no owner is taken for the app's.
        let windowsBefore = held?.player?.windowsNow()
        let app = o.then.isEmpty ? nil : startApp(o.then, sink: sink)
        let keepAlive = app.flatMap { app in
            PlayCommand.serviceNotifier.map { notifier in
                notifier.notify(WatchdogPolicy.appStarted(o.then[0], pid: app.pid))
                return ServiceKeepAlive(notifier)
            }
        }
        defer { keepAlive?.stop() }
        handOff(held, to: app, hold: o.hold, windowsBefore: windowsBefore, sink: sink)
        // Counted for the frequency caps once the app is on screen (the cache lock may be busy).
        count(shown, in: store)
        refresh?.finish(timeout: o.refreshTimeout)
        outbox?.finish(waitingAtMost: o.cache.delivery.beaconWait)
        sink.emit(.end(LaunchRun.end(shown)))
        // After the `end` has passed the metrics sink.
        writeMetrics(o, checked: metricsPath, run: sink.run, outbox: outbox)
        return LaunchRun.exitStatus(shown, appGiven: !o.then.isEmpty, appStatus: app.map(waitForApp), cacheRefused: refused)
    }

    /// `launch`'s run without an app (the embedding library): the cached (or streamed) ad shown
    /// by `presenter`, its `end` written as soon as it is over (the application's window is its
    /// own again), then the refresh and the outbox given their time on this thread. `refreshed`
    /// receives the refresh as it starts, so that the caller can cancel it.
    public static func flow(
        _ o: LaunchOptions, sink: EventSink, presenter: AdPresenter, refreshed: @escaping (BackgroundRefresh) -> Void = { _ in }
    ) -> Outcome {
        FFmpegLibraries.openInBackground()
        let outbox = o.cache.delivery.openOutbox(events: sink)
        outbox?.startSending()
        var refresh: BackgroundRefresh?
        var refused = false
        var store: CacheStore?
        let shown = showAd(
            o, sink: sink, queue: outbox, presenter: presenter, refresh: &refresh, cacheRefused: &refused, store: &store, held: nil)
        if let refresh { refreshed(refresh) }
        count(shown, in: store)
        let end = LaunchRun.end(shown)
        sink.emit(.end(end))
        refresh?.finish(timeout: o.refreshTimeout)
        outbox?.finish(waitingAtMost: o.cache.delivery.beaconWait)
        return end.outcome
    }

    /// Writes the ad's play into the cache index, where the frequency caps of later launches
    /// count it (only the ad itself, not its fallback); a cache that cannot be written is said on stderr.
    static func count(_ shown: LaunchRun.Shown, in store: CacheStore?) {
        guard let store, let play = LaunchRun.countedPlay(shown, nowMs: ProcessClock.nowMs(), now: Date()) else { return }
        do { try store.recordPlay(play.adID, at: play.at) } catch {
            FileHandle.standardError.write(TerminalText.line("cannot count the play for the frequency caps: \(error)"))
        }
    }

    /// `--metrics` when it passed its check at start (`checked`), else the local manifest's
    /// `metrics` as the last refresh recorded it.
    static func writeMetrics(_ o: LaunchOptions, checked: String?, run: PlayMetrics, outbox: Outbox?) {
        let cache = try? CacheStore(directory: o.cache.cacheDirectory())
        guard let path = o.play.metricsPath == nil ? cache?.readIndex().manifest?.metrics : checked else { return }
        MetricsReport.write(path, run: run.outcome == nil ? nil : run, cache: cache, outbox: outbox)
    }

    /// Picks and plays the ad (or reports none) while the refresh runs; returns when the ad is
    /// over, with the refresh (still running, maybe) in `started`.
    static func showAd(
        _ o: LaunchOptions, sink: EventSink, queue: BeaconQueue?, presenter: AdPresenter, refresh started: inout BackgroundRefresh?,
        cacheRefused: inout Bool, store opened: inout CacheStore?, held: HeldPicture?
    ) -> LaunchRun.Shown {
        // A player that cannot run shows no ad; the app still starts.
        if let problem = LibraryCheck.player() {
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
            FileHandle.standardError.write(TerminalText.line("\(error)"))
            cacheRefused = (error as? CacheError)?.isRefusal == true
            return .noAd(cacheRefused ? .cacheRefused : .cacheUnavailable)
        }
        opened = store
        let index = store.readIndex()
        let choice = AdSelector.choose(
            from: index.ads.map(\.ad), now: Date(), screen: o.screen, plays: index.plays ?? [:],
            isAvailable: { store.isAvailable($0, in: index) })
        // The refresh first notes the cached ad as shown, and never deletes its files.
        let shownFiles = choice.map { [$0.variant] + ($0.fallback.map { [$0] } ?? []) }?.map(\.sha256) ?? []
        let now = Date()
        let prefetcher = Prefetcher(
            store: store, fetcher: PrefetchCommand.network(o.cache),
            sink: TeeSink([sink, RejectionPrinter()]), config: config,
            beacons: queue, protected: Set(shownFiles))
        var markShown: (@Sendable () -> Void)?
        if !shownFiles.isEmpty { markShown = { _ = try? store.markShown(shownFiles, at: now) } }
        let refresh = BackgroundRefresh(prefetcher, before: markShown)
        started = refresh

        let play = { (choice: AdChoice, options: PlayOptions, reach: Reach, report: ReportTarget?) in
            playAd(choice, options, o, sink: sink, reach: reach, report: report, queue: queue, presenter: presenter, held: held)
        }
        if let choice { return playCached(choice, o, index: index, store: store, refresh: refresh, sink: sink, play: play) }
        sink.emit(.cacheMiss(reason: index.ads.isEmpty ? .empty : .nothingReady))
        refresh.start()
        return playFromNetwork(o, refresh: refresh, sink: sink, plays: index.plays ?? [:], play: play)
    }

    /// The usual launch: the cached files, while the refresh (made to note the ad as shown
    /// first, and never to delete its files) runs beside it.
    static func playCached(
        _ choice: AdChoice, _ o: LaunchOptions, index: CacheIndex, store: CacheStore,
        refresh: BackgroundRefresh, sink: EventSink, play playAd: AdPlay
    ) -> LaunchRun.Shown {
        let path = { (c: Creative) in store.url(of: index.files[c.sha256]!).path }
        sink.emit(.cacheHit(id: choice.ad.id, sha256: choice.variant.sha256, file: path(choice.variant)))
        refresh.start()
        var play = LaunchRun.options(
            o.play, for: choice, file: path(choice.variant), fallback: choice.fallback.map(path), handsOff: !o.then.isEmpty)
        // The captions cached with the creative (a caption problem never holds the ad back).
        if let c = choice.ad.captions, store.isAvailable(c, in: index) { play.captions = play.captions ?? path(c) }
        let report = o.cache.delivery.reportTarget ?? index.manifest?.report
        // An ad cached by an older launchad (no reach recorded) is held to public addresses until refreshed.
        let reach = index.record(for: choice.ad.id)?.reach ?? .publicOnly
        return .played(playAd(choice, play, reach, report), adID: choice.ad.id, streamed: false)
    }

    /// `queue`, holding the ad's beacons to the addresses the documents that named them allow.
    static func reaching(_ queue: BeaconQueue?, _ reach: Reach) -> ReachQueue? { ReachQueue.fixed(queue, reach) }

    /// Nothing cached to show: the manifest's ad straight from the network, if the manifest
    /// comes within --wait and the creative starts within what is left of it.
    static func playFromNetwork(
        _ o: LaunchOptions, refresh: BackgroundRefresh, sink: EventSink, plays: [String: [Date]], play playAd: AdPlay
    ) -> LaunchRun.Shown {
        let waitBegan = ProcessClock.uptimeSeconds()
        guard let manifest = refresh.waitForManifest(timeout: o.play.wait) else { return .noAd(.noManifest) }
        guard
            let choice = AdSelector.choose(
                from: manifest.ads, now: Date(), screen: o.screen, plays: plays,
                isAvailable: { streamable($0.url, allowHTTP: o.cache.allowHTTP) })
        else {
            return .noAd(.nothingScheduled)
        }
        var play = LaunchRun.options(
            o.play, for: choice, file: location(choice.variant.url), fallback: choice.fallback.map { location($0.url) },
            handsOff: !o.then.isEmpty)
        if let c = choice.ad.captions, streamable(c.url, allowHTTP: o.cache.allowHTTP) { play.captions = play.captions ?? location(c.url) }
        play.wait = max(0.5, o.play.wait - (ProcessClock.uptimeSeconds() - waitBegan))
        sink.emit(.stream(id: choice.ad.id, url: choice.variant.url.absoluteString))
        let report = o.cache.delivery.reportTarget ?? manifest.report
        // The creative and its captions stream from where the manifest says: its reach holds.
        return .played(playAd(choice, play, refresh.prefetcher.manifestReach, report), adID: choice.ad.id, streamed: true)
    }

    /// Plays the chosen ad with its tracking and play record, its creative, captions and
    /// beacons held to `reach`; its end is watched (beacons and record on disk) as soon as it is
    /// over, and written as the run's `end` only after the hand-off.
    static func playAd(
        _ choice: AdChoice, _ play: PlayOptions, _ o: LaunchOptions, sink: EventSink, reach: Reach,
        report: ReportTarget?, queue: BeaconQueue?, presenter: AdPresenter, held: HeldPicture?
    ) -> PlayResult {
        let record = o.cache.delivery.recording(
            sink, target: report, outbox: queue as? Outbox, adID: choice.ad.id,
            sha256: { [sha = choice.variant.sha256] in sha }, options: play)
        let stream = AdStream(sink, tracking: tracked(choice, play, queue: reaching(queue, reach)), record: record)
        let result = PlayCommand.play(
            play, sink: stream, network: PrefetchCommand.streaming(o.cache, reach: reach), presenter: presenter, holding: held,
            reportsEnd: false)
        stream.adEnded(.end(result.end), written: false)
        return result
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

    /// Keeps the ad's last picture until the app's window is there (or the hold runs out), then
    /// closes it; the `handoff` event says which.
    static func handOff(_ held: HeldPicture?, to app: AppProcess?, hold: Double, windowsBefore: Set<UInt32>?, sink: EventSink) {
        guard let player = held?.player else { return }
        guard let app else { return player.close() }
        guard let (ending, waited) = player.handOff(appPID: app.pid, holdSeconds: hold, windowsBefore: windowsBefore) else { return }
        sink.emit(.handoff(via: ending, appPID: Int(app.pid), waitedMs: waited))
    }

    /// Starts `CMD ARGS...` (looked up on PATH) with this process's stdin, stdout and stderr;
    /// from then on the launcher's SIGTERM, SIGINT and SIGHUP go to it. A SIGTERM or SIGINT that
    /// came before (and ended the ad) goes to it at once: it was meant for the whole run (systemd
    /// stopping the unit as it starts), and the app decides how to end.
    /// One that cannot be started is an `app_not_started` event and a line on stderr (exit 127).
    static func startApp(_ command: [String], sink: EventSink) -> AppProcess? {
        let early = QuitSignal.requested
        let forwarder = SignalForwarder()
        let app: AppProcess
        do { app = try AppProcess.spawn(command) } catch {
            sink.emit(.appNotStarted(app: command[0], message: "\(error)"))
            FileHandle.standardError.write(TerminalText.line("\(error)"))
            forwarder.cancel()
            return nil
        }
        forwarder.forward(to: app)
        if let early { app.signal(early) }
        signalForwarder = forwarder
        return app
    }

    // Set once on the main thread before the app is awaited; kept only so the handlers live on.
    nonisolated(unsafe) private static var signalForwarder: SignalForwarder?

    /// The app's exit status; 128+N when signal N ended it (as a shell reports it).
    static func waitForApp(_ app: AppProcess) -> Int32 { app.wait() }
}
