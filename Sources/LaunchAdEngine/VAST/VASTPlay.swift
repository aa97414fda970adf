import Foundation
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdMedia
import LaunchAdPlayer

/// `launchad play` for a VAST tag: fetch and parse it, follow each ad's wrappers, choose a media
/// file (the next candidate when the chosen one does not open or decode), play the pod in
/// sequence (a failed ad gives way to the next buffet ad), send every beacon through `queue`
/// (none when the outbox cannot be opened: the ad still plays), queue one play record per ad
/// played through `record` (`--report`), and close the run with one `end`. A tag that yields
/// nothing ends `no_ad` (exit 3) — or shows `--fallback`, with the VAST error still reported and sent.
enum VASTPlay {
    static let userAgent = "LaunchAd/\(LaunchAdVersion.versionString) (Linux)"

    /// The play-record watcher of one ad (its id); nil without `--report`.
    typealias Recorder = (String?) -> AdWatcher?

    static func play(
        _ o: PlayOptions, sink: EventSink, queue: BeaconQueue?, network: RunNetwork, presenter: AdPresenter, context: RunContext,
        record: @escaping Recorder = { _ in nil }
    ) -> Outcome {
        let run = Run(options: o, sink: sink, queue: queue, network: network, presenter: presenter, context: context, record: record)
        return run.play()
    }

    private final class Run {
        let o: PlayOptions
        let sink: EventSink
        /// `reachQueue`: every beacon of the run goes through a reach.
        let queue: ReachQueue?
        /// The run's network: media files are opened held to the reach of the chain that named them.
        let network: RunNetwork
        let context: RunContext
        /// `queue`, holding each beacon to the addresses its document chain may reach.
        let reachQueue: ReachQueue?
        /// The reach of the URLs the first document names.
        var docReach = Reach.any
        let record: Recorder
        /// Shows each ad: its own window, or an application's.
        let presenter: AdPresenter
        let resolver: VASTResolver
        let capabilities = MediaCapabilities.local()
        var base: MacroContext
        /// A failure before any ad was tried (the tag, an empty response).
        var lastError: VASTError?
        /// The first document's root Error URIs: fired too when an ad of it proves empty (303).
        var rootErrors: [String] = []

        init(
            options: PlayOptions, sink: EventSink, queue: BeaconQueue?, network: RunNetwork, presenter: AdPresenter,
            context: RunContext, record: @escaping Recorder
        ) {
            o = options; self.sink = sink; self.record = record; self.network = network; self.presenter = presenter
            self.context = context
            // Until the tag is read, its reach is its URL's (the user named it).
            reachQueue = queue.map { ReachQueue($0, reach: .any) }
            self.queue = reachQueue
            let cancellation = context.cancellation
            resolver = VASTResolver(
                client: network.documents(seconds: o.vast.timeout), maxWrappers: o.vast.maxWrappers,
                isCancelled: { cancellation.isCancelled })
            base = MacroContext(timestamp: Date(), cacheBusting: "", deviceUA: VASTPlay.userAgent)
            base.fullscreen = o.fullscreen
            base.muted = o.muted
            base.transactionID = UUID().uuidString.lowercased()
        }

        func play() -> Outcome {
            let tagURL = o.file.contains("://") ? o.file : nil
            let doc: VASTDocument
            do { (doc, docReach) = try resolver.loadReached(o.file, reach: .any); reachQueue?.reach = docReach } catch {
                let failure = error as? VASTFailure
                // A failure that is no VAST failure names no Error URI; held to public addresses all the same.
                reachQueue?.reach = failure?.reach ?? .publicOnly
                return fail(failure?.error ?? VASTError(VASTError.undefined, "\(error)"), uris: failure?.errorURIs ?? [])
            }
            rootErrors = doc.errors
            let plan = VASTAdPlan(doc)
            sink.emit(.vast(VASTResponse(version: doc.version, ads: doc.ads.count, pod: plan.pod.count, buffet: plan.buffet.count)))
            guard !plan.isEmpty else { return fail(VASTError(VASTError.noAd, "the response holds no <Ad>"), uris: doc.errors) }
            var run = VASTRun(plan)
            while let ad = run.nextAd() { playOne(ad, tagURL: tagURL, run: &run) }
            return end(run.ending(hasFallback: o.fallback != nil))
        }

