import Foundation
import LaunchAdCore

/// A chain that failed: its VAST error and the Error URIs it had gathered (to fire with the code).
public struct VASTFailure: Error, Sendable {
    public var error: VASTError
    public var errorURIs: [String]
    /// The documents the wrappers led to before the chain stopped, for the report.
    public var followed: [VASTChain.Followed]
    /// Which addresses the Error URIs may reach (the chain's least trusted document decides; no
    /// default: a failure before any document was read is held to public addresses).
    public var reach: Reach
    public init(_ error: VASTError, errorURIs: [String] = [], followed: [VASTChain.Followed] = [], reach: Reach) {
        self.error = error; self.errorURIs = errorURIs; self.followed = followed; self.reach = reach
    }
}

/// Fetches VAST documents and follows wrappers down to the InLine. Every decision (depth,
/// loops, which ad, merging) is VASTChain's; this only reads bytes: https (plain http for
/// loopback or --allow-http), at most `maxBytes` per document, `timeout` seconds per document.
public struct VASTResolver: Sendable {
    public static let maxBytes = Int64(VASTLimits.maxBytes)
    public let fetcher: Fetcher
    public var maxWrappers: Int
    /// Seconds one document may take to parse (`--vast-timeout`): a tag cannot hold the CPU longer.
    public var parseTimeout: Double

    /// Ends a slow tag's fetch at once when it turns true (the run was told to stop).
    public var isCancelled: @Sendable () -> Bool

    public init(fetcher: Fetcher, maxWrappers: Int, parseTimeout: Double = 5, isCancelled: @escaping @Sendable () -> Bool = { false }) {
        self.fetcher = fetcher; self.maxWrappers = maxWrappers; self.parseTimeout = parseTimeout; self.isCancelled = isCancelled
    }

    /// The usual network: `client` (the run's, with `timeout` for each whole document).
    public init(client: HTTPClient, maxWrappers: Int, isCancelled: @escaping @Sendable () -> Bool = { false }) {
        self.init(fetcher: client, maxWrappers: maxWrappers, parseTimeout: client.totalTimeout, isCancelled: isCancelled)
    }

    /// Parses one document within `parseTimeout`; a refused version carries its root Error URIs.
    func parse(_ data: Data) throws -> VASTDocument {
        do { return try VASTParser.parse(data, budget: VASTLimits.budget(seconds: parseTimeout)) } catch let e as VASTError {
            throw VASTFailure(e, reach: .publicOnly)
        } catch let r as VASTDocumentRefusal {
            // Held to public addresses until the caller, who knows the document's reach, says.
            throw VASTFailure(r.error, errorURIs: r.errorURIs, reach: .publicOnly)
        }
    }

    /// The first document and the reach of the URLs it names. `reach` is the tag URL's own (a
    /// tag named by a remote manifest is `.publicOnly`, one the user named `.any`); a local file
    /// names URLs that reach anywhere.
    public func loadReached(_ source: String, reach: Reach) throws -> (document: VASTDocument, reach: Reach) {
        let data: Data
        var named = Reach.any
        if source.contains("://") {
            guard let url = URL(string: source), url.scheme == "http" || url.scheme == "https" else {
                throw VASTFailure(VASTError(VASTError.wrapperTimeout, "a tag URL must be http or https: \(source)"), reach: reach)
            }
            (data, named) = try fetch(url, reach: reach)
        } else {
            guard let h = FileHandle(forReadingAtPath: source) else {
                throw VASTFailure(VASTError(VASTError.wrapperTimeout, "cannot read the tag \(source)"), reach: reach)
            }
            defer { try? h.close() }
            data = (try? h.read(upToCount: Int(Self.maxBytes) + 1)) ?? Data()
            guard data.count <= Self.maxBytes else {
                throw VASTFailure(VASTError(VASTError.xmlParse, "the tag is over the \(Self.maxBytes)-byte limit"), reach: reach)
            }
        }
        do { return (try parse(data), named) } catch var f as VASTFailure {
            f.reach = named
            throw f
        }
    }

    /// Follows `ad` (from the document at `tagURL`, whose root Error URIs are `rootErrors` and
    /// whose URLs have `reach`) through its wrappers to the ad that plays; the resolved ad's
    /// reach is its least trusted document's.
    public func resolve(_ ad: VASTAd, tagURL: String?, rootErrors: [String] = [], reach first: Reach) -> Result<
        ResolvedAd, VASTFailure
    > {
        var chain = VASTChain(maxWrappers: maxWrappers, tagURL: tagURL, rootErrors: rootErrors)
        var current = ad
        // Each wrapper's VASTAdTagURI may reach what its own document allows; the chain keeps the narrowest.
        var named = first
        var reach = first
        // The ad read from the last document fetched, once one was (an InLine that then fails).
        var reached: VASTAd?
        var documentErrors: [String] = []
        do {
            while let next = try chain.step(current) {
                guard let url = URL(string: next) else { throw VASTError(VASTError.wrapperTimeout, "not a URL: \(next)") }
                let doc: VASTDocument
                do {
                    let (data, docReach) = try fetch(url, reach: named)
                    named = docReach
                    reach = reach.narrowed(docReach)
                    doc = try parse(data)
                } catch let f as VASTFailure {
                    // A wrapped document refused whole (its version) still has its root Error URIs told.
                    documentErrors = f.errorURIs
                    throw f.error
                }
                current = try chain.read(doc)
                reached = current
            }
            return .success(try chain.merged(inline: current, reach: reach))
        } catch let e as VASTError {
            // Before the chain took `current` (a refusal in it), its wrappers' URIs are still owed.
            return .failure(
                VASTFailure(
                    e, errorURIs: chain.errorURIs(for: e, at: current) + documentErrors,
                    followed: chain.followed(reached: reached?.isWrapper == false ? reached : nil), reach: reach))
        } catch {
            return .failure(
                VASTFailure(
                    VASTError(VASTError.undefined, "\(error)"), errorURIs: chain.errorURIs,
                    followed: chain.followed(reached: nil), reach: reach))
        }
    }

    /// One document's bytes and the reach of the URLs it names; an unreachable, refused,
    /// failing or slow tag is error 301.
    func fetch(_ url: URL, reach: Reach) throws -> (Data, Reach) {
        do {
            // A run told to stop (a service being stopped) ends a slow tag's fetch at once.
            let request = FetchRequest(url: url, reach: reach, maxBytes: Self.maxBytes, isCancelled: isCancelled)
            let r = try fetcher.fetch(request, progress: nil)
            guard (200..<300).contains(r.status) else {
                throw VASTFailure(VASTError(VASTError.wrapperTimeout, "HTTP \(r.status) for \(url.absoluteString)"), reach: reach)
            }
            return (r.body, r.namedReach)
        } catch let e as FetchError {
            let code = e.message.contains("-byte limit") ? VASTError.xmlParse : VASTError.wrapperTimeout
            throw VASTFailure(VASTError(code, e.message), reach: reach)
        }
    }
}
