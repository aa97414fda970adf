import Foundation
import LaunchAdCore

/// Refreshes the cache from the manifest: fetches it (conditionally), downloads what the next
/// launches will show to temporary files, installs each only once its size and sha256 match,
/// then drops what is no longer wanted and evicts past the byte limit. The lock is only held
/// for index updates, never across a download, and nothing cached is touched when the manifest
/// cannot be read.
// Sendable, checked: settings and callbacks are fixed at construction; what a run learns (the
// reaches) and the cancel flag are under a lock; index changes go through the cache store's lock.
public final class Prefetcher: Sendable {
    let store: CacheStore
    let fetcher: Fetcher
    let sink: EventSink
    let config: PrefetchConfig
    let now: @Sendable () -> Date

    let onProgress: (@Sendable (PrefetchProgress) -> Void)?
    /// Files in use by the running launch: never deleted by this refresh.
    let protected: Set<String>
    /// Where a VAST tag's Error URIs and an unshown ad's `notUsed` beacons go (the outbox).
    let beacons: BeaconQueue?

    /// What the run has learnt: the reach of the URLs its manifest names (set once it is read,
    /// before `onManifest`) and each VAST ad's (the manifest's narrowed by its tag chain's).
    private let reaches = Locked<(manifest: Reach, ads: [String: Reach])>((.any, [:]))

    /// Set by `cancel`; every request of this refresh carries it, so a retry's backoff ends at once.
    let cancellation = Cancellation()

    public init(
        store: CacheStore, fetcher: Fetcher, sink: EventSink, config: PrefetchConfig,
        beacons: BeaconQueue? = nil, protected: Set<String> = [],
        onProgress: (@Sendable (PrefetchProgress) -> Void)? = nil,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.store = store; self.fetcher = fetcher; self.sink = sink; self.config = config; self.now = now
        self.beacons = beacons; self.protected = protected; self.onProgress = onProgress
    }

    /// The reach of the URLs this refresh's manifest names.
    public private(set) var manifestReach: Reach {
        get { reaches.withLock { $0.manifest } }
        set { reaches.withLock { $0.manifest = newValue } }
    }

    /// A VAST ad's reach, once its tag chain is resolved.
    func adReach(_ id: String) -> Reach? { reaches.withLock { $0.ads[id] } }
    func setAdReach(_ reach: Reach, for id: String) { reaches.withLock { $0.ads[id] = reach } }

    /// Stops before the next download; what is installed stays consistent.
    public func cancel() { cancellation.cancel() }
    var isCancelled: Bool { cancellation.isCancelled }

    /// `onManifest` is called once the manifest is parsed (nil when it could not be read): lets
    /// a first launch start streaming while the download runs.
    @discardableResult
    public func run(onManifest: ((Manifest?) -> Void)? = nil) -> PrefetchReport {
        let startMs = ProcessClock.nowMs()
        var report = PrefetchReport()
        sink.emit(.prefetchStart(manifest: config.manifestURL.absoluteString))
        defer {
            sink.emit(
                .prefetchDone(
                    PrefetchSummary(
                        ok: report.ok, downloads: report.downloads, bytes: Int(report.downloadedBytes), rejected: report.rejected,
                        failed: report.failed, evicted: report.evicted, cachedBytes: Int(store.readIndex().totalBytes),
                        ms: ProcessClock.nowMs() - startMs)))
        }
        guard var fetched = fetchManifest() else {
            report.fail()
            onManifest?(nil)
            return report
        }
        report.manifestRead = true
        manifestReach = fetched.reach
        // An ad the manifest refuses is its event alone: the refresh caches every other one.
        for r in fetched.parsed.rejected {
            sink.emit(.rejected(id: r.id, reason: r.reason, field: r.field))
            report.rejected += 1
        }
        onManifest?(fetched.parsed.manifest)

        fetched.parsed.manifest = resolvingVAST(fetched.parsed.manifest, report: &report)
        let time = now()
        let wanted = AdSelector.worthCaching(fetched.parsed.manifest.ads, now: time)
        download(wanted, report: &report)
        do {
            try finish(fetched, wanted: wanted, time: time, report: &report)
        } catch let refusal as ManifestRefusal {
            sink.emit(.manifestRejected(refusal, manifest: config.manifestURL.absoluteString))
            report.fail()
        } catch {
            sink.emit(.rejected(id: "cache", reason: "\(error)", field: nil))
            report.fail()
        }
        report.ok = report.failed == 0 && !isCancelled
        return report
    }

