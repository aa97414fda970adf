import Foundation
import LaunchAdCore
import LaunchAdMedia

/// The manifest's `"type": "vast"` ads, made into ordinary cached videos: the tag is resolved
/// (wrappers, media choice for the screen), its media file downloaded into the cache (atomic,
/// opened with the media layer before it can ever be chosen, since VAST carries no checksum),
/// and its merged tracking, skip offset and click link kept in the ad's index record, so the
/// next launch shows it straight from the cache and its beacons go through the outbox.
extension Prefetcher {
    /// `manifest` with each VAST ad resolved (or left out, with a `rejected` event).
    func resolvingVAST(_ manifest: Manifest, report: inout PrefetchReport) -> Manifest {
        guard manifest.ads.contains(where: { $0.vast != nil }) else { return manifest }
        var out = manifest
        out.ads = manifest.ads.compactMap { ad in
            guard let tag = ad.vast, !isCancelled else { return ad }
            do {
                let (resolved, downloaded) = try resolve(ad, tag: tag)
                if let downloaded { report.downloads += 1; report.downloadedBytes += downloaded }
                return resolved
            } catch {
                sink.emit(.rejected(id: ad.id, reason: "VAST: \(error)", field: nil))
                report.fail()
                // A tag that fails now leaves the version cached before in place.
                if let old = store.readIndex().record(for: ad.id)?.ad, old.vast == tag { return old }
                return nil
            }
        }
        return out
    }

    /// How many ads of one response a refresh tries before it gives up on the tag.
    static let maxAdsTried = 5

    /// The response's first ad that resolves and whose media file caches (the pod's, then the
    /// buffet's, in play order): one bad ad fails alone, its Error URIs fired with its code.
    /// Also the bytes downloaded for it (nil when its media was cached).
    private func resolve(_ entry: AdEntry, tag: String) throws -> (AdEntry, Int64?) {
        let resolver = VASTResolver(fetcher: fetcher, maxWrappers: 5)
        let received = now()
        let doc: VASTDocument
        let docReach: Reach
        do { (doc, docReach) = try resolver.loadReached(tag, reach: manifestReach) } catch let f as VASTFailure {
            fireErrors(f.errorURIs, code: f.error.code, reach: f.reach)
            throw CacheError("\(f.error.code) \(f.error.message)")
        }
        let plan = VASTAdPlan(doc)
        guard !plan.isEmpty else {
            fireErrors(doc.errors, code: VASTError.noAd, reach: docReach)
            throw CacheError("\(VASTError.noAd) the tag has no <Ad>")
        }
        var failure: Error = CacheError("no ad")
        for candidate in (plan.pod + plan.buffet).prefix(Self.maxAdsTried) where !isCancelled {
            do {
                let resolved = try resolver.resolve(candidate, tagURL: tag, rootErrors: doc.errors, reach: docReach).get()
                return try cached(resolved, entry: entry, tag: tag, received: received)
            } catch let f as VASTFailure {
                fireErrors(f.errorURIs, code: f.error.code, reach: f.reach)
                failure = CacheError("\(f.error.code) \(f.error.message)")
            } catch {
                failure = error
            }
        }
        throw failure
    }

    /// `entry` made from `resolved`: its media file cached, its tracking, link and skip offset kept.
    private func cached(_ resolved: ResolvedAd, entry: AdEntry, tag: String, received: Date) throws -> (AdEntry, Int64?) {
        let creative: Creative
        let downloaded: Int64?
        do {
            (creative, downloaded) = try cachedCandidate(resolved, for: entry.id, tag: tag)
        } catch let e as MediaTooLarge {
            // Told once, when first refused; a remembered refusal sends nothing again.
            if !e.remembered { fireErrors(resolved.errors, code: VASTError.noSupportedMedia, reach: resolved.reach) }
            throw CacheError(e.message)
        } catch let e as VASTError {
            fireErrors(resolved.errors, code: e.code, reach: resolved.reach)
            throw CacheError("\(e.code) \(e.message)")
        } catch let e as MediaUnusable {
            // Chosen by its attributes, then not usable here: a problem displaying the media file.
            fireErrors(resolved.errors, code: VASTError.mediaDisplay, reach: resolved.reach)
            throw CacheError(e.message)
        } catch {
            // Not fetched (a 404, a refused or timed-out connection): the file was not found.
            fireErrors(resolved.errors, code: VASTError.fileNotFound, reach: resolved.reach)
            throw error
        }
        setAdReach(manifestReach.narrowed(resolved.reach), for: entry.id)
        var ad = entry
        ad.variants = [creative]
        ad.link = resolved.linear.clickThrough.flatMap { Link.isAllowed($0) ? $0 : nil } ?? entry.link
        let durationMs = resolved.linear.duration.flatMap(Checked.milliseconds)
        // A linear ad without skipoffset is not skippable: the skip button waits past any ad's end.
        ad.skipAfter = resolved.linear.skipOffset?.milliseconds(of: durationMs).map { Double($0) / 1000 } ?? 3600
        ad.tracking = (entry.tracking ?? [:]).merging(ManifestTracking.from(resolved)) { $0 + $1 }
        ad.expiresAt = resolved.expiry(receivedAt: received)
        return (ad, downloaded)
    }

