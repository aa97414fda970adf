import Foundation
import LaunchAdCore

/// One GET (or a POST with `body`): the answer's body goes to `destination` (a file) or, when nil, into memory.
///
/// Every network read of launchad is one of these, handed to a `Fetcher` (the gateway: see
/// `FetchGateway` for the list of the code that builds them). The reach has no default: whoever
/// builds a request says which addresses its URL may reach, so a new fetch cannot forget it.
public struct FetchRequest: Sendable {
    public var url: URL
    /// Which addresses this URL may reach: `.publicOnly` when a document from a public address
    /// named it, `.any` only for what the user named (or a document from an internal address did).
    public let reach: Reach
    public var headers: [String: String] = [:]
    /// "GET", or "POST" for the outbox's play records.
    public var method = "GET"
    public var body: Data?
    /// The most bytes accepted; a larger body is abandoned.
    public var maxBytes: Int64
    /// The most bytes a 206 (partial) answer may carry: the length of the range asked.
    public var partialMaxBytes: Int64?
    public var destination: URL?
    /// Polled while the transfer runs: true abandons it at once (the ad being streamed ended).
    public var isCancelled: (@Sendable () -> Bool)?
    /// The refresh this request belongs to: a retry's backoff waits on it and ends when it is cancelled.
    public var cancellation: Cancellation?
    /// False: a 3xx is the answer, not followed (a request carrying credentials goes to its URL only).
    public var followsRedirects = true

    public init(
        url: URL, reach: Reach, headers: [String: String] = [:], maxBytes: Int64, destination: URL? = nil,
        isCancelled: (@Sendable () -> Bool)? = nil
    ) {
        self.url = url; self.reach = reach; self.headers = headers; self.maxBytes = maxBytes; self.destination = destination
        self.isCancelled = isCancelled
    }
}

public struct FetchResponse: Sendable {
    public var status: Int
    /// Header names in lower case.
    public var headers: [String: String]
    /// The body when no destination was given.
    public var body: Data
    public var bytes: Int64
    /// The reach of the URLs this body names: `.any` when it came from an internal address or a
    /// local file, `.publicOnly` when from a public address.
    public var namedReach: Reach
    /// The first few KB of a non-2xx answer's body (the server's reason), never written to `destination`.
    public var errorPage = Data()

    /// `namedReach` has no default: whoever makes an answer says what the URLs in it may reach.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data(), bytes: Int64 = 0, namedReach: Reach) {
        self.status = status; self.headers = headers; self.body = body; self.bytes = bytes; self.namedReach = namedReach
    }
}

public struct FetchError: Error, Equatable, CustomStringConvertible {
    public let message: String
    /// Worth another try (timeouts, dropped connections, server errors), not a 404 or a policy refusal.
    public let retryable: Bool
    /// The body was over the request's byte cap.
    public var tooLarge = false
    /// A failure saying `message`, cut to `maxLength` (`TerminalText.cut`): a message quotes a
    /// URL, and a URL a user or a document gave may be of any length.
    public init(_ message: String, retryable: Bool, tooLarge: Bool = false) {
        self.message = TerminalText.cut(message, to: Self.maxLength); self.retryable = retryable; self.tooLarge = tooLarge
    }

    /// The most a fetch failure says, in Unicode scalars.
    public static let maxLength = 600
    public var description: String { message }
}

/// The network, behind one call, so the prefetcher runs against a fake in tests.
/// `progress` gets the bytes received so far.
public protocol Fetcher: Sendable {
    func fetch(_ request: FetchRequest, progress: ((Int64) -> Void)?) throws -> FetchResponse
}

/// Which URLs may be fetched: https anywhere; http only from loopback hosts or when allowed;
/// file URLs (from a local manifest).
public enum URLPolicy {
    public static func check(_ url: URL, allowHTTP: Bool) throws {
        switch url.scheme?.lowercased() {
        case "https"?, "file"?: return
        case "http"?:
            if allowHTTP || isLoopback(url.host ?? "") { return }
            throw FetchError("refusing plain http for \(url.host ?? "?") (use https, or --allow-http)", retryable: false)
        default:
            throw FetchError("unsupported URL scheme in \(TerminalText.quoted(url.absoluteString))", retryable: false)
        }
    }

    /// Only names that cannot be resolved elsewhere: an IPv4 literal in 127.0.0.0/8 (four
    /// decimal parts), the IPv6 literal ::1, or exactly `localhost`. `127.evil.example` or
    /// `ads.localhost` go through DNS and could be anywhere.
    public static func isLoopback(_ host: String) -> Bool {
        let h = host.lowercased()
        if h == "localhost" { return true }
        if h.hasPrefix("[") && h.hasSuffix("]") || h.contains(":") {
            var addr = in6_addr()
            let literal = String(h.trimmingCharacters(in: CharacterSet(charactersIn: "[]")))
            guard inet_pton(AF_INET6, literal, &addr) == 1 else { return false }
            return withUnsafeBytes(of: &addr) { Array($0) } == [UInt8](repeating: 0, count: 15) + [1]
        }
        let parts = h.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts.allSatisfy({ !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            parts.allSatisfy({ Int($0).map { $0 <= 255 } ?? false })
        else { return false }
        return parts[0] == "127"
    }
}

/// Tries a fetch again after transient failures, waiting longer each time.
public struct RetryingFetcher: Fetcher {
    public let base: Fetcher
    public var retries: Int
    public var backoff: Double

    public init(_ base: Fetcher, retries: Int = 2, backoff: Double = 0.5) {
        self.base = base; self.retries = retries; self.backoff = backoff
    }

    public func fetch(_ request: FetchRequest, progress: ((Int64) -> Void)?) throws -> FetchResponse {
        var attempt = 0
        while true {
            do {
                let response = try base.fetch(request, progress: progress)
                let transient = response.status >= 500 || response.status == 408 || response.status == 429
                guard transient && attempt < retries else { return response }
                guard waitBeforeRetry(attempt, request) else { return response }
                attempt += 1
            } catch let e as FetchError where e.retryable && attempt < retries {
                guard waitBeforeRetry(attempt, request) else { throw e }
                attempt += 1
            }
        }
    }

    /// Waits out the backoff (at most 30 s); false when the request's refresh was cancelled meanwhile.
    private func waitBeforeRetry(_ attempt: Int, _ request: FetchRequest) -> Bool {
        let seconds = min(backoff * Double(1 << min(attempt, 6)), 30)
        guard seconds > 0 else { return request.cancellation?.isCancelled != true }
        return (request.cancellation ?? Cancellation()).sleep(seconds)
    }
}
