import Foundation

/// The ad that plays: the InLine with every wrapper's impressions, error URIs, tracking and
/// click tracking merged in (the spec: a wrapper's tracking fires along with the InLine's).
public struct ResolvedAd: Equatable, Sendable {
    /// The InLine `<Ad>`'s `id`.
    public var id: String?
    /// Position in the pod (the outermost wrapper's, when wrapped); nil for a standalone ad.
    public var sequence: Int?
    /// The InLine's `<AdSystem>`.
    public var adSystem: String?
    /// The InLine's `<AdTitle>`.
    public var adTitle: String?
    /// The InLine's `<UniversalAdId>` text (VAST 4.x).
    public var universalAdId: String?
    /// The InLine's linear creative, with the wrappers' tracking and click tracking merged in.
    public var linear: VASTLinear
    /// Impression URIs of every document of the chain, outermost first.
    public var impressions: [String]
    /// Error URIs of every document of the chain, outermost first.
    public var errors: [String]
    /// How many wrappers led to the InLine.
    public var wrapperDepth: Int
    /// The wrappers' VASTAdTagURIs, outermost first.
    public var tagURIs: [String] = []
    /// Which addresses the URLs of this chain (tracking, media) may reach: the narrowest of
    /// where its documents came from, stated by whoever makes the ad (no default).
    public var reach: Reach
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
    /// Every document's verifications: none can run here, each is told so.
    public var verifications: [VASTVerification] = []
    /// `<ViewableImpression>` URIs of every document of the chain, outermost first.
    public var viewable = VASTViewableImpression()
    /// What the chain's ads were read leniently for.
    public var notes: [VASTNote] = []
    /// URIs left out by the per-event cap, by event.
    public var urisDropped: [String: Int] = [:]
}

/// Follows one ad down its wrappers: the depth limit, loops, unsafe URIs, relative tag URIs and
/// the wrappers' attributes are decided here; LaunchAdDelivery only fetches the documents it names.
public struct VASTChain: Sendable {
    /// The most wrappers followed before the chain fails with 302 (`--max-wrappers`).
    public let maxWrappers: Int
    /// The wrapper ads taken so far, outermost first.
    public private(set) var wrappers: [VASTAd] = []
    /// The version of each document read through `read(_:)`, in order.
    public private(set) var versions: [String] = []
    private var seen: Set<String> = []
    /// Where the document the current ad came from was fetched: a relative VASTAdTagURI is read against it.
    private var base: String?
    /// The root `<Error>` URIs of the last document read (the first one's from `init`): fired
    /// when that document gives no playable ad (303).
    private var rootErrors: [String]

    /// `tagURL`: where the first document came from (nil for a file), so a wrapper pointing back
    /// at it is a loop; `rootErrors`: that document's root `<Error>` URIs.
    public init(maxWrappers: Int, tagURL: String? = nil, rootErrors: [String] = []) {
        self.maxWrappers = maxWrappers
        self.rootErrors = rootErrors
        base = tagURL
        if let tagURL { seen.insert(tagURL) }
    }

    /// The Error URIs to fire when the chain fails now: every wrapper's so far.
    public var errorURIs: [String] { wrappers.flatMap(\.errors) }

    /// The Error URIs for `error` met at `current` (the ad read last): the wrappers', that ad's
    /// own when it is the InLine, and the document's root ones when it gave no ad (303).
    public func errorURIs(for error: VASTError, at current: VASTAd?) -> [String] {
        var uris = errorURIs
        if let current, !current.isWrapper { uris += current.errors }
        if error.code == VASTError.noAd { uris += rootErrors }
        return uris
    }

    /// Takes the next ad of the chain. A wrapper gives the URL to fetch next; an InLine, nil.
    public mutating func step(_ ad: VASTAd) throws -> String? {
        var ad = ad
        if var w = ad.wrapper, ad.problem == nil {
            // RFC 3986: a relative VASTAdTagURI is read against the wrapper's own document.
            guard let absolute = Self.absolute(w.tagURI, base: base) else {
                wrappers.append(ad)
                throw VASTError(
                    VASTError.schema, "the relative VASTAdTagURI '\(w.tagURI.prefix(80))' has no base URL (the tag was read from a file)")
            }
            w.tagURI = absolute
            ad.wrapper = w
        }
        if let problem = ad.problem {
            if ad.isWrapper { wrappers.append(ad) }
            throw problem
        }
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
        base = w.tagURI
        return w.tagURI
    }

