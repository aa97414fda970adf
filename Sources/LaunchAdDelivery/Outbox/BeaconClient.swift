import LaunchAdCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The outbox's network: one URLSession for every send, so connections are kept alive and
/// reused (HTTPClient opens a session per fetch, right for downloads, slow for thousands of
/// beacons), with the same rules: the URL policy on every hop, at most `maxRedirects`
/// redirects. Answers' bodies are read and dropped; only the status matters.
public final class BeaconClient: NSObject, Fetcher, URLSessionDataDelegate, @unchecked Sendable {  // `pending` guarded by `lock`
    public let allowHTTP: Bool
    public let maxRedirects: Int
    private var session: URLSession!
    private let lock = NSLock()
    private var pending: [Int: Transfer] = [:]

    private final class Transfer {
        let done = DispatchSemaphore(value: 0)
        var redirects = 0
        var status: Int?
        var failure: FetchError?
    }

    public init(timeout: Double = 10, maxRedirects: Int = 5, allowHTTP: Bool = false, connections: Int = 4) {
        self.allowHTTP = allowHTTP
        self.maxRedirects = maxRedirects
        super.init()
        let config = URLSessionConfiguration.ephemeral
        config.urlCache = nil
        config.timeoutIntervalForRequest = timeout
        config.timeoutIntervalForResource = timeout
        config.httpMaximumConnectionsPerHost = connections
        session = URLSession(configuration: config, delegate: self, delegateQueue: nil)
    }

    deinit { session.invalidateAndCancel() }

    public func fetch(_ request: FetchRequest, progress: ((Int64) -> Void)?) throws -> FetchResponse {
        try URLPolicy.check(request.url, allowHTTP: allowHTTP)
        var urlRequest = URLRequest(url: request.url, cachePolicy: .reloadIgnoringLocalCacheData,
                                    timeoutInterval: session.configuration.timeoutIntervalForRequest)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        let transfer = Transfer()
        let task = session.dataTask(with: urlRequest)
        lock.lock(); pending[task.taskIdentifier] = transfer; lock.unlock()
        task.resume()
        let limit = session.configuration.timeoutIntervalForResource + 2
        if transfer.done.wait(timeout: .now() + limit) == .timedOut {
            task.cancel()
            _ = transfer.done.wait(timeout: .now() + 2)
            lock.lock(); pending[task.taskIdentifier] = nil; lock.unlock()
            throw FetchError("timed out: \(request.url.absoluteString)", retryable: true)
        }
        lock.lock(); defer { lock.unlock() }
        pending[task.taskIdentifier] = nil
        if let failure = transfer.failure { throw failure }
        guard let status = transfer.status else { throw FetchError("no answer from \(request.url.absoluteString)", retryable: true) }
        return FetchResponse(status: status)
    }

    private func transfer(_ task: URLSessionTask) -> Transfer? {
        lock.lock(); defer { lock.unlock() }
        return pending[task.taskIdentifier]
    }

    public func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                           newRequest: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        guard let t = transfer(task) else { completionHandler(nil); return }
        lock.lock()
        t.redirects += 1
        var refusal: FetchError?
        if t.redirects > maxRedirects {
            refusal = FetchError("more than \(maxRedirects) redirects for \(task.originalRequest?.url?.absoluteString ?? "?")", retryable: false)
        } else if let url = newRequest.url {
            do { try URLPolicy.check(url, allowHTTP: allowHTTP) } catch let e as FetchError {
                refusal = FetchError("redirected to a refused URL: \(e.message)", retryable: false)
            } catch {}
        }
        if t.failure == nil { t.failure = refusal }
        lock.unlock()
        // Not followed: the 3xx becomes the final answer.
        completionHandler(refusal == nil ? newRequest : nil)
    }

    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                           completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        if let t = transfer(dataTask), let http = response as? HTTPURLResponse {
            lock.lock(); t.status = http.statusCode; lock.unlock()
        }
        completionHandler(.allow)
    }

    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {}

    public func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        guard let t = transfer(task) else { return }
        lock.lock()
        if let error, t.failure == nil {
            let url = task.originalRequest?.url?.absoluteString ?? "?"
            t.failure = (error as NSError).code == NSURLErrorTimedOut
                ? FetchError("timed out: \(url)", retryable: true)
                : FetchError("\(url): \(error.localizedDescription)", retryable: true)
        }
        lock.unlock()
        t.done.signal()
    }
}