    /// The creatives an ad needs cached: its best variant for the screen, its fallback and captions.
    func needed(_ ad: AdEntry) -> [Creative] {
        guard let variant = VariantChooser.best(ad.variants, for: config.screen) else { return [] }
        return [variant] + (ad.fallback.map { [$0] } ?? []) + (ad.captions.map { [$0] } ?? [])
    }

    private func download(_ ads: [AdEntry], report: inout PrefetchReport) {
        let index = store.readIndex()
        var seen = Set<String>()
        var jobs: [(ad: AdEntry, creative: Creative)] = []
        for ad in ads {
            for c in needed(ad) where seen.insert(c.sha256).inserted && !isIntact(c, ad: ad, in: index, report: &report) {
                jobs.append((ad, c))
            }
        }
        let total = jobs.reduce(Int64(0)) { $0 + $1.creative.bytes }
        var done: Int64 = 0
        for (ad, creative) in jobs {
            guard !isCancelled else { return }
            do {
                let started = ProcessClock.nowMs()
                let base = done
                let bytes = try fetchCreative(
                    creative, kind: creative == ad.fallback ? .image : ad.kind,
                    progress: { [onProgress] got in
                        onProgress?(PrefetchProgress(id: ad.id, doneBytes: base + got, totalBytes: total))
                    })
                if let bytes {
                    report.downloads += 1
                    report.downloadedBytes += bytes
                    sink.emit(
                        .download(Download(id: ad.id, bytes: Int(bytes), ms: ProcessClock.nowMs() - started, sha256: creative.sha256)))
                }
            } catch {
                report.fail()
                sink.emit(.rejected(id: ad.id, reason: "\(error)", field: nil))
            }
            done += creative.bytes
            onProgress?(PrefetchProgress(id: ad.id, doneBytes: done, totalBytes: total))
        }
    }

    /// Every refresh re-hashes what it keeps: a cached file changed in place (even at the same
    /// size) or gone is dropped (`evicted`, reason `damaged`) and fetched again.
    private func isIntact(_ c: Creative, ad: AdEntry, in index: CacheIndex, report: inout PrefetchReport) -> Bool {
        guard let record = index.files[c.sha256] else { return false }
        if store.isAvailable(c, in: index) && store.recheck(c) { return true }
        try? store.update { store.remove(c.sha256, from: &$0) }
        report.evicted += 1
        sink.emit(.evicted(id: ad.id, sha256: c.sha256, bytes: Int(record.bytes), reason: "damaged"))
        return false
    }

    /// Downloads one creative to a temporary file, verifies it and installs it; nil when the
    /// file was already on disk and only needed to be taken back into the index.
    private func fetchCreative(_ c: Creative, kind: AdKind, progress: @escaping (Int64) -> Void) throws -> Int64? {
        guard c.bytes <= config.maxCreativeBytes else {
            throw CacheError("\(c.url.lastPathComponent) is \(c.bytes) bytes, over the \(config.maxCreativeBytes)-byte limit per creative")
        }
        guard c.bytes <= config.cacheLimit else {
            throw CacheError("\(c.url.lastPathComponent) is \(c.bytes) bytes, larger than the whole cache limit")
        }
        if try store.adopt(c, kind: kind, now: now()) { return nil }
        let temp = store.newTempURL()
        defer { try? FileManager.default.removeItem(at: temp) }
        // One byte over the declared size is enough to know it is wrong.
        var request = FetchRequest(url: c.url, reach: manifestReach, maxBytes: c.bytes + 1, destination: temp)
        request.cancellation = cancellation
        let response = try fetcher.fetch(request, progress: progress)
        guard response.status == 200 else { throw CacheError("HTTP \(response.status) for \(TerminalText.quoted(c.url.absoluteString))") }
        try CacheStore.verify(temp, as: c)
        let time = now()
        try store.update { index in try store.install(temp, as: c, kind: kind, into: &index, now: time) }
        return response.bytes
    }
}