    /// `uri` made absolute against `base`; itself when it has a scheme; nil when relative without a base.
    static func absolute(_ uri: String, base: String?) -> String? {
        if VASTURIs.hasScheme(uri) { return uri }
        guard let base, let b = URL(string: base), let u = URL(string: uri, relativeTo: b) else { return nil }
        return u.absoluteString
    }

    /// The ad to follow in the document the last wrapper fetched, as its attributes allow.
    public func pick(from doc: VASTDocument) throws -> VASTAd {
        let w = wrappers.last?.wrapper
        var ad: VASTAd?
        if w?.allowMultipleAds == true {
            ad = doc.ads.sorted { ($0.sequence ?? Int.max) < ($1.sequence ?? Int.max) }.first
        } else {
            // Only the first standalone ad is allowed (a pod is not).
            ad = doc.ads.first { $0.sequence == nil } ?? (w == nil ? doc.ads.first : nil)
        }
        guard ad != nil else {
            throw VASTError(VASTError.noAd, wrappers.isEmpty ? "the response holds no ad" : "the wrapped response holds no ad")
        }
        if ad!.isWrapper, w?.followAdditionalWrappers == false {
            throw VASTError(VASTError.wrapper, "a further wrapper where followAdditionalWrappers is false")
        }
        // The wrapper's place in its pod carries to the single ad it unwraps to.
        if let outer = wrappers.first?.sequence { ad!.sequence = outer }
        return ad!
    }

    /// `pick(from:)`, noting the document's version and root Error URIs.
    public mutating func read(_ doc: VASTDocument) throws -> VASTAd {
        versions.append(doc.version)
        rootErrors = doc.errors
        return try pick(from: doc)
    }

    /// A document the chain went on to, as a report of a chain that stopped shows it.
    public struct Followed: Equatable, Sendable {
        /// How far the chain got with the document.
        public enum State: Equatable, Sendable {
            /// Read, and the ad taken from it is a wrapper, or the InLine.
            case wrapper, inline
            /// Read, but no ad could be taken from it.
            case noAd
            /// Never read: the fetch or the parse failed, or the chain stopped before it.
            case notRead
        }
        /// The VASTAdTagURI that named the document.
        public var uri: String
        /// The document's VAST version; nil when it was not read.
        public var version: String?
        /// `<AdSystem>` of the ad taken from it; nil when none was.
        public var adSystem: String?
        /// How far the chain got with it.
        public var state: State

        /// A followed document as given.
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

