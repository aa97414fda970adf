import Foundation
import LaunchAdCore

/// The real network: libcurl for http(s) (TLS certificates verified, the default), plain reads
/// for file URLs. Every redirect is followed here, not by curl, so each hop passes the same
/// URL policy; bodies are never decoded (identity is asked for, an encoded body refused), so
/// the size caps count the bytes that arrive.
/// Settings are fixed at construction; each transfer owns its own curl handle.
public final class HTTPClient: Fetcher, Sendable {
    public let connectTimeout: Double
    public let totalTimeout: Double
    public let maxRedirects: Int
    public let allowHTTP: Bool
    /// `--allow-private-network` for this client's run: URLs named by remote documents may reach
    /// internal addresses too. A setting of the run that made the client, never of the process.
    public let allowPrivateNetwork: Bool
    /// The same on every request: tags, manifests, creatives, beacons and records.
    public let userAgent = LaunchAdVersion.userAgent

    public init(
        connectTimeout: Double = 5, totalTimeout: Double = 60, maxRedirects: Int = 5, allowHTTP: Bool = false,
        allowPrivateNetwork: Bool = false
    ) {
        self.connectTimeout = connectTimeout; self.totalTimeout = totalTimeout
        self.maxRedirects = maxRedirects; self.allowHTTP = allowHTTP; self.allowPrivateNetwork = allowPrivateNetwork
    }

    public func fetch(_ request: FetchRequest, progress: ((Int64) -> Void)?) throws -> FetchResponse {
        try URLPolicy.check(request.url, allowHTTP: allowHTTP)
        if request.url.isFileURL { return try readFile(request, progress: progress) }
        // `--timeout` bounds the whole fetch, redirects included.
        let deadline = ProcessClock.uptimeSeconds() + totalTimeout
        var url = request.url
        var redirects = 0
        // A redirect is a document too: the next hop may reach internal addresses only when
        // this one came from one.
        var reach = request.reach
        while true {
            let left = deadline - ProcessClock.uptimeSeconds()
            guard left > 0 else { throw FetchError("timed out: \(TerminalText.quoted(request.url.absoluteString))", retryable: true) }
            let transfer = try CurlTransfer(
                url: url, request: request, connectTimeout: min(connectTimeout, left), totalTimeout: left,
                userAgent: userAgent, publicOnly: reach == .publicOnly && !allowPrivateNetwork,
                progress: progress)
            try transfer.perform()
            reach = Reach.namedByDocument(fromInternalAddress: transfer.peerIsInternal)
            if request.followsRedirects, (300..<400).contains(transfer.status), transfer.status != 304, let next = transfer.redirectURL {
                redirects += 1
                guard redirects <= maxRedirects else {
                    throw FetchError(
                        "more than \(maxRedirects) redirects for \(TerminalText.quoted(request.url.absoluteString))", retryable: false)
                }
                do { try URLPolicy.check(next, allowHTTP: allowHTTP) } catch let e as FetchError {
                    throw FetchError("redirected to a refused URL: \(e.message)", retryable: false)
                }
                guard !next.isFileURL else {
                    throw FetchError("redirected to a refused URL: \(TerminalText.quoted(next.absoluteString))", retryable: false)
                }
                url = next
                continue
            }
            var response = FetchResponse(
                status: transfer.status, headers: transfer.headers, body: transfer.sink?.memory ?? Data(),
                bytes: transfer.sink?.count ?? 0, namedReach: reach)
            response.errorPage = transfer.errorPage
            return response
        }
    }

    private func readFile(_ request: FetchRequest, progress: ((Int64) -> Void)?) throws -> FetchResponse {
        // Opened without blocking, then checked: a FIFO or a device would be read forever.
        let fd = open(request.url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            throw FetchError(FileProblem(errno: errno, path: request.url.path, access: .read).description, retryable: false)
        }
        let input = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else {
            throw FetchError("\(request.url.path) is not a regular file (a FIFO, device or folder); refusing to read it", retryable: false)
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        let sink = try BodySink(destination: request.destination)
        while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty {
            try sink.append(chunk)
            guard sink.count <= request.maxBytes else {
                throw FetchError(
                    "\(request.url.lastPathComponent) is larger than the \(request.maxBytes)-byte limit", retryable: false, tooLarge: true)
            }
            progress?(sink.count)
        }
        try sink.close()
        // A local file, named by the user or by a local document: what it names may reach anywhere.
        return FetchResponse(status: 200, body: sink.memory, bytes: sink.count, namedReach: .any)
    }
}

/// Collects a body in memory or appends it to a file.
final class BodySink {
    private let handle: FileHandle?
    private(set) var memory = Data()
    private(set) var count: Int64 = 0

    init(destination: URL?) throws {
        guard let destination else { handle = nil; return }
        guard let h = PrivateFile.create(destination.path) else {
            throw FetchError("cannot write \(destination.path)", retryable: false)
        }
        handle = h
    }

    func append(_ data: Data) throws {
        count += Int64(data.count)
        if let handle { try handle.write(contentsOf: data) } else { memory.append(data) }
    }

    func close() throws { try handle?.close() }
}
