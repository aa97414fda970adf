import LaunchAdCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The real network: Foundation's URLSession for http(s) (TLS certificates verified, the
/// default), plain reads for file URLs. One session per fetch, so nothing is shared between
/// concurrent fetches and no response cache gets in the way of conditional requests.
public final class HTTPClient: Fetcher, @unchecked Sendable {
    public var connectTimeout: Double
    public var totalTimeout: Double
    public var maxRedirects: Int
    public var allowHTTP: Bool

    public init(connectTimeout: Double = 5, totalTimeout: Double = 60, maxRedirects: Int = 5, allowHTTP: Bool = false) {
        self.connectTimeout = connectTimeout; self.totalTimeout = totalTimeout
        self.maxRedirects = maxRedirects; self.allowHTTP = allowHTTP
    }

    public func fetch(_ request: FetchRequest, progress: ((Int64) -> Void)?) throws -> FetchResponse {
        try URLPolicy.check(request.url, allowHTTP: allowHTTP)
        if request.url.isFileURL { return try readFile(request, progress: progress) }

        var urlRequest = URLRequest(url: request.url, cachePolicy: .reloadIgnoringLocalCacheData,
                                    timeoutInterval: connectTimeout)
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        let config = URLSessionConfiguration.ephemeral
        config.urlCache = nil
        // URLSession has no separate connect timeout: the request timeout bounds any silence
        // (connecting included), the resource timeout the whole transfer.
        config.timeoutIntervalForRequest = connectTimeout
        config.timeoutIntervalForResource = totalTimeout
        let task = TransferDelegate(request: request, maxRedirects: maxRedirects, allowHTTP: allowHTTP, progress: progress)
        let session = URLSession(configuration: config, delegate: task, delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        let dataTask = session.dataTask(with: urlRequest)
        dataTask.resume()
        if task.done.wait(timeout: .now() + totalTimeout + 2) == .timedOut {
            dataTask.cancel()
            _ = task.done.wait(timeout: .now() + 2)
            throw FetchError("timed out after \(NumberText.plain(totalTimeout)) s: \(request.url.absoluteString)", retryable: true)
        }
        return try task.result()
    }

    private func readFile(_ request: FetchRequest, progress: ((Int64) -> Void)?) throws -> FetchResponse {
        guard let input = FileHandle(forReadingAtPath: request.url.path) else {
            throw FetchError("cannot read \(request.url.path)", retryable: false)
        }
        defer { try? input.close() }
        let sink = try BodySink(destination: request.destination)
        while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty {
            try sink.append(chunk)
            guard sink.count <= request.maxBytes else {
                throw FetchError("\(request.url.lastPathComponent) is larger than the \(request.maxBytes)-byte limit", retryable: false)
            }
            progress?(sink.count)
        }
        try sink.close()
        return FetchResponse(status: 200, body: sink.memory, bytes: sink.count)
    }
}

/// Collects a body in memory or appends it to a file.
final class BodySink {
    private let handle: FileHandle?
    private(set) var memory = Data()
    private(set) var count: Int64 = 0

    init(destination: URL?) throws {
        guard let destination else { handle = nil; return }
        guard FileManager.default.createFile(atPath: destination.path, contents: nil),
              let h = FileHandle(forWritingAtPath: destination.path) else {
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

/// Follows one data task: enforces the size cap and the redirect limit, writes the body.
private final class TransferDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    let request: FetchRequest
    let maxRedirects: Int
    let allowHTTP: Bool
    let progress: ((Int64) -> Void)?
    let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var redirects = 0
    private var response: HTTPURLResponse?
    private var sink: BodySink?
    private var failure: FetchError?

    init(request: FetchRequest, maxRedirects: Int, allowHTTP: Bool, progress: ((Int64) -> Void)?) {
        self.request = request; self.maxRedirects = maxRedirects; self.allowHTTP = allowHTTP; self.progress = progress
    }

    private func fail(_ error: FetchError) {
        lock.lock(); defer { lock.unlock() }
        if failure == nil { failure = error }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        redirects += 1
        guard redirects <= maxRedirects else {
            fail(FetchError("more than \(maxRedirects) redirects for \(request.url.absoluteString)", retryable: false))
            // Not followed: the 3xx becomes the final response (cancelling here crashes
            // swift-corelibs-foundation, which still expects this callback).
            completionHandler(nil); return
        }
        if let url = newRequest.url {
            do { try URLPolicy.check(url, allowHTTP: allowHTTP) } catch let e as FetchError {
                fail(FetchError("redirected to a refused URL: \(e.message)", retryable: false))
                completionHandler(nil); return
            } catch {}
        }
        completionHandler(newRequest)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        guard let http = response as? HTTPURLResponse else { completionHandler(.cancel); return }
        self.response = http
        if (200..<300).contains(http.statusCode) {
            if http.expectedContentLength > request.maxBytes {
                fail(FetchError("\(request.url.lastPathComponent) is \(http.expectedContentLength) bytes, over the \(request.maxBytes)-byte limit", retryable: false))
                completionHandler(.cancel); return
            }
            do { sink = try BodySink(destination: request.destination) } catch let e as FetchError {
                fail(e); completionHandler(.cancel); return
            } catch {}
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let sink else { return }  // an error page's body is not kept
        do {
            try sink.append(data)
        } catch {
            fail(FetchError("cannot write the download: \(error.localizedDescription)", retryable: false))
            dataTask.cancel(); return
        }
        if sink.count > request.maxBytes {
            fail(FetchError("\(request.url.lastPathComponent) is over the \(request.maxBytes)-byte limit", retryable: false))
            dataTask.cancel(); return
        }
        progress?(sink.count)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        try? sink?.close()
        let promised = response.map { (200..<300).contains($0.statusCode) ? $0.expectedContentLength : -1 } ?? -1
        let received = sink?.count ?? 0
        if let error, (error as NSError).code == NSURLErrorTimedOut {
            fail(FetchError("timed out: \(request.url.absoluteString)", retryable: true))
        } else if promised > 0, received < promised {
            fail(FetchError("truncated response: \(received) of \(promised) bytes from \(request.url.absoluteString)", retryable: true))
        } else if let error {
            fail(FetchError("\(request.url.absoluteString): \(error.localizedDescription)", retryable: true))
        }
        done.signal()
    }

    func result() throws -> FetchResponse {
        lock.lock(); defer { lock.unlock() }
        if let failure { throw failure }
        guard let response else { throw FetchError("no response from \(request.url.absoluteString)", retryable: true) }
        var headers: [String: String] = [:]
        for (k, v) in response.allHeaderFields {
            if let k = k as? String, let v = v as? String { headers[k.lowercased()] = v }
        }
        return FetchResponse(status: response.statusCode, headers: headers, body: sink?.memory ?? Data(), bytes: sink?.count ?? 0)
    }
}
