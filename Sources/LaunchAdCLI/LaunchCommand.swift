import Foundation
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdMedia

/// `launchad launch`: the cached ad at once, a background refresh for next time, then the app.
public enum LaunchCommand {
    public static func run(_ o: LaunchOptions) -> Int32 {
        // FFmpeg's ~30 ms of loading overlaps reading the cache and SDL's start-up.
        FFmpegLibraries.openInBackground()
        let out: EventSink
        do { out = try PlayCommand.eventSink(path: o.play.eventsPath) } catch {
            return PrefetchCommand.fail("\(error)", ExitCode.usage)
        }
        if let refused = MetricsReport.check(o.play.metricsPath) { return refused }
        let metrics = MetricsSink(out, adID: "")
        let sink = HeldEndSink(metrics)
        var refresh: BackgroundRefresh?
        // What earlier runs left in the outbox goes out while the ad plays, on its own thread.
        let outbox = o.cache.delivery.openOutbox(events: sink)
        outbox?.startSending()
        var refused = false
        var play: ShownPlay?
        let held = o.then.isEmpty ? nil : HeldPicture()
        let outcome = showAd(o, sink: sink, queue: outbox, refresh: &refresh, cacheRefused: &refused, shown: &play, held: held)
        // The app starts right after the ad; the refresh may go on meanwhile, but this process
        // does not end before it is over (or out of time), and `end` stays the last event.
        let app = o.then.isEmpty ? nil : startApp(o.then)
        let keepAlive = app.flatMap { app in
            PlayCommand.serviceNotifier.map { notifier in
                notifier.notify(WatchdogPolicy.appStarted(o.then[0], pid: app.pid))
                return ServiceKeepAlive(notifier)
            }
        }
        defer { keepAlive?.stop() }
        handOff(held, to: app, hold: o.hold, sink: sink)
        // Counted for the frequency caps once the app is on screen (the cache lock may be busy).
        play?.record()
        refresh?.finish(timeout: o.refreshTimeout)
        outbox?.finish(waitingAtMost: o.cache.delivery.beaconWait)
        sink.release()
        // After the held `end` has passed the metrics sink.
        writeMetrics(o, run: metrics.run, outbox: outbox)
        guard !o.then.isEmpty else { return refused ? ExitCode.usage : outcome.exitCode }
        return app.map(waitForApp) ?? 127
    }

    /// `--metrics`, else the local manifest's `metrics` as the last refresh recorded it.
    static func writeMetrics(_ o: LaunchOptions, run: PlayMetrics, outbox: Outbox?) {
        let cache = try? CacheStore(directory: o.cache.cacheDirectory())
        guard let path = o.play.metricsPath ?? cache?.readIndex().manifest?.metrics else { return }
        MetricsReport.write(path, run: run.outcome == nil ? nil : run, cache: cache, outbox: outbox)
    }

    /// Picks and plays the ad (or reports none) while the refresh runs; returns when the ad is
    /// over, with the refresh (still running, maybe) in `started`.
    static func showAd(
        _ o: LaunchOptions, sink: HeldEndSink, queue: BeaconQueue?, refresh started: inout BackgroundRefresh?,
        cacheRefused: inout Bool, shown: inout ShownPlay?, held: HeldPicture?
    ) -> Outcome {
        let store: CacheStore
        let config: PrefetchConfig
        do {
            store = try CacheStore(directory: o.cache.cacheDirectory(), lockTimeout: 5)
            config = try o.cache.prefetchConfig(screen: o.screen)
        } catch {
            FileHandle.standardError.write(Data("launchad: \(error)\n".utf8))
            cacheRefused = (error as? CacheError)?.isRefusal == true
            return noAd(sink, reason: cacheRefused ? "cache_refused" : "cache_unavailable")
        }
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

        if let choice {
            let tally = ShownPlay(store: store, id: choice.ad.id, sink: sink)
            shown = tally
            return playCached(choice, o, index: index, store: store, refresh: refresh, sink: tally, queue: queue, held: held)
        }
        sink.emit(AdEvent("cache_miss", tMs: ProcessClock.nowMs(), [("reason", .string(index.ads.isEmpty ? "empty" : "nothing_ready"))]))
        refresh.start()
        return playFromNetwork(
            o, refresh: refresh, sink: sink, queue: queue, store: store, plays: index.plays ?? [:], shown: &shown, held: held)
    }