        /// Resolves, chooses and plays one ad; a failure fires its Error URIs with the code.
        private func playOne(_ vastAd: VASTAd, tagURL: String?, run: inout VASTRun) {
            let resolved: ResolvedAd
            switch resolver.resolve(vastAd, tagURL: tagURL, rootErrors: rootErrors, reach: docReach) {
            case .success(let r): resolved = r; reachQueue?.reach = r.reach
            case .failure(let f):
                reachQueue?.reach = f.reach
                report(f.error, uris: f.errorURIs, adID: vastAd.id)
                // fallbackOnNoAd="false": a wrapper whose response is empty selects no ad at all.
                return run.adFailed(f.error, stopRun: f.error.code == VASTError.noAd && vastAd.wrapper?.fallbackOnNoAd == false)
            }
            var context = base
            context.adCount = run.adsPlayed + 1
            context.podSequence = resolved.sequence
            context.universalAdId = resolved.universalAdId
            context.skippable = resolved.linear.skipOffset != nil || o.vast.skipAfterGiven
            let choice: MediaFileChoice
            switch MediaFileChooser.choose(
                resolved.linear.mediaFiles, window: VASTMapping.window(for: o), capabilities: capabilities,
                maxBitrateKbps: o.vast.maxBitrateKbps)
            {
            case .success(let c): choice = c
            case .failure(let e):
                fireErrors(resolved, code: e.code, context: context)
                reportEvent(e, adID: resolved.id)
                return run.adFailed(e)
            }
            sink.emit(.vastAd(chosen(resolved, choice)))
            // Captions and icons belong to the ad, whichever of its media files plays; they are
            // fetched beside playback, with the reach of the ad's document chain.
            let iconFolder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("launchad-icons-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: iconFolder) }
            let icons = VASTIcons.icons(resolved.linear, into: iconFolder)
            let sideLoads = SideLoads(
                captions: VASTCaptions.loader(resolved.linear.captionFiles, reach: resolved.reach, o: o, network: network),
                icon: VASTIcons.fetcher(resolved.linear, reach: resolved.reach, o: o, network: network))
            var candidates = VASTRun.Candidates(choice.candidates)
            while let (media, givesWay) = candidates.next() {
                var adContext = context
                adContext.assetURI = media.url
                let options = VASTMapping.playOptions(o, ad: resolved, media: media, context: adContext)
                let tracker = VASTTracker(ad: resolved, context: adContext, followsFocus: o.pauseOnBlur)
                // Its own reach: the watcher queues its beacons later, on its writer queue.
                let tracking = TrackingWatcher(tracker: tracker, queue: ReachQueue.fixed(reachQueue?.base, resolved.reach))
                let stream = AdStream(sink, tracking: tracking, record: record(resolved.id))
                var ad = AdPlay(options: options, network: network, reach: resolved.reach, context: self.context)
                ad.sideLoads = sideLoads
                ad.icons = icons
                ad.reportsEnd = false
                ad.givesWay = givesWay
                let result = ad.play(sink: stream, presenter: presenter)
                switch run.tried(media.url, result: result, adID: resolved.id, sequence: resolved.sequence) {
                case .tryNext(let mediaFallback): sink.emit(mediaFallback)
                case .played(let adEnd), .failed(let adEnd): return stream.adEnded(adEnd, written: true)
                }
            }
            run.candidatesExhausted()
        }

        /// The `vast_ad` event: the ad resolved and the media file chosen.
        private func chosen(_ ad: ResolvedAd, _ choice: MediaFileChoice) -> VASTAdChosen {
            let skipped = VASTIcons.skipped(ad.linear.icons)
            // Said, not silently lost: the tag listed more URIs per event than are sent.
            return VASTAdChosen(
                adID: ad.id, sequence: ad.sequence, adSystem: ad.adSystem, wrappers: ad.wrapperDepth, media: choice.file.url,
                reason: choice.reason, icons: ad.linear.icons.count - skipped.count, iconsSkipped: skipped, urisDropped: ad.urisDropped)
        }

        private func fireErrors(_ ad: ResolvedAd, code: Int, context: MacroContext) {
            var tracker = VASTTracker(ad: ad, context: context)
            if let b = tracker.errorBatch(code: code, at: Date(), cacheBuster: CacheBuster.next()) {
                queue?.enqueue(beacons: b.urls, event: b.event, at: Date())
            }
        }

        /// A failure before any ad: the error, the Error URIs, then no_ad or the fallback.
        private func fail(_ e: VASTError, uris: [String]) -> Outcome {
            report(e, uris: uris, adID: nil)
            return end(VASTRun.noAdEnding(lastError, hasFallback: o.fallback != nil))
        }

        private func report(_ e: VASTError, uris: [String], adID: String?) {
            if let b = VASTTracker.errorBatch(uris, code: e.code, context: base, at: Date(), cacheBuster: CacheBuster.next()) {
                queue?.enqueue(beacons: b.urls, event: b.event, at: Date())
            }
            reportEvent(e, adID: adID)
        }

        private func reportEvent(_ e: VASTError, adID: String?) {
            lastError = e
            sink.emit(.error(PlayError(.vast(e.code), e.message, vastError: e.code, adID: adID)))
        }

        /// The run's `end`, or the fallback image (whose own run ends the stream).
        private func end(_ ending: VASTRun.Ending) -> Outcome {
            switch ending {
            case .end(let end):
                sink.emit(.end(end))
                return end.outcome
            case .fallback(let reason):
                sink.emit(.fallback(reason: reason))
                var f = o
                f.file = o.fallback ?? ""
                f.fallback = nil
                f.vast = VASTOptions()
                return AdPlay(options: f, network: network, reach: .any, context: context).play(sink: sink, presenter: presenter).outcome
            }
        }
    }
}
