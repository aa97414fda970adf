import Foundation
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdTestSupport
import XCTest

/// A real nginx on 127.0.0.1 with a random free port and its own prefix folder, serving `www`.
/// `/500/` always answers 500, `/slow/` sends 2 kB a second, `/stall/` answers a range from 0 at
/// full speed and any later range at 2 bytes a second (a media server that stalls mid-stream), `/hop/X` redirects to `/X`,
/// `/loop/` redirects to itself, `/away/` to plain http elsewhere; ETag and Last-Modified as nginx does.
/// `/track/` answers 204 and logs each request's URI, one a line, to `trackLog` (a tracking server).
/// `/busy/` answers 429. A restart keeps the port, so URLs made before a stop work again after `start()`.
final class Nginx {
    let prefix: URL
    let www: URL
    private(set) var port: UInt16 = 0
    private var process: Process?

    /// With `tls`, it also serves https on `tlsPort` with a fresh self-signed certificate.
    let tls: Bool
    private(set) var tlsPort: UInt16 = 0

    init(tls: Bool = false) throws {
        self.tls = tls
        prefix = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("launchad-nginx-\(UUID().uuidString)")
        www = prefix.appendingPathComponent("www")
        for sub in ["www/500", "www/slow", "www/stall", "logs", "tmp"] {
            try FileManager.default.createDirectory(at: prefix.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        try start()
    }

    var base: String { "http://127.0.0.1:\(port)" }

    /// The request URIs `/track/` has received, in order.
    var tracked: [String] {
        let text = (try? String(contentsOf: prefix.appendingPathComponent("logs/track.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    func start() throws {
        if port == 0 { port = try freePort() }
        let p = prefix.path
        var tlsServer = ""
        if tls {
            tlsPort = try freePort()
            let made = try Fixtures.run(
                "/usr/bin/openssl",
                [
                    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=127.0.0.1", "-keyout", "\(p)/key.pem", "-out", "\(p)/cert.pem"
                ])
            guard made.status == 0 else { throw FixtureError("openssl: \(made.stderr)") }
            tlsServer = """
                server {
                    listen 127.0.0.1:\(tlsPort) ssl;
                    ssl_certificate \(p)/cert.pem; ssl_certificate_key \(p)/key.pem;
                    root \(p)/www;
                }
                """
        }
        let conf = """
            \(getuid() == 0 ? "user root;" : "")
            worker_processes 1;
            error_log \(p)/logs/error.log;
            pid \(p)/nginx.pid;
            events { worker_connections 64; }
            http {
                access_log \(p)/logs/access.log;
                log_format track '$request_uri';
                client_body_temp_path \(p)/tmp/body; proxy_temp_path \(p)/tmp/proxy; fastcgi_temp_path \(p)/tmp/fcgi;
                uwsgi_temp_path \(p)/tmp/uwsgi; scgi_temp_path \(p)/tmp/scgi;
                types { application/json json; video/mp4 mp4; image/png png; }
                map $http_range $stall_rate { "~^bytes=0-" 0; default 2; }
                server {
                    listen 127.0.0.1:\(port);
                    root \(p)/www;
                    location /500/ { return 500; }
                    location /slow/ { limit_rate 2k; limit_rate_after 0; }
                    location /stall/ { limit_rate $stall_rate; }
                    location /hop/ { rewrite ^/hop/(.*)$ /$1 redirect; }
                    location /loop/ { rewrite ^(.*)$ $1 redirect; }
                    location /away/ { return 302 http://ads.example.com/x.png; }
                    location /track/ { access_log \(p)/logs/track.log track; return 204; }
                    location /busy/ { return 429; }
                }
                \(tlsServer)
            }
            """
        try conf.write(to: prefix.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
        let proc = Process()
        proc.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
        proc.arguments = ["-p", p, "-c", "\(p)/nginx.conf", "-e", "\(p)/logs/error.log", "-g", "daemon off;"]
        proc.standardOutput = FileHandle.nullDevice
        proc.standardError = FileHandle.nullDevice
        try proc.run()
        process = proc
        // Room for a loaded machine: the wait ends as soon as nginx listens (or has exited).
        if Wait.until(timeout: 30, { canConnect(port) || !proc.isRunning }) && canConnect(port) { return }
        let log = (try? String(contentsOf: prefix.appendingPathComponent("logs/error.log"), encoding: .utf8)) ?? ""
        throw FixtureError("nginx did not start: \(log)")
    }

    func stop() {
        guard let proc = process, proc.isRunning else { return }
        proc.terminateIfRunning()
        proc.waitUntilExit()
        process = nil
    }

    private var edits = 0

    /// Puts a file where nginx serves it (atomically, so nginx never sends half of it). Each
    /// edit gets a later mtime: nginx's ETag is mtime and length, and tests edit within a second.
    @discardableResult
    func put(_ path: String, _ data: Data) throws -> String {
        let url = www.appendingPathComponent(path)
        try data.write(to: url, options: .atomic)
        edits += 1
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: Double(edits * 2 - 1000))],
            ofItemAtPath: url.path)
        return "\(base)/\(path)"
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: prefix)
    }
}

/// Answers every connection with the same raw bytes and hangs up: HTTP responses nginx would
/// never send (a body shorter than its Content-Length, a body with no length at all).
final class RawServer {
    let port: UInt16
    private let fd: Int32

    init(_ response: Data) throws {
        let listener = try listeningSocket(backlog: 8)
        fd = listener.fd
        port = listener.port
        Thread.detachNewThread {
            while true {
                let c = accept(listener.fd, nil, nil)
                guard c >= 0 else { return }
                var buf = [UInt8](repeating: 0, count: 4096)
                _ = read(c, &buf, buf.count)
                _ = response.withUnsafeBytes { write(c, $0.baseAddress, $0.count) }
                close(c)
            }
        }
    }

    /// A 200 that promises `promised` bytes and sends `sent`.
    static func truncating(promised: Int, sent: Data) throws -> RawServer {
        try RawServer(
            Data("HTTP/1.1 200 OK\r\nContent-Type: video/mp4\r\nContent-Length: \(promised)\r\nConnection: close\r\n\r\n".utf8) + sent)
    }

    /// A 200 with no Content-Length: the body ends when the connection closes.
    static func unsized(_ body: Data) throws -> RawServer {
        try RawServer(Data("HTTP/1.0 200 OK\r\nContent-Type: image/png\r\n\r\n".utf8) + body)
    }

    deinit { shutdown(fd, Int32(SHUT_RDWR)); close(fd) }
}

func canConnect(_ port: UInt16) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var addr = loopback(port)
    return withUnsafePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    } == 0
}

/// The served side of the tests: creatives and a manifest about them, on a real nginx.
final class AdServer {
    let nginx: Nginx
    init(tls: Bool = false) throws { nginx = try Nginx(tls: tls) }

    struct Ad {
        var id: String
        var file: String
        var data: Data
        var kind = "image"
        var extra = ""
        var declaredSha: String?
        var declaredBytes: Int?
        var json: String {
            let sha = declaredSha ?? SHA256.hex(of: data)
            return
                #"{"id": "\#(id)", "type": "\#(kind)", "duration": 0.4, \#(extra) "variants": [{"url": "\#(file)", "width": 320, "height": 240, "bytes": \#(declaredBytes ?? data.count), "sha256": "\#(sha)"}]}"#
        }
    }

    /// Serves the ads' files (unless they are elsewhere) and a manifest listing them.
    func publish(_ ads: [Ad], serveFiles: Bool = true) throws {
        if serveFiles { for ad in ads where !ad.file.contains("://") { try nginx.put(ad.file, ad.data) } }
        try nginx.put("manifest.json", Data((#"{"ads": ["# + ads.map(\.json).joined(separator: ",\n") + "]}").utf8))
    }

    var manifestURL: String { "\(nginx.base)/manifest.json" }
}
