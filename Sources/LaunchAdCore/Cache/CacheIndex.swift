import Foundation

/// The cache's table of contents, kept as readable JSON in `index.json`.
public struct CacheIndex: Codable, Equatable, Sendable {
    /// Format version of `index.json`; written as 1 and not currently checked on read.
    public var version = 1
    /// Validators of the last manifest fetched, for conditional requests.
    public var manifest: ManifestRecord?
    /// Each ad in the version whose creatives were fully cached; a failed refresh leaves the
    /// previous version here so it still plays.
    public var ads: [AdRecord] = []
    /// Cached files by sha256.
    public var files: [String: FileRecord] = [:]
    /// When each ad (by id) was shown on this screen, oldest first, for the frequency caps; kept
    /// `AdSchedule.historySeconds`. Here rather than in memory so caps hold across restarts.
    public var plays: [String: [Date]]?
    /// The highest `version` of a manifest verified with a trusted key (`--trust-key`), with the
    /// sha256 of its bytes: a signed manifest below it, or of the same version with other bytes,
    /// is a rollback and is refused. Only goes up; kept when a manifest is later taken unsigned,
    /// so turning signing off and on again does not forget it.
    public var highestVerified: VerifiedVersion?

    enum CodingKeys: String, CodingKey {
        case version, manifest, ads, files, plays, highestVerified = "highest_verified"
    }

    /// An empty index: no manifest, ads, files or plays.
    public init() {}

    /// Notes a play of `id` at `time`, forgetting plays too old to matter to any cap.
    public mutating func recordPlay(_ id: String, at time: Date) {
        var all = plays ?? [:]
        all[id, default: []].append(time)
        for (key, times) in all {
            let kept = times.filter { time.timeIntervalSince($0) < AdSchedule.historySeconds }.suffix(5000)
            all[key] = kept.isEmpty ? nil : Array(kept)
        }
        plays = all
    }

    /// Bytes of all cached files together, as recorded in `files`.
    public var totalBytes: Int64 { files.values.reduce(0) { $0 + $1.bytes } }

    /// The cached record of the ad with this id, if any.
    public func record(for id: String) -> AdRecord? { ads.first { $0.ad.id == id } }

    /// Stores `record`, replacing the one for the same ad id or appending it.
    public mutating func setRecord(_ record: AdRecord) {
        if let i = ads.firstIndex(where: { $0.ad.id == record.ad.id }) { ads[i] = record } else { ads.append(record) }
    }
}

/// What the cache knows of the manifest it last fetched: where from, its validators and when.
public struct ManifestRecord: Codable, Equatable, Sendable {
    /// The manifest's URL (or path) as configured.
    public var source: String
    /// The manifest response's `ETag`, sent back as `If-None-Match`.
    public var etag: String?
    /// The manifest response's `Last-Modified`, sent back as `If-Modified-Since`.
    public var lastModified: String?
    /// When this version of the manifest was downloaded (a 304 does not change it).
    public var fetchedAt: Date
    /// The manifest's collector for play records, so a launch from the cache knows it offline.
    public var report: ReportTarget?
    /// The local manifest's metrics file, so a launch from the cache knows it.
    public var metrics: String?
    /// The last time a refresh read the manifest successfully (a new one or a 304).
    public var checkedAt: Date?
    /// Who signed this manifest, its version and expiry, when it was verified with a trusted key;
    /// nil when it was taken without one. `launch --trust-key` shows a cached ad only when one of
    /// its keys signed this manifest and the ad's record was written from it (`AdRecord.signedBy`).
    public var signature: ManifestSignatureRecord?

    enum CodingKeys: String, CodingKey {
        case source, etag, fetchedAt = "fetched_at", lastModified = "last_modified", report, metrics, checkedAt = "checked_at",
            signature
    }

    /// A record of a manifest fetched from `source`; `metrics` and `checkedAt` start unset.
    public init(source: String, etag: String?, lastModified: String?, fetchedAt: Date, report: ReportTarget? = nil) {
        self.source = source; self.etag = etag; self.lastModified = lastModified; self.fetchedAt = fetchedAt
        self.report = report
    }
}

/// One ad whose creatives are all in the cache, as the manifest described it.
public struct AdRecord: Codable, Equatable, Sendable {
    /// The ad's manifest entry.
    public var ad: AdEntry
    /// When the ad's creatives were all cached.
    public var cachedAt: Date
    /// Which addresses the ad's URLs (tracking) may reach, from where its manifest and VAST
    /// documents came; absent (an older index) reads as any.
    public var reach: Reach?
    /// The verified manifest this record was written from (who signed it, its version and
    /// bytes): set by every refresh that finds the ad in its manifest and its creative cached; nil
    /// when that manifest was taken without a trusted key. With `--trust-key`, only a record
    /// whose manifest is the cache's current one, signed by a key trusted now, is shown
    /// (`ManifestTrustCheck.mayPlay`): a record kept from an older or unsigned manifest is not.
    public var signedBy: ManifestSignatureRecord?

    enum CodingKeys: String, CodingKey { case ad, cachedAt = "cached_at", reach, signedBy = "signed_by" }

    /// A record of `ad` cached at `cachedAt`, from a manifest verified as `signedBy` (nil: taken
    /// without a trusted key); `reach` nil allows any address.
    public init(ad: AdEntry, cachedAt: Date, reach: Reach? = nil, signedBy: ManifestSignatureRecord? = nil) {
        self.ad = ad; self.cachedAt = cachedAt; self.reach = reach; self.signedBy = signedBy
    }
}

/// One verified file in `objects/`, keyed in `CacheIndex.files` by its sha256.
public struct FileRecord: Codable, Equatable, Sendable {
    /// Relative to the cache folder: `objects/<sha256>.<ext>`.
    public var file: String
    /// The file's size in bytes.
    public var bytes: Int64
    /// The URL it was downloaded from.
    public var url: String
    /// When it was downloaded.
    public var fetchedAt: Date
    /// When a launch last showed it; nil if never shown.
    public var lastShown: Date?
    /// The file's modification time (ns since 1970) when it was verified: a file written to
    /// since then is not used until re-hashed.
    public var mtimeNs: Int64?
    /// Set when a refresh would have deleted the file but the running launch was showing it:
    /// whose file it was and why it goes, for the `evicted` event of the refresh that deletes it.
    public var pendingEviction: PendingEviction?

    enum CodingKeys: String, CodingKey {
        case file, bytes, url, fetchedAt = "fetched_at", lastShown = "last_shown", mtimeNs = "mtime_ns"
        case pendingEviction = "pending_eviction"
    }

    /// A record of a downloaded file; `pendingEviction` starts unset.
    public init(file: String, bytes: Int64, url: String, fetchedAt: Date, lastShown: Date?, mtimeNs: Int64? = nil) {
        self.file = file; self.bytes = bytes; self.url = url; self.fetchedAt = fetchedAt; self.lastShown = lastShown
        self.mtimeNs = mtimeNs
    }

    /// When it last mattered: shown, else fetched. Least-recently-shown eviction goes by this.
    public var lastUsed: Date { lastShown ?? fetchedAt }
}

/// Whose file a deferred deletion removes and why, kept until a later refresh deletes it.
public struct PendingEviction: Codable, Equatable, Sendable {
    /// The id of the ad the file belonged to (`-` when unknown).
    public var id: String
    /// Why the file goes (for example `replaced`), reported in the `evicted` event.
    public var reason: String
    /// A pending eviction of the file of ad `id` for `reason`.
    public init(id: String, reason: String) { self.id = id; self.reason = reason }
}