    /// The usual launch: the cached files, while the refresh (made to note the ad as shown
    /// first, and never to delete its files) runs beside it.
    static func playCached(
        _ choice: AdChoice, _ o: LaunchOptions, index: CacheIndex, store: CacheStore,
        refresh: BackgroundRefresh, sink: EventSink, queue: BeaconQueue?, held: HeldPicture?
    ) -> Outcome {
        let path = { (c: Creative) in store.url(of: index.files[c.sha256]!).path }
        sink.emit(
            AdEvent(
                "cache_hit", tMs: ProcessClock.nowMs(),
                [("id", .string(choice.ad.id)), ("sha256", .string(choice.variant.sha256)), ("file", .string(path(choice.variant)))]))
        refresh.start()
        var play = playOptions(o, choice, file: path(choice.variant), fallback: choice.fallback.map(path))
        // The captions cached with the creative (a caption problem never holds the ad back).
        if let c = choice.ad.captions, store.isAvailable(c, in: index) { play.captions = play.captions ?? path(c) }
        let report = o.cache.delivery.reportTarget ?? index.manifest?.report
        // An ad cached by an older launchad (no reach recorded) is held to public addresses until refreshed.
        let reach = index.record(for: choice.ad.id)?.reach ?? .publicOnly
        let beacons = reaching(queue, reach)
        return PlayCommand.play(
            play, sink: recorded(tracked(sink, choice, play, queue: beacons), choice, play, o, report: report, queue: queue),
            network: PrefetchCommand.streaming(o.cache, reach: reach),
            holding: held)
    }

    /// `queue`, holding the ad's beacons to the addresses the documents that named them allow.
    static func reaching(_ queue: BeaconQueue?, _ reach: Reach) -> ReachQueue? { ReachQueue.fixed(queue, reach) }

    /// Nothing cached to show: the manifest's ad straight from the network, if the manifest
    /// comes within --wait and the creative starts within what is left of it.
    static func playFromNetwork(
        _ o: LaunchOptions, refresh: BackgroundRefresh, sink: HeldEndSink, queue: BeaconQueue?,
        store: CacheStore, plays: [String: [Date]], shown: inout ShownPlay?, held: HeldPicture?
    ) -> Outcome {
        let waitBegan = ProcessClock.uptimeSeconds()
        guard let manifest = refresh.waitForManifest(timeout: o.play.wait) else {
            return noAd(sink, reason: "no_manifest")
        }
        guard
            let choice = AdSelector.choose(
                from: manifest.ads, now: Date(), screen: o.screen, plays: plays,
                isAvailable: { streamable($0.url, allowHTTP: o.cache.allowHTTP) })
        else {
            return noAd(sink, reason: "nothing_scheduled")
        }
        var play = playOptions(o, choice, file: location(choice.variant.url), fallback: choice.fallback.map { location($0.url) })
        if let c = choice.ad.captions, streamable(c.url, allowHTTP: o.cache.allowHTTP) { play.captions = play.captions ?? location(c.url) }
        play.wait = max(0.5, o.play.wait - (ProcessClock.uptimeSeconds() - waitBegan))
        sink.emit(
            AdEvent(
                "stream", tMs: ProcessClock.nowMs(), [("id", .string(choice.ad.id)), ("url", .string(choice.variant.url.absoluteString))]))
        let report = o.cache.delivery.reportTarget ?? manifest.report
        let tally = ShownPlay(store: store, id: choice.ad.id, sink: sink)
        shown = tally
        // The creative and its captions stream from where the manifest says: its reach holds.
        let reach = refresh.prefetcher.manifestReach
        let beacons = reaching(queue, reach)
        let outcome = PlayCommand.play(
            play, sink: recorded(tracked(tally, choice, play, queue: beacons), choice, play, o, report: report, queue: queue),
            network: PrefetchCommand.streaming(o.cache, reach: reach),
            holding: held)
        guard outcome != .timeout else {
            sink.rewriteOutcome(to: .noAd, reason: "creative_late")
            return .noAd
        }
        return outcome
    }

