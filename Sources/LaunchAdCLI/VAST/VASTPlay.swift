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
    static let userAgent = "LaunchAd/\(Command.versionString) (Linux)"

    /// Wraps one ad's events in a play-record sink for that ad (its id); the identity without `--report`.
    typealias Recorder = (EventSink, String?) -> EventSink

    static func play(
        _ o: PlayOptions, sink: EventSink, queue: BeaconQueue?, network: @escaping (Reach) -> NetworkOpener,
        record: @escaping Recorder = { s, _ in s }
    ) -> Outcome {
        MediaLog.configure()
        let run = Run(options: o, sink: sink, queue: queue, network: network, record: record)
        return run.play()
    }

    private final class Run {
        let o: PlayOptions
        let sink: EventSink
        /// `reachQueue`: every beacon of the run goes through a reach.
        let queue: ReachQueue?
        /// Opens http(s) media files, held to the reach of the chain that named them.
        let network: (Reach) -> NetworkOpener
        /// `queue`, holding each beacon to the addresses its document chain may reach.
        let reachQueue: ReachQueue?
        /// The reach of the URLs the first document names.
        var docReach = Reach.any
        let record: Recorder
        let resolver: VASTResolver
        let capabilities = MediaCapabilities.local()
        var base: MacroContext
        var lastError: VASTError?
        /// The first document's root Error URIs: fired too when an ad of it proves empty (303).
        var rootErrors: [String] = []

        init(
            options: PlayOptions, sink: EventSink, queue: BeaconQueue?, network: @escaping (Reach) -> NetworkOpener,
            record: @escaping Recorder
        ) {
            o = options; self.sink = sink; self.record = record; self.network = network
            // Until the tag is read, its reach is its URL's (the user named it).
            reachQueue = queue.map { ReachQueue($0, reach: .any) }
            self.queue = reachQueue
            resolver = VASTResolver(timeout: o.vast.timeout, maxWrappers: o.vast.maxWrappers, allowHTTP: o.vast.allowHTTP)
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
                reachQueue?.reach = failure?.reach ?? .any
                return fail(failure?.error ?? VASTError(VASTError.undefined, "\(error)"), uris: failure?.errorURIs ?? [])
            }
            rootErrors = doc.errors
            let plan = VASTAdPlan(doc)
            emit(
                "vast",
                [
                    ("version", .string(doc.version)), ("ads", .int(doc.ads.count)),
                    ("pod", .int(plan.pod.count)), ("buffet", .int(plan.buffet.count))
                ])
            guard !plan.isEmpty else { return fail(VASTError(VASTError.noAd, "the response holds no <Ad>"), uris: doc.errors) }

            var sequence = VASTPodSequence(plan)
            var played = 0, shown = 0
            var last: Outcome?
            while let ad = sequence.next() {
                switch playOne(ad, tagURL: tagURL, count: played + 1) {
                case .played(let outcome, let ms, let closed):
                    played += 1; shown += ms; last = outcome
                    sequence.record(.played(outcome, closed: closed))
                case .failed(let stopRun):
                    sequence.record(.failed(stopRun: stopRun))
                }
            }
            guard let last else { return noAd() }
            emit("end", [("outcome", .string(last.rawValue)), ("shown_ms", .int(shown)), ("ads_played", .int(played))])
            return last
        }

        enum AdResult { case played(Outcome, shownMs: Int, closed: Bool), failed(stopRun: Bool) }

        /// Resolves, chooses and plays one ad; a failure fires its Error URIs with the code.
        private func playOne(_ vastAd: VASTAd, tagURL: String?, count: Int) -> AdResult {
            let resolved: ResolvedAd
            switch resolver.resolve(vastAd, tagURL: tagURL, rootErrors: rootErrors, reach: docReach) {
            case .success(let r): resolved = r; reachQueue?.reach = r.reach
            case .failure(let f):
                reachQueue?.reach = f.reach
                report(f.error, uris: f.errorURIs, adID: vastAd.id)
                // fallbackOnNoAd="false": a wrapper whose response is empty selects no ad at all.
                return .failed(stopRun: f.error.code == VASTError.noAd && vastAd.wrapper?.fallbackOnNoAd == false)
            }
            var context = base
            context.adCount = count
            context.podSequence = resolved.sequence
            context.universalAdId = resolved.universalAdId
            context.skippable = resolved.linear.skipOffset != nil || o.vast.skipAfterGiven
            let window = VASTMapping.window(for: o)
            let choice: MediaFileChoice
            switch MediaFileChooser.choose(
                resolved.linear.mediaFiles, window: window, capabilities: capabilities,
                maxBitrateKbps: o.vast.maxBitrateKbps)
            {
            case .success(let c): choice = c
            case .failure(let e):
                fireErrors(resolved, code: e.code, context: context)
                reportEvent(e, adID: resolved.id)
                return .failed(stopRun: false)
            }
            var fields: [(String, JSONValue)] =
                [
                    ("ad_id", resolved.id.map { .string($0) } ?? .null), ("sequence", resolved.sequence.map { .int($0) } ?? .null),
                    ("ad_system", resolved.adSystem.map { .string($0) } ?? .null), ("wrappers", .int(resolved.wrapperDepth)),
                    ("media", .string(choice.file.url)), ("reason", .string(choice.reason))
                ] + VASTIcons.fields(resolved.linear.icons)
            let dropped = resolved.urisDropped.values.reduce(0, +)
            if dropped > 0 {
                // Said, not silently lost: the tag listed more URIs per event than are sent.
                fields.append(("uris_dropped", .int(dropped)))
                fields.append(
                    ("uris_dropped_by_event", .object(resolved.urisDropped.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) })))
            }
            emit("vast_ad", fields)
            let candidates = choice.candidates
            // Captions and icons belong to the ad, whichever of its media files plays; they are
            // fetched beside playback, with the reach of the ad's document chain.
            let iconFolder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("launchad-icons-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: iconFolder) }
            let icons = VASTIcons.icons(resolved.linear, into: iconFolder)
            let sideLoads = SideLoads(
                captions: VASTCaptions.loader(resolved.linear.captionFiles, reach: resolved.reach, o: o),
                icon: VASTIcons.fetcher(resolved.linear, reach: resolved.reach, o: o))
            for (n, media) in candidates.enumerated() {
                var adContext = context
                adContext.assetURI = media.url
                let options = VASTMapping.playOptions(o, ad: resolved, media: media, context: adContext)
                let adSink = AdEndSink(sink, adID: resolved.id, sequence: resolved.sequence)
                let tracker = VASTTracker(ad: resolved, context: adContext, followsFocus: o.pauseOnBlur)
                // Its own reach: the sink writes its beacons later, on its writer queue.
                let tracking = TrackingSink(
                    record(adSink, resolved.id), tracker: tracker, queue: ReachQueue.fixed(reachQueue?.base, resolved.reach))
                // Every candidate but the last may give way to the next when it does not open or decode.
                let gate = CandidateGate(tracking, media: media.url, canFallThrough: n + 1 < candidates.count, sink: sink)
                let outcome = PlayCommand.play(
                    options, sink: gate, network: network(resolved.reach), sideLoads: sideLoads, icons: icons)
                if gate.fellThrough { continue }
                if outcome == .noAd || outcome == .timeout {
                    lastError = VASTError(VASTError.mediaDisplay, "the media file could not be played")
                    return .failed(stopRun: false)
                }
                return .played(outcome, shownMs: adSink.shownMs, closed: adSink.closed)
            }
            return .failed(stopRun: false)
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
            return noAd()
        }

        private func report(_ e: VASTError, uris: [String], adID: String?) {
            if let b = VASTTracker.errorBatch(uris, code: e.code, context: base, at: Date(), cacheBuster: CacheBuster.next()) {
                queue?.enqueue(beacons: b.urls, event: b.event, at: Date())
            }
            reportEvent(e, adID: adID)
        }

        private func reportEvent(_ e: VASTError, adID: String?) {
            lastError = e
            var fields: [(String, JSONValue)] = [
                ("code", .string("vast_\(e.code)")), ("vast_error", .int(e.code)), ("message", .string(e.message))
            ]
            if let adID { fields.append(("ad_id", .string(adID))) }
            emit("error", fields)
        }

        /// Nothing played: the fallback image if there is one (its run ends the stream), else no_ad.
        private func noAd() -> Outcome {
            if let fallback = o.fallback {
                emit("fallback", [("reason", .string(lastError.map { "vast_\($0.code)" } ?? "no_ad"))])
                var f = o
                f.file = fallback
                f.fallback = nil
                f.vast = VASTOptions()
                return PlayCommand.play(f, sink: sink, network: network(.any))
            }
            emit("end", [("outcome", .string(Outcome.noAd.rawValue)), ("shown_ms", .int(0))])
            return .noAd
        }

        private func emit(_ name: String, _ fields: [(String, JSONValue)]) {
            sink.emit(AdEvent(name, tMs: ProcessClock.nowMs(), fields))
        }
    }
}
