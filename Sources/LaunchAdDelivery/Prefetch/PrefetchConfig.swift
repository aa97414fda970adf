import Foundation
import LaunchAdCore

/// What a refresh needs to know besides the cache and the network.
public struct PrefetchConfig: Sendable {
    /// The manifest: an http(s) URL or a file URL.
    public var manifestURL: URL
    /// The screen the variants are chosen for.
    public var screen: Size
    public var cacheLimit: Int64
    public var maxCreativeBytes: Int64
    public var maxManifestBytes: Int64
    /// The most a manifest may be, unless told otherwise.
    public static let defaultMaxManifestBytes: Int64 = 1_000_000
    /// The keys a manifest must be signed with (`--trust-key`); nil: signatures are not looked at.
    public var trust: TrustedKeys?

    public init(
        manifestURL: URL, screen: Size, cacheLimit: Int64 = 200_000_000,
        maxCreativeBytes: Int64 = 100_000_000, maxManifestBytes: Int64 = defaultMaxManifestBytes, trust: TrustedKeys? = nil
    ) {
        self.manifestURL = manifestURL; self.screen = screen; self.cacheLimit = cacheLimit
        self.maxCreativeBytes = maxCreativeBytes; self.maxManifestBytes = maxManifestBytes; self.trust = trust
    }
}

/// How far a refresh's downloads have got, for a progress bar.
public struct PrefetchProgress: Sendable {
    public var id: String
    public var doneBytes: Int64
    public var totalBytes: Int64
}

/// What a refresh did.
public struct PrefetchReport: Equatable, Sendable {
    /// The manifest was read and every creative it wants is cached: nothing `failed`. Ads the
    /// manifest itself refuses (a bad field, an unknown time zone) are `rejected`, not failures.
    public var ok = false
    public var manifestRead = false
    public var downloads = 0
    public var downloadedBytes: Int64 = 0
    /// `rejected` events: the manifest's refused ads and every failure below.
    public var rejected = 0
    /// What the refresh could not do: the manifest unread, a creative or VAST tag not had, the
    /// cache not written.
    public var failed = 0

    /// A `rejected` event that is also a failure of the refresh.
    mutating func fail() { rejected += 1; failed += 1 }
    public var evicted = 0
}