    /// The manifest's `tracking` for the chosen ad, fired as VAST tracking is (the same tracker,
    /// macros and outbox): impression, creativeView and start at the first frame, the quartiles
    /// on shown time, and so on.
    static func tracked(_ sink: EventSink, _ choice: AdChoice, _ play: PlayOptions, queue: ReachQueue?) -> EventSink {
        guard let queue, let ad = ManifestTracking.resolvedAd(choice.ad) else { return sink }
        var context = MacroContext(timestamp: Date(), cacheBusting: "", deviceUA: VASTPlay.userAgent)
        context.fullscreen = play.fullscreen
        context.muted = play.muted
        context.skippable = play.showSkip
        context.assetURI = choice.variant.url.absoluteString
        context.transactionID = UUID().uuidString.lowercased()
        return TrackingSink(sink, tracker: VASTTracker(ad: ad, context: context), queue: queue)
    }

    /// A play record for the collector (`--report`, else the manifest's `report`).
    static func recorded(
        _ sink: EventSink, _ choice: AdChoice, _ play: PlayOptions, _ o: LaunchOptions,
        report: ReportTarget?, queue: BeaconQueue?
    ) -> EventSink {
        o.cache.delivery.recording(
            sink, target: report, outbox: queue as? Outbox, adID: choice.ad.id,
            sha256: { [sha = choice.variant.sha256] in sha }, options: play)
    }

    /// A URL the first launch may play straight away: one the policy allows, and for a file a
    /// regular file (a FIFO or device would be read forever).
    static func streamable(_ url: URL, allowHTTP: Bool) -> Bool {
        guard (try? URLPolicy.check(url, allowHTTP: allowHTTP)) != nil else { return false }
        guard url.isFileURL else { return true }
        var st = stat()
        return stat(url.path, &st) == 0 && st.st_mode & S_IFMT == S_IFREG
    }

    static func noAd(_ sink: EventSink, reason: String) -> Outcome {
        sink.emit(AdEvent("end", tMs: ProcessClock.nowMs(), [("outcome", .string(Outcome.noAd.rawValue)), ("reason", .string(reason))]))
        return .noAd
    }

    static func location(_ url: URL) -> String { url.isFileURL ? url.path : url.absoluteString }

    /// The command line's presentation options, with what the manifest says about this ad on top.
    static func playOptions(_ o: LaunchOptions, _ choice: AdChoice, file: String, fallback: String?) -> PlayOptions {
        var p = o.play
        let ad = choice.ad
        p.file = file
        p.fallback = fallback ?? p.fallback
        if let link = ad.link { p.link = link }
        if let skip = ad.skipAfter { p.skipAfter = skip }
        if let d = ad.duration {
            // An image's (or the fallback's) length; for a video also a cap on its own length.
            p.imageDuration = d
            if ad.kind == .video { p.maxDuration = d }
        }
        if let layout = ad.layout.flatMap(LayoutMode.init(rawValue:)), layout == .fullscreen || p.logo != nil {
            p.layout = layout
        }
        // The hand-off replaces the leave transition: the last picture stays until the app is there.
        if !o.then.isEmpty { p.transition = .none }
        return p
    }

    /// Keeps the ad's last picture until the app's window is there (or the hold runs out), then
    /// closes it; the `handoff` event says which.
    static func handOff(_ held: HeldPicture?, to app: AppProcess?, hold: Double, sink: EventSink) {
        guard let player = held?.player else { return }
        guard let app else { return player.close() }
        guard let (ending, waited) = player.handOff(appPID: app.pid, holdSeconds: hold) else { return }
        sink.emit(
            AdEvent(
                "handoff", tMs: ProcessClock.nowMs(),
                [
                    ("via", .string(ending.rawValue)), ("app_pid", .int(Int(app.pid))),
                    ("waited_ms", .int(waited))
                ]))
    }

    /// Starts `CMD ARGS...` (looked up on PATH) with this process's stdin, stdout and stderr;
    /// from then on the launcher's SIGTERM, SIGINT and SIGHUP go to it.
    static func startApp(_ command: [String]) -> AppProcess? {
        let forwarder = SignalForwarder()
        let app: AppProcess
        do { app = try AppProcess.spawn(command) } catch {
            FileHandle.standardError.write(Data("launchad: \(error)\n".utf8))
            forwarder.cancel()
            return nil
        }
        forwarder.forward(to: app)
        signalForwarder = forwarder
        return app
    }

    // Set once on the main thread before the app is awaited; kept only so the handlers live on.
    nonisolated(unsafe) private static var signalForwarder: SignalForwarder?

    /// The app's exit status; 128+N when signal N ended it (as a shell reports it).
    static func waitForApp(_ app: AppProcess) -> Int32 { app.wait() }
}