    /// The InLine with the wrappers' tracking merged in (outermost wrapper first), its URLs held
    /// to `reach` (the chain's documents' narrowest). An ad with no creative to play is 303 (a
    /// NonLinear-only ad, 201: the player expects linear ads).
    public func merged(inline: VASTAd, reach: Reach) throws -> ResolvedAd {
        if let problem = inline.problem { throw problem }
        guard var linear = inline.linear, !linear.mediaFiles.isEmpty else {
            if inline.linear == nil, inline.hasNonLinear {
                throw VASTError(VASTError.linearity, "the ad has only a <NonLinearAds> creative (only linear video ads are played)")
            }
            throw VASTError(VASTError.noAd, "the ad has no <Linear> creative with media files")
        }
        let chain = wrappers + [inline]
        var dropped = chain.reduce(into: [String: Int]()) { $0.merge($1.urisDropped, uniquingKeysWith: +) }
        func merge(_ lists: [[String]], _ event: String) -> [String] {
            let (kept, n) = Self.capped(lists)
            if n > 0 { dropped[event, default: 0] += n }
            return kept
        }
        let linears = wrappers.map { $0.linear ?? VASTLinear() } + [linear]
        // Each event's URIs, outermost first, the events in the order they first appear.
        var order: [String] = [], known: Set<String> = []
        for t in linears.flatMap(\.tracking) where known.insert(t.event).inserted { order.append(t.event) }
        var byEvent: [String: [[VASTTracking]]] = [:]
        for (i, l) in linears.enumerated() {
            for t in l.tracking {
                var lists = byEvent[t.event] ?? Array(repeating: [], count: linears.count)
                lists[i].append(t)
                byEvent[t.event] = lists
            }
        }
        var tracking: [VASTTracking] = []
        for event in order {
            let (kept, n) = Self.capped(byEvent[event] ?? [])
            if n > 0 { dropped[event, default: 0] += n }
            tracking += kept
        }
        linear.tracking = tracking
        linear.clickTracking = merge(linears.map(\.clickTracking), "ClickTracking")
        var viewable = VASTViewableImpression()
        viewable.viewable = merge(chain.map(\.viewable.viewable), "Viewable")
        viewable.notViewable = merge(chain.map(\.viewable.notViewable), "NotViewable")
        viewable.undetermined = merge(chain.map(\.viewable.undetermined), "ViewUndetermined")
        var ad = ResolvedAd(
            id: inline.id, sequence: inline.sequence, adSystem: inline.adSystem, adTitle: inline.adTitle,
            universalAdId: inline.universalAdId, linear: linear,
            impressions: merge(chain.map(\.impressions), "Impression"),
            errors: merge(chain.map(\.errors), "Error"), wrapperDepth: wrappers.count,
            tagURIs: wrappers.compactMap { $0.wrapper?.tagURI }, reach: reach,
            expires: chain.compactMap(\.expires).min(),
            wrapperSystems: wrappers.map(\.adSystem), documentVersions: versions)
        ad.verifications = Array(chain.flatMap(\.verifications).prefix(VASTLimits.urisPerEvent))
        ad.viewable = viewable
        ad.notes = chain.flatMap(\.notes)
        ad.urisDropped = dropped
        return ad
    }

    /// At most `VASTLimits.urisPerEvent` of `lists` (outermost first), the innermost kept first
    /// (the ad's own server over the wrappers around it), returned in their original order.
    static func capped<T>(_ lists: [[T]]) -> (kept: [T], dropped: Int) {
        var room = VASTLimits.urisPerEvent
        var takes = Array(repeating: 0, count: lists.count)
        for i in lists.indices.reversed() {
            takes[i] = min(room, lists[i].count)
            room -= takes[i]
        }
        let kept = lists.indices.flatMap { lists[$0].prefix(takes[$0]) }
        return (kept, lists.reduce(0) { $0 + $1.count } - kept.count)
    }
}

/// Every URI an ad holds must be http(s): nothing from a tag ever becomes a path or a script.
public enum VASTURIs {
    /// Every URI `ad` holds: impressions, errors, verifications, viewability, the wrapper's tag URI, tracking, clicks, media.
    public static func all(in ad: VASTAd) -> [String] {
        var uris =
            ad.impressions + ad.errors + ad.verifications.flatMap(\.notExecuted)
            + ad.viewable.viewable + ad.viewable.notViewable + ad.viewable.undetermined
        if let w = ad.wrapper { uris.append(w.tagURI) }
        if let l = ad.linear {
            uris += l.tracking.map(\.url) + l.clickTracking + l.mediaFiles.map(\.url)
            if let c = l.clickThrough { uris.append(c) }
        }
        return uris
    }

    /// The first URI naming a scheme other than http(s) (`file:`, `javascript:`, `data:`): the ad
    /// is refused. A media file's relative URI (a VPAID `parser.js`) is only a file never played.
    public static func firstUnsafe(in ad: VASTAd) -> String? {
        let media = Set(ad.linear?.mediaFiles.map(\.url) ?? [])
        return all(in: ad).first { !Link.isAllowed($0) && !(media.contains($0) && !hasScheme($0)) }
    }

    static func hasScheme(_ uri: String) -> Bool {
        let head = uri.prefix { $0 != ":" && $0 != "/" && $0 != "?" && $0 != "#" }
        return head.count < uri.count && uri[head.endIndex] == ":" && head.first?.isLetter == true
    }
}
