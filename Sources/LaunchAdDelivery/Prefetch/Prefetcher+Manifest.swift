import Foundation
import LaunchAdCore

/// A manifest as fetched: parsed, with what to remember for the next conditional request.
struct FetchedManifest {
    var parsed: ParsedManifest
    /// The body when the server sent a new one (nil after a 304).
    var body: Data?
    var etag: String?
    var lastModified: String?
    /// The reach of the URLs the manifest names (its creatives, its VAST tags).
    var reach: Reach
    /// Who signed it, its version and expiry, when it was verified with a trusted key.
    var signature: ManifestSignatureRecord?
}

extension Prefetcher {
    static let manifestCopy = "manifest.json"

    /// Fetches the manifest with If-None-Match / If-Modified-Since from the last fetch; after a
    /// 304 the copy kept in the cache is parsed instead. With trusted keys, the bytes are
    /// verified first (`manifest_rejected` when they do not pass). Reports failures as `rejected` events.
    func fetchManifest() -> FetchedManifest? {
        let url = config.manifestURL
        let copyURL = store.directory.appendingPathComponent(Prefetcher.manifestCopy)
        let previous = store.readIndex().manifest
        var headers: [String: String] = [:]
        if let previous, previous.source == url.absoluteString, !url.isFileURL,
            FileManager.default.fileExists(atPath: copyURL.path)
        {
            if let etag = previous.etag { headers["If-None-Match"] = etag }
            if let lm = previous.lastModified { headers["If-Modified-Since"] = lm }
        }
        do {
            // The manifest's URL is the user's (`--manifest`): it may reach any address.
            var request = FetchRequest(url: url, reach: .any, headers: headers, maxBytes: config.maxManifestBytes)
            request.cancellation = cancellation
            let response = try fetcher.fetch(request, progress: nil)
            let budget = ManifestParser.budget(maxBytes: config.maxManifestBytes, seconds: 5)
            let document: Data
            let kept: (body: Data?, etag: String?, lastModified: String?)
            switch response.status {
            case 200:
                document = response.body
                kept = (response.body, response.headers["etag"], response.headers["last-modified"])
            case 304 where !headers.isEmpty:
                sink.emit(.notModified(id: "manifest", url: url.absoluteString))
                document = try Data(contentsOf: copyURL)
                kept = (nil, previous?.etag, previous?.lastModified)
            default:
                throw CacheError("HTTP \(response.status) for the manifest \(TerminalText.quoted(url.absoluteString))")
            }
            // With trusted keys, nothing of the document is read before its signature holds.
            let signature = try verifiedSignature(of: document)
            var fetched = FetchedManifest(
                parsed: try ManifestParser.parse(document, base: url, budget: budget), body: kept.body, etag: kept.etag,
                lastModified: kept.lastModified, reach: response.namedReach)
            if let signature { fetched.signature = try freshRecord(signature, fetched.parsed.signed, document: document) }
            // Its play-record collector is named by it too: held to the same addresses.
            fetched.parsed.manifest.report?.reach = response.namedReach
            return fetched
        } catch let refusal as ManifestRefusal {
            sink.emit(.manifestRejected(refusal, manifest: url.absoluteString))
            return nil
        } catch {
            sink.emit(.rejected(id: "manifest", reason: "\(error)", field: nil))
            return nil
        }
    }

    /// Under the lock: records the ads whose new version is fully cached (an ad whose refresh
    /// failed keeps its previous version), deletes what left the manifest, is hidden or is
    /// past its end, then evicts the least recently shown files past the byte limit.
    func finish(_ fetched: FetchedManifest, wanted: [AdEntry], time: Date, report: inout PrefetchReport) throws {
        var events: [LaunchEvent] = []
        var unshown: [AdEntry] = []
        try store.update { index in
            // Another refresh may have verified a newer version meanwhile: this one is then a rollback.
            if let refusal = ManifestTrustCheck.rollback(fetched.signature?.verifiedVersion, highest: index.highestVerified) {
                throw refusal
            }
            // Who owned each file before this refresh, to say whose file an eviction removes.
            var owners: [String: String] = [:]
            func noteOwners() {
                for record in index.ads { for c in record.ad.creatives where owners[c.sha256] == nil { owners[c.sha256] = record.ad.id } }
            }
            noteOwners()
            // Each record written now is this manifest's entry, and says so (what launch --trust-key
            // shows); one kept from before keeps what it said: an older manifest's, or none.
            let current = signature(after: fetched, in: index)
            for ad in wanted where needed(ad).first.map({ store.isAvailable($0, in: index) }) == true {
                // A VAST ad kept from before (its tag failed now) is left as it was cached: its
                // reach, and the manifest it came from.
                if ad.vast != nil && adReach(ad.id) == nil { continue }
                let reach = adReach(ad.id) ?? manifestReach
                let old = index.record(for: ad.id)
                if let old, old.ad == ad, old.reach ?? .publicOnly == reach, old.signedBy == current { continue }
                index.setRecord(AdRecord(ad: ad, cachedAt: time, reach: reach, signedBy: current))
            }
            noteOwners()
            let reasons = dropLeaving(&index, fetched: fetched, time: time, unshown: &unshown)
            let referenced = Set(index.ads.flatMap { $0.ad.creatives.map(\.sha256) })
            for sha in referenced where index.files[sha]?.pendingEviction != nil { index.files[sha]?.pendingEviction = nil }
            for (sha, file) in index.files where !referenced.contains(sha) {
                let id = owners[sha] ?? file.pendingEviction?.id ?? "-"
                let reason = owners[sha].flatMap { reasons[$0] } ?? file.pendingEviction?.reason ?? "replaced"
                // In use by the running launch: deleted by the next refresh, which still knows why.
                if protected.contains(sha) {
                    index.files[sha]?.pendingEviction = PendingEviction(id: id, reason: reason)
                    continue
                }
                store.remove(sha, from: &index)
                events.append(evicted(id, sha, file.bytes, reason))
            }
            events += evictOverLimit(&index, owners: owners)
            try record(fetched, in: &index, time: time)
            store.sweep(index)
        }
        for event in events { sink.emit(event) }
        fireNotUsed(unshown)
        report.evicted += events.count
    }