    /// The most bytes a VAST media file may have: it must fit in the cache as a whole.
    private var mediaLimit: Int64 { min(config.maxCreativeBytes, config.cacheLimit) }

    /// The chosen media file as a cached creative; when it cannot be fetched or does not open,
    /// the next candidate's (attributes are hints: the file is the truth). The last failure is thrown.
    /// A candidate larger than the cache is refused once (`too_large`) and remembered in
    /// VASTRefusals: not fetched again until the tag, the media URL or the limit changes.
    private func cachedCandidate(_ resolved: ResolvedAd, for id: String, tag: String) throws -> (Creative, Int64?) {
        let choice = try MediaFileChooser.choose(
            resolved.linear.mediaFiles, window: config.screen,
            capabilities: MediaCapabilities.local()
        ).get()
        let refusals = VASTRefusals(cache: store.directory)
        var failure: Error = MediaUnusable(message: "no media file")
        for file in choice.candidates where !isCancelled {
            guard let mediaURL = URL(string: file.url) else {
                failure = CacheError("not a URL: \(TerminalText.quoted(file.url))"); continue
            }
            if refusals.isRefused(id: id, tag: tag, media: mediaURL.absoluteString, cacheLimit: config.cacheLimit) {
                failure = MediaTooLarge(
                    message: "too_large: the media file \(mediaURL.lastPathComponent) was refused before as larger than "
                        + "the \(config.cacheLimit)-byte cache limit; not downloaded again until the tag changes", remembered: true)
                continue
            }
            do { return try cachedMedia(mediaURL, for: id, reach: resolved.reach) } catch let e as FetchError where e.tooLarge {
                refusals.refuse(id: id, tag: tag, media: mediaURL.absoluteString, cacheLimit: config.cacheLimit)
                failure = MediaTooLarge(
                    message: "too_large: the media file \(mediaURL.lastPathComponent) is larger than \(mediaLimit) bytes "
                        + "(the cache limit or --max-creative-bytes)", remembered: false)
            } catch { failure = error }
        }
        throw failure
    }

    /// The chosen media file as a cached creative: reused when this ad already cached the same
    /// URL, else downloaded to a temporary file, checked and installed (with its size).
    private func cachedMedia(_ url: URL, for id: String, reach: Reach) throws -> (Creative, Int64?) {
        let index = store.readIndex()
        if let old = index.record(for: id)?.ad.variants.first, old.url == url, store.isAvailable(old, in: index) { return (old, nil) }
        try URLPolicy.check(url, allowHTTP: false)
        let temp = store.newTempURL()
        defer { try? FileManager.default.removeItem(at: temp) }
        var request = FetchRequest(url: url, reach: reach, maxBytes: mediaLimit, destination: temp)
        request.cancellation = cancellation
        let response = try fetcher.fetch(request, progress: nil)
        guard response.status == 200 else { throw CacheError("HTTP \(response.status) for \(TerminalText.quoted(url.absoluteString))") }
        let facts: ProbeFacts
        do { facts = try MediaProbe.probe(temp.path) } catch {
            throw MediaUnusable(message: "the media file \(url.lastPathComponent) does not open: \(error)")
        }
        guard let video = facts.streams.first(where: { $0.kind == .video }), let w = video.displayWidth ?? video.width,
            let h = video.displayHeight ?? video.height
        else {
            throw MediaUnusable(message: "the media file \(url.lastPathComponent) has no video stream")
        }
        let creative = Creative(url: url, width: w, height: h, bytes: response.bytes, sha256: try SHA256.hex(ofFile: temp.path))
        let time = now()
        try store.update { index in try store.install(temp, as: creative, kind: .video, into: &index, now: time) }
        sink.emit(.download(Download(id: id, bytes: Int(response.bytes), ms: nil, sha256: creative.sha256, vast: true)))
        return (creative, response.bytes)
    }

    /// A tag that failed tells its Error URIs, with the code, through the outbox.
    private func fireErrors(_ uris: [String], code: Int, reach: Reach) {
        guard let beacons else { return }
        let context = MacroContext(timestamp: now(), cacheBusting: "", deviceUA: "LaunchAd (Linux)")
        if let batch = VASTTracker.errorBatch(uris, code: code, context: context, at: now(), cacheBuster: CacheBuster.next()) {
            beacons.enqueue(beacons: batch.urls, event: batch.event, at: now(), reach: reach)
        }
    }

    /// Ads leaving the cache that were never shown: their `notUsed` beacons (VAST 4.1).
    func fireNotUsed(_ ads: [AdEntry]) {
        guard let beacons else { return }
        for ad in ads {
            guard let urls = ad.tracking?["notUsed"], !urls.isEmpty else { continue }
            var context = MacroContext(timestamp: now(), cacheBusting: CacheBuster.next(), deviceUA: "LaunchAd (Linux)")
            context.assetURI = ad.variants.first?.url.absoluteString
            // Kept from an earlier refresh of this manifest: held to what its URLs may reach.
            beacons.enqueue(beacons: urls.map { MacroExpander.expand($0, context) }, event: "notUsed", at: now(), reach: manifestReach)
        }
    }
}

/// A downloaded media file the media layer cannot use (VAST error 403).
struct MediaUnusable: Error { let message: String }

/// A media file that cannot fit in the cache; `remembered` when refused by an earlier refresh.
struct MediaTooLarge: Error { let message: String; let remembered: Bool }
