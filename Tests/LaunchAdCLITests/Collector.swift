import Foundation
import LaunchAdTestSupport

/// A small HTTP/1.1 endpoint for the tests: keeps every request it receives (raw bytes, method,
/// target, body) and answers `status` (after `delay`), or never answers while `hang` is set (a server that took
/// the request and is slow to say so). Keep-alive, one thread per connection.
final class Collector: @unchecked Sendable {  // `received`, `status` and `hang` guarded by `lock`
    struct Request: Sendable {
        let raw: Data; let method: String; let target: String; let body: Data

        /// A header's value (the name in any case); nil when the request has none.
        func header(_ name: String) -> String? {
            let head = String(decoding: raw, as: UTF8.self).components(separatedBy: "\r\n\r\n")[0]
            for line in head.components(separatedBy: "\r\n").dropFirst() {
                let parts = line.split(separator: ":", maxSplits: 1)
                if parts.count == 2, parts[0].lowercased() == name.lowercased() { return parts[1].trimmingCharacters(in: .whitespaces) }
            }
            return nil
        }
    }

    let port: UInt16
    private let fd: Int32
    private let lock = NSCondition()  // signalled when a request arrives and when `hang` changes
    private var _received: [Request] = []
    private var _status = 204
    private var _hang = false
    private var _answer = Data()
    private var _delay = 0.0
    private var _respond: (@Sendable (Request) -> (status: Int, body: Data))?

    /// `host`: another loopback address (127.0.0.2) serves as a "public" one in the SSRF tests.
    init(status: Int = 204, host: String = "127.0.0.1") throws {
        let listener = try listeningSocket(backlog: 64, host: host)
        fd = listener.fd
        port = listener.port
        self.host = host
        _status = status
        Thread.detachNewThread { [self] in
            while true {
                let c = accept(fd, nil, nil)
                guard c >= 0 else { return }
                Thread.detachNewThread { [self] in serve(c) }
            }
        }
    }

    let host: String
    var url: String { "http://\(host):\(port)" }
    var received: [Request] { lock.lock(); defer { lock.unlock() }; return _received }
    var status: Int {
        get { lock.lock(); defer { lock.unlock() }; return _status }
        set { lock.lock(); _status = newValue; lock.unlock() }
    }
    var hang: Bool {
        get { lock.lock(); defer { lock.unlock() }; return _hang }
        set { lock.lock(); _hang = newValue; lock.broadcast(); lock.unlock() }
    }
    /// The body of 2xx answers (for a collector that answers garbage).
    var answer: Data {
        get { lock.lock(); defer { lock.unlock() }; return _answer }
        set { lock.lock(); _answer = newValue; lock.unlock() }
    }

    /// The answer to each request, chosen from it (a fake ClickHouse answering each query), in
    /// place of `status` and `answer`.
    var respond: (@Sendable (Request) -> (status: Int, body: Data))? {
        get { lock.lock(); defer { lock.unlock() }; return _respond }
        set { lock.lock(); _respond = newValue; lock.unlock() }
    }

    /// Seconds to wait before each answer (a slow tracker).
    var delay: Double {
        get { lock.lock(); defer { lock.unlock() }; return _delay }
        set { lock.lock(); _delay = newValue; lock.unlock() }
    }

    /// The bodies received, decoded as JSON arrays of objects (play records).
    var records: [[String: Any]] {
        received.flatMap { ((try? JSONSerialization.jsonObject(with: $0.body)) as? [[String: Any]]) ?? [] }
    }

    /// Waits up to `timeout` seconds for at least `count` requests.
    @discardableResult
    func wait(for count: Int, timeout: Double = 10) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        lock.lock(); defer { lock.unlock() }
        while _received.count < count { if !lock.wait(until: deadline) { return _received.count >= count } }
        return true
    }

    private func serve(_ c: Int32) {
        defer { close(c) }
        var buffer = Data()
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            // Headers, then Content-Length bytes of body.
            while buffer.range(of: Data("\r\n\r\n".utf8)) == nil {
                let n = read(c, &chunk, chunk.count)
                guard n > 0 else { return }
                buffer.append(contentsOf: chunk[0..<n])
            }
            let end = buffer.range(of: Data("\r\n\r\n".utf8))!.upperBound
            let head = String(decoding: buffer[buffer.startIndex..<end], as: UTF8.self)
            let length =
                head.split(separator: "\r\n").compactMap { line -> Int? in
                    let parts = line.split(separator: ":", maxSplits: 1)
                    guard parts.count == 2, parts[0].lowercased() == "content-length" else { return nil }
                    return Int(parts[1].trimmingCharacters(in: .whitespaces))
                }.first ?? 0
            while buffer.count < end - buffer.startIndex + length {
                let n = read(c, &chunk, chunk.count)
                guard n > 0 else { return }
                buffer.append(contentsOf: chunk[0..<n])
            }
            let raw = Data(buffer[buffer.startIndex..<(end + length)])
            let body = Data(buffer[end..<(end + length)])
            buffer = Data(buffer[(end + length)...])
            let words = head.split(separator: " ", maxSplits: 2)
            let request = Request(raw: raw, method: String(words.first ?? ""), target: String(words.dropFirst().first ?? ""), body: body)
            lock.lock()
            _received.append(request)
            lock.broadcast()
            var (status, hang, answer, delay) = (_status, _hang, _answer, _delay)
            let respond = _respond
            lock.unlock()
            if let respond { (status, answer) = respond(request) }
            if hang { lock.lock(); while _hang { lock.wait() }; lock.unlock(); return }
            // Time is the behaviour: a collector slow to answer (the outbox's timeouts and lanes).
            if delay > 0 { usleep(useconds_t(delay * 1_000_000)) }
            let reply = Data("HTTP/1.1 \(status) X\r\nContent-Length: \(answer.count)\r\n\r\n".utf8) + answer
            guard reply.withUnsafeBytes({ write(c, $0.baseAddress, $0.count) }) == reply.count else { return }
        }
    }

    deinit { hang = false; shutdown(fd, Int32(SHUT_RDWR)); close(fd) }
}