    /// Takes out the ads that left the manifest, are hidden or past their end (a refused ad keeps
    /// its previous version); why each went, by id. Those never shown are added to `unshown`.
    private func dropLeaving(_ index: inout CacheIndex, fetched: FetchedManifest, time: Date, unshown: inout [AdEntry]) -> [String: String]
    {
        let manifest = fetched.parsed.manifest
        var reasons: [String: String] = [:]
        let files = index.files
        index.ads.removeAll { record in
            if let current = manifest.ads.first(where: { $0.id == record.ad.id }) {
                reasons[record.ad.id] =
                    !current.show
                    ? "hidden"
                    : current.isExpired(at: time) || record.ad.isResponseExpired(at: time) ? "expired" : nil
            } else if !fetched.parsed.rejected.contains(where: { $0.id == record.ad.id }) {
                reasons[record.ad.id] = "removed"
            }
            guard reasons[record.ad.id] != nil else { return false }
            if record.ad.creatives.allSatisfy({ files[$0.sha256]?.lastShown == nil }) { unshown.append(record.ad) }
            return true
        }
        return reasons
    }

    /// The manifest read now, kept beside the cache when it changed, and when it was checked.
    private func record(_ fetched: FetchedManifest, in index: inout CacheIndex, time: Date) throws {
        let manifest = fetched.parsed.manifest
        if let body = fetched.body {
            let copyURL = store.directory.appendingPathComponent(Prefetcher.manifestCopy)
            try AtomicFile.replace(copyURL.path, with: body, temporary: copyURL.path + ".tmp")
            index.manifest = ManifestRecord(
                source: config.manifestURL.absoluteString, etag: fetched.etag,
                lastModified: fetched.lastModified, fetchedAt: time, report: manifest.report)
            index.manifest?.metrics = manifest.metrics
        }
        index.manifest?.checkedAt = time
        // After a 304 too: a record kept from before collectors had a reach gets the manifest's.
        if index.manifest != nil { index.manifest?.report = manifest.report }
        let signature = signature(after: fetched, in: index)
        index.manifest?.signature = signature
        // Not lower than the highest (checked under this lock): the highest from now on.
        if let signed = fetched.signature { index.highestVerified = signed.verifiedVersion }
    }

    /// The signature record of the cache's manifest once `fetched` is recorded: a new document is
    /// as verified as it was now; a 304 without trusted keys keeps what was known of the copy.
    private func signature(after fetched: FetchedManifest, in index: CacheIndex) -> ManifestSignatureRecord? {
        fetched.body != nil || fetched.signature != nil ? fetched.signature : index.manifest?.signature
    }

    private func evicted(_ id: String, _ sha: String, _ bytes: Int64, _ reason: String) -> LaunchEvent {
        .evicted(id: id, sha256: sha, bytes: Int(bytes), reason: reason)
    }

    /// Least recently shown first, until the cache fits its limit.
    private func evictOverLimit(_ index: inout CacheIndex, owners: [String: String]) -> [LaunchEvent] {
        var events: [LaunchEvent] = []
        let order = index.files.filter { !protected.contains($0.key) }
            .sorted { $0.value.lastUsed != $1.value.lastUsed ? $0.value.lastUsed < $1.value.lastUsed : $0.key < $1.key }
        for (sha, record) in order where index.totalBytes > config.cacheLimit {
            store.remove(sha, from: &index)
            events.append(evicted(owners[sha] ?? "-", sha, record.bytes, "cache_limit"))
        }
        return events
    }
}
