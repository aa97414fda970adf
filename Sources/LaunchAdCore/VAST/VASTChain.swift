import Foundation

/// The ad that plays: the InLine with every wrapper's impressions, error URIs, tracking and
/// click tracking merged in (the spec: a wrapper's tracking fires along with the InLine's).
public struct ResolvedAd: Equatable, Sendable {
    public var id: String?
    public var sequence: Int?
    public var adSystem: String?
    public var adTitle: String?
    public var universalAdId: String?
    public var linear: VASTLinear
    public var impressions: [String]
    public var errors: [String]
    /// How many wrappers led to the InLine.
    public var wrapperDepth: Int
    /// The wrappers' VASTAdTagURIs, outermost first.
    public var tagURIs: [String] = []
    /// Which addresses the URLs of this chain (tracking, media) may reach: set by the resolver
    /// from where its documents came.
    public var reach: Reach = .any
    /// The smallest `<Expires>` of the chain's documents, in seconds; nil when none gives one.
    public var expires: Int? = nil

    /// When the ad stops being showable: `receivedAt` (when the tag was fetched) plus `expires`.
    public func expiry(receivedAt: Date) -> Date? {
        expires.map { receivedAt.addingTimeInterval(TimeInterval($0)) }
    }
    /// Each wrapper's AdSystem, outermost first (for the report's wrapper chain).
    public var wrapperSystems: [String?] = []
    /// The VAST version of each document the wrappers fetched, in order (the first document's is the caller's).
    public var documentVersions: [String] = []
}

/// Follows one ad down its wrappers: the depth limit, loops, unsafe URIs and the wrappers'
/// attributes are decided here; LaunchAdDelivery only fetches the documents it names.
public struct VASTChain: Sendable {
    public let maxWrappers: Int
    public private(set) var wrappers: [VASTAd] = []
    /// The version of each document read through `read(_:)`, in order.
    public private(set) var versions: [String] = []
    private var seen: Set<String> = []

    /// `tagURL`: where the first document came from (nil for a file), so a wrapper pointing back at it is a loop.
    public init(maxWrappers: Int, tagURL: String? = nil) {
        self.maxWrappers = maxWrappers
        if let tagURL { seen.insert(tagURL) }
    }

    /// The Error URIs to fire when the chain fails now: every wrapper's so far.
    public var errorURIs: [String] { wrappers.flatMap(\.errors) }

    /// Takes the next ad of the chain. A wrapper gives the URL to fetch next; an InLine, nil.
    public mutating func step(_ ad: VASTAd) throws -> String? {
        if let bad = VASTURIs.firstUnsafe(in: ad) {
            if ad.isWrapper { wrappers.append(ad) }
            throw VASTError(VASTError.schema, "refusing the URI '\(bad.prefix(80))': only http and https are allowed")
        }
        guard let w = ad.wrapper else { return nil }
        wrappers.append(ad)
        guard wrappers.count <= maxWrappers else {
            throw VASTError(VASTError.wrapperLimit, "more than \(maxWrappers) wrappers (--max-wrappers)")
        }
        guard seen.insert(w.tagURI).inserted else {
            throw VASTError(VASTError.wrapper, "wrapper loop: \(w.tagURI) was already requested")
        }
        return w.tagURI
    }

    /// The ad to follow in the document the last wrapper fetched, as its attributes allow.
    public func pick(from doc: VASTDocument) throws -> VASTAd {
        let w = wrappers.last?.wrapper
        let ad: VASTAd?
        if w?.allowMultipleAds == true {
            ad = doc.ads.sorted { ($0.sequence ?? Int.max) < ($1.sequence ?? Int.max) }.first
        } else {
            // Only the first standalone ad is allowed (a pod is not).
            ad = doc.ads.first { $0.sequence == nil } ?? (w == nil ? doc.ads.first : nil)
        }
        guard let ad else { throw VASTError(VASTError.noAd, wrappers.isEmpty ? "the response holds no ad" : "the wrapped response holds no ad") }
        if ad.isWrapper, w?.followAdditionalWrappers == false {
            throw VASTError(VASTError.wrapper, "a further wrapper where followAdditionalWrappers is false")
        }
        return ad
    }

    /// `pick(from:)`, noting the document's version for the report's wrapper chain.
    public mutating func read(_ doc: VASTDocument) throws -> VASTAd {
        versions.append(doc.version)
        return try pick(from: doc)
    }

    /// A document the chain went on to, as a report of a chain that stopped shows it.
    public struct Followed: Equatable, Sendable {
        public enum State: Equatable, Sendable {
            /// Read, and the ad taken from it is a wrapper, or the InLine.
            case wrapper, inline
            /// Read, but no ad could be taken from it.
            case noAd
            /// Never read: the fetch or the parse failed, or the chain stopped before it.
            case notRead
        }
        public var uri: String
        public var version: String?
        public var adSystem: String?
        public var state: State

        public init(uri: String, version: String?, adSystem: String?, state: State) {
            self.uri = uri; self.version = version; self.adSystem = adSystem; self.state = state
        }
    }

    /// Each document after the first that the wrappers named, in order, as far as the chain got;
    /// `reached` is the ad read from the last one when the chain stopped after reading it.
    public func followed(reached: VASTAd?) -> [Followed] {
        wrappers.enumerated().compactMap { k, wrapper in
            guard let uri = wrapper.wrapper?.tagURI else { return nil }
            guard k < versions.count else { return Followed(uri: uri, version: nil, adSystem: nil, state: .notRead) }
            let ad = k + 1 < wrappers.count ? wrappers[k + 1] : reached
            guard let ad else { return Followed(uri: uri, version: versions[k], adSystem: nil, state: .noAd) }
            return Followed(uri: uri, version: versions[k], adSystem: ad.adSystem, state: ad.isWrapper ? .wrapper : .inline)
        }
    }

    /// The InLine with the wrappers' tracking merged in (outermost wrapper first).
    public func merged(inline: VASTAd) throws -> ResolvedAd {
        guard var linear = inline.linear else {
            throw VASTError(VASTError.linearity, "the ad has no <Linear> creative (only linear video ads are played)")
        }
        let outer = wrappers.compactMap(\.linear)
        linear.tracking = outer.flatMap(\.tracking) + linear.tracking
        linear.clickTracking = outer.flatMap(\.clickTracking) + linear.clickTracking
        return ResolvedAd(id: inline.id, sequence: inline.sequence, adSystem: inline.adSystem, adTitle: inline.adTitle,
                          universalAdId: inline.universalAdId, linear: linear,
                          impressions: wrappers.flatMap(\.impressions) + inline.impressions,
                          errors: errorURIs + inline.errors, wrapperDepth: wrappers.count,
                          tagURIs: wrappers.compactMap { $0.wrapper?.tagURI },
                          expires: (wrappers + [inline]).compactMap(\.expires).min(),
                          wrapperSystems: wrappers.map(\.adSystem), documentVersions: versions)
    }
}

/// Every URI an ad holds must be http(s): nothing from a tag ever becomes a path or a script.
public enum VASTURIs {
    public static func all(in ad: VASTAd) -> [String] {
        var uris = ad.impressions + ad.errors
        if let w = ad.wrapper { uris.append(w.tagURI) }
        if let l = ad.linear {
            uris += l.tracking.map(\.url) + l.clickTracking + l.mediaFiles.map(\.url)
            if let c = l.clickThrough { uris.append(c) }
        }
        return uris
    }

    public static func firstUnsafe(in ad: VASTAd) -> String? {
        all(in: ad).first { !Link.isAllowed($0) }
    }
}
