import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

/// A loopback server whose every connection is handled by `respond` on its own thread (the
/// client's request is passed in): for what nginx will not do, such as answering never, or
/// sending an error page without end.
final class ScriptedServer: @unchecked Sendable {
    let port: UInt16
    private let fd: Int32
    private let lock = NSLock()
    private var seen: [String] = []

    init(host: String = "127.0.0.1", _ respond: @escaping @Sendable (Int32, String) -> Void) throws {
        let listener = try listeningSocket(backlog: 8, host: host)
        fd = listener.fd
        port = listener.port
        Thread.detachNewThread { [self] in
            while true {
                let c = accept(listener.fd, nil, nil)
                guard c >= 0 else { return }
                Thread.detachNewThread { [self] in
                    var buf = [UInt8](repeating: 0, count: 8192)
                    let n = read(c, &buf, buf.count)
                    let request = String(decoding: buf.prefix(max(0, n)), as: UTF8.self)
                    lock.lock(); seen.append(request); lock.unlock()
                    respond(c, request)
                    close(c)
                }
            }
        }
    }

    var requests: [String] { lock.lock(); defer { lock.unlock() }; return seen }
    var url: String { "http://127.0.0.1:\(port)/manifest.json" }

    /// Takes the request and answers nothing: returns when the client hangs up (a server that
    /// never answers, without a thread sleeping out a guessed while).
    static func silentUntilClosed(_ fd: Int32) {
        var buf = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(fd, &buf, buf.count)
            if n == 0 || (n < 0 && errno != EINTR) { return }
        }
    }

    static func send(_ fd: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == data.count
    }

    deinit { shutdown(fd, Int32(SHUT_RDWR)); close(fd) }
}

/// Network limits hold against a hostile server: no decoded bomb, no endless error page, a
/// timeout that means its seconds.
final class NetworkLimitsTests: XCTestCase {
    var cache: URL!
    override func setUp() {
        cache = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("launchad-net-\(UUID().uuidString)")
    }
    override func tearDown() { try? FileManager.default.removeItem(at: cache) }

    func prefetch(_ url: String, _ extra: [String] = []) throws -> Launchad.Run {
        try Launchad.run(["prefetch", "--manifest", url, "--cache", cache.path, "--retries", "0", "--no-progress"] + extra)
    }

    /// 100 MB of zeros gzipped (about 100 kB), sent with Content-Encoding: gzip and no length:
    /// launchad asked for identity and refuses the encoded body instead of inflating it.
    func testAnEncodedBodyIsRefusedNotInflated() throws {
        let bomb = Fixtures.directory.appendingPathComponent("zeros-100MB.gz").path
        if !FileManager.default.fileExists(atPath: bomb) {
            let made = try Fixtures.run(
                "/bin/sh", ["-c", "head -c 100000000 /dev/zero | gzip -c > \(bomb).part$$ && mv \(bomb).part$$ \(bomb)"])
            XCTAssertEqual(made.status, 0, made.stderr)
        }
        let body = try Data(contentsOf: URL(fileURLWithPath: bomb))
        let server = try ScriptedServer { fd, _ in
            _ = ScriptedServer.send(
                fd, Data("HTTP/1.0 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\n\r\n".utf8) + body)
        }
        let run = try prefetch(server.url)
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(
            run.stderr, "launchad: manifest: refusing a gzip-encoded body from \(server.url) (launchad asks for identity encoding)\n")
        XCTAssertTrue(server.requests.first?.lowercased().contains("accept-encoding: identity\r\n") ?? false, server.requests.first ?? "")
    }

    /// A 500 whose body never ends: read only a few KB of it, then the status is reported.
    func testAnEndlessErrorBodyIsNotRead() throws {
        let server = try ScriptedServer { fd, _ in
            guard ScriptedServer.send(fd, Data("HTTP/1.1 500 Internal Server Error\r\nContent-Type: text/html\r\n\r\n".utf8)) else {
                return
            }
            let chunk = Data(repeating: 0x41, count: 16_384)
            // As fast as the client reads: the body never ends until it hangs up.
            while ScriptedServer.send(fd, chunk) {}
        }
        let run = try prefetch(server.url, ["--timeout", "60"])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.stderr, "launchad: manifest: HTTP 500 for the manifest \(server.url)\n")
        XCTAssertLessThan(run.seconds, 10, "the error page was not read for the whole --timeout")
    }

    /// `--timeout 3` against a server that never answers gives up after 3 s, not 5.
    func testTimeoutMeansItsSeconds() throws {
        let server = try ScriptedServer { fd, _ in ScriptedServer.silentUntilClosed(fd) }
        let run = try prefetch(server.url, ["--timeout", "3", "--connect-timeout", "10"])
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.stderr.hasPrefix("launchad: manifest: timed out: \(server.url)"), run.stderr)
        let waited = try XCTUnwrap(run.events(named: "prefetch_done").first?["ms"] as? Int)
        XCTAssertGreaterThanOrEqual(waited, 2900)
        XCTAssertLessThan(waited, 4500)
    }
}
