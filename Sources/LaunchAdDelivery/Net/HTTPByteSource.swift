import Foundation
import LaunchAdCore
import LaunchAdMedia

/// A network creative for the demuxer, fetched by the project's HTTP client in ranges: each
/// request obeys the same rules as a download (https unless loopback or --allow-http, every
/// redirect hop checked, TLS verified, identity encoding), the creative may not be larger than
/// `maxBytes`, and all requests together may not read more than four times its size (seeks back).
public final class HTTPByteSource: ByteSource, Sendable {
    static let chunk: Int64 = 1 << 20

    private let client: Fetcher
    private let url: URL
    private let maxBytes: Int64
    /// Which addresses every range request may reach: the reach of whoever named the URL.
    private let reach: Reach
    /// The chunk held, the total size once known, the bytes fetched so far, whether cancelled.
    private struct State {
        var cached: (start: Int64, data: Data)?
        var total: Int64?
        var fetched: Int64 = 0
        var cancelled = false
    }
    private let state = Locked(State())
    private let isAborted: @Sendable () -> Bool

    /// Fetches the first range at once, so a refused or unreachable URL fails the open; a run
    /// stopped meanwhile (`isAborted`) abandons it at once.
    public init(url: URL, reach: Reach, client: Fetcher, maxBytes: Int64, isAborted: @escaping @Sendable () -> Bool = { false }) throws {
        self.url = url; self.reach = reach; self.client = client; self.maxBytes = maxBytes; self.isAborted = isAborted
        try load(at: 0)
    }

    /// The opener to give the player: every network creative through `client`, each request
    /// held to `reach` (the reach of the document that named what the player will open).
    public static func opener(client: Fetcher, maxBytes: Int64, reach: Reach) -> NetworkOpener {
        NetworkOpener(reach: reach) { url, isAborted in
            try HTTPByteSource(url: url, reach: reach, client: client, maxBytes: maxBytes, isAborted: isAborted)
        }
    }

    public var size: Int64? { state.withLock { $0.total } }

    public func cancel() { state.withLock { $0.cancelled = true } }
    private var isCancelled: Bool { state.withLock { $0.cancelled } || isAborted() }

    public func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if let total = size, offset >= total { return 0 }
        if !covers(offset) { try load(at: offset) }
        return state.withLock { s in
            guard let (start, data) = s.cached, offset >= start, offset < start + Int64(data.count) else { return 0 }
            let from = Int(offset - start)
            let n = min(buffer.count, data.count - from)
            data.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + from, byteCount: n) }
            return n
        }
    }

    private func covers(_ offset: Int64) -> Bool {
        state.withLock { s in
            guard let (start, data) = s.cached else { return false }
            return offset >= start && offset < start + Int64(data.count)
        }
    }

    private func load(at offset: Int64) throws {
        guard !isCancelled else { throw FetchError("cancelled: \(TerminalText.quoted(url.absoluteString))", retryable: false) }
        var request = FetchRequest(
            url: url, reach: reach, headers: ["Range": "bytes=\(offset)-\(offset + HTTPByteSource.chunk - 1)"],
            maxBytes: maxBytes, isCancelled: { [weak self] in self?.isCancelled ?? true })
        // A 206 answer carries at most the range asked, whatever its headers promise.
        request.partialMaxBytes = HTTPByteSource.chunk
        let response = try client.fetch(request, progress: nil)
        let start: Int64
        let size: Int64
        switch response.status {
        case 206:
            // A malformed or inconsistent range is a network error: the run falls back, never traps.
            let header = response.headers["content-range"] ?? ""
            guard let range = ContentRange.answer(header, offset: offset, asked: HTTPByteSource.chunk, received: response.bytes) else {
                throw FetchError(
                    "unusable Content-Range \"\(TerminalText.escaped(String(header.prefix(80))))\" for \(response.bytes) bytes "
                        + "at \(offset) from \(TerminalText.quoted(url.absoluteString))", retryable: false)
            }
            start = range.start; size = range.total
        case 200:
            // No ranges: the whole body came (capped at maxBytes by the client).
            start = 0; size = response.bytes
        default:
            throw FetchError("HTTP \(response.status) for \(TerminalText.quoted(url.absoluteString))", retryable: false)
        }
        guard size <= maxBytes else {
            throw FetchError("\(url.lastPathComponent) is \(size) bytes, over the \(maxBytes)-byte limit", retryable: false)
        }
        try state.withLock { s throws(FetchError) in
            s.fetched += response.bytes
            guard s.fetched <= 4 * max(size, HTTPByteSource.chunk) else {
                throw FetchError(
                    "\(TerminalText.quoted(url.absoluteString)): read more than four times its size; giving up", retryable: false)
            }
            s.total = size
            s.cached = (start, response.body)
        }
    }
}
