import Foundation
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdTestSupport
import XCTest

/// A real ClickHouse server (Debian's clickhouse-server, 18.16 on Debian 12) on 127.0.0.1 at a
/// free port, with its own temporary config and data folder, no TCP port, and the users of
/// docs/outbox.md: `default` (no password, loopback), `kiosk` (insert only: no DDL, a quota that
/// lets it read one row an hour) and `reporter` (read-only). Stopped and removed at deinit.
final class ClickHouseServer {
    static let binary = "/usr/sbin/clickhouse-server"
    let folder: URL
    let port: UInt16
    /// Started with posix_spawn, not Foundation's Process: clickhouse-server closes the file
    /// descriptors it inherits, and Process takes its monitoring socket closing for an exit and
    /// blocks in waitpid on it, so no later Process (launchad, chromium) is ever seen to end.
    private let pid: pid_t
    static let kiosk = (user: "kiosk", key: "kiosk-key-1")
    static let reporter = (user: "reporter", key: "reporter-key-1")

    var url: String { "http://127.0.0.1:\(port)" }

    init() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.binary) else {
            throw FixtureError("\(Self.binary) is missing: bash scripts/setup.sh --test installs clickhouse-server")
        }
        folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("launchad-clickhouse-\(UUID().uuidString)")
        for sub in ["data", "tmp", "log", "user_files", "format_schemas"] {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        port = try freePort()
        let p = folder.path
        try """
        <?xml version="1.0"?>
        <yandex>
          <logger><level>warning</level><log>\(p)/log/server.log</log><errorlog>\(p)/log/err.log</errorlog><size>10M</size><count>1</count></logger>
          <listen_host>127.0.0.1</listen_host>
          <http_port>\(port)</http_port>
          <path>\(p)/data/</path>
          <tmp_path>\(p)/tmp/</tmp_path>
          <user_files_path>\(p)/user_files/</user_files_path>
          <format_schema_path>\(p)/format_schemas/</format_schema_path>
          <users_config>users.xml</users_config>
          <default_profile>default</default_profile>
          <default_database>default</default_database>
          <timezone>UTC</timezone>
          <mark_cache_size>67108864</mark_cache_size>
          <uncompressed_cache_size>67108864</uncompressed_cache_size>
        </yandex>
        """.write(to: folder.appendingPathComponent("config.xml"), atomically: true, encoding: .utf8)
        try Self.users.write(to: folder.appendingPathComponent("users.xml"), atomically: true, encoding: .utf8)
        pid = try Self.spawn([Self.binary, "--config-file=\(p)/config.xml"])
        let up = Wait.until(timeout: 60) { (try? self.query("SELECT 1")) == "1\n" || !self.isRunning }
        guard up, isRunning else {
            let log = (try? String(contentsOf: folder.appendingPathComponent("log/err.log"), encoding: .utf8)) ?? ""
            throw FixtureError("clickhouse-server did not start: \(log.suffix(2000))")
        }
    }

    /// The users and quotas of docs/outbox.md's 18.16 section, as the docs give them.
    static let users = """
        <?xml version="1.0"?>
        <yandex>
          <profiles>
            <default></default>
            <kiosk><allow_ddl>0</allow_ddl></kiosk>
            <reporter><readonly>1</readonly></reporter>
          </profiles>
          <users>
            <default><password></password><networks><ip>127.0.0.1</ip></networks><profile>default</profile><quota>default</quota></default>
            <kiosk>
              <password>\(kiosk.key)</password>
              <networks><ip>127.0.0.1</ip></networks>
              <profile>kiosk</profile><quota>kiosk</quota>
              <allow_databases><database>launchad</database></allow_databases>
            </kiosk>
            <reporter>
              <password>\(reporter.key)</password>
              <networks><ip>127.0.0.1</ip></networks>
              <profile>reporter</profile><quota>reporter</quota>
              <allow_databases><database>launchad</database></allow_databases>
            </reporter>
          </users>
          <quotas>
            <default><interval><duration>3600</duration><queries>0</queries><errors>0</errors><result_rows>0</result_rows><read_rows>0</read_rows><execution_time>0</execution_time></interval></default>
            <kiosk><interval><duration>3600</duration><queries>3600</queries><errors>100</errors><result_rows>1</result_rows><read_rows>1</read_rows><execution_time>60</execution_time></interval></kiosk>
            <reporter><interval><duration>3600</duration><queries>600</queries><errors>0</errors><result_rows>10000000</result_rows><read_rows>1000000000</read_rows><execution_time>3600</execution_time></interval></reporter>
          </quotas>
        </yandex>
        """

    /// Runs one statement as `default` (or `user`); the answer's text, or throws with ClickHouse's reason.
    @discardableResult
    func query(_ sql: String, user: (user: String, key: String)? = nil) throws -> String {
        var request = FetchRequest(url: URL(string: url + "/")!, reach: .any, maxBytes: 64 << 20)
        request.method = "POST"
        request.body = Data(sql.utf8)
        if let user { request.headers = ["X-ClickHouse-User": user.user, "X-ClickHouse-Key": user.key] }
        let r = try HTTPClient(connectTimeout: 2, totalTimeout: 60).fetch(request, progress: nil)
        guard r.status == 200 else { throw FixtureError("HTTP \(r.status): \(String(decoding: r.errorPage, as: UTF8.self))") }
        return String(decoding: r.body, as: UTF8.self)
    }

    /// Creates `table` with `launchad fleet schema`'s statements, one per request.
    func create(_ table: ClickHouseTable) throws {
        for statement in FleetSchema.ddl(table) { try query(statement) }
    }

    /// A number the server answers (`SELECT count() FROM ...`).
    func count(_ sql: String) throws -> Int {
        let text = try query(sql).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let n = Int(text) else { throw FixtureError("not a number: \(text)") }
        return n
    }

    private var isRunning: Bool {
        var status: Int32 = 0
        return waitpid(pid, &status, WNOHANG) == 0
    }

    /// Starts `argv` with stdin, stdout and stderr on /dev/null.
    private static func spawn(_ argv: [String]) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in [0, 1, 2] { posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0) }
        let cArgs = argv.map { strdup($0) } + [nil]
        defer { for a in cArgs { free(a) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, argv[0], &actions, nil, cArgs, environ)
        guard rc == 0 else { throw FixtureError("cannot start \(argv[0]): \(String(cString: strerror(rc)))") }
        return pid
    }

    deinit {
        if isRunning {
            kill(pid, SIGTERM)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        }
        try? FileManager.default.removeItem(at: folder)
    }
}

/// A loopback proxy in front of a server that forwards each request whole and, while
/// `dropAnswers` is above 0, reads the server's whole 2xx answer and then hangs up without
/// passing it on: the server stored the batch, the client never hears so. Each request gets its
/// own connection to the server (`Connection: close`), so an answer ends when the server closes.
final class AnswerDroppingProxy: @unchecked Sendable {  // counters guarded by `lock`
    let port: UInt16
    private let fd: Int32
    private let upstream: UInt16
    private let lock = NSLock()
    private var _drop = 0
    private var _targets: [String] = []
    private var _answered = 0

    /// On `port` when given (a server that was down comes up where its clients look), else any free one.
    init(to upstream: UInt16, port wanted: UInt16 = 0) throws {
        self.upstream = upstream
        let s = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var one: Int32 = 1
        setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var addr = loopback(wanted)
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(s, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(s, 16) == 0 else {
            close(s)
            throw FixtureError("cannot listen on 127.0.0.1:\(wanted)")
        }
        fd = s
        port = boundPort(s)
        Thread.detachNewThread { [self] in
            while true {
                let c = accept(fd, nil, nil)
                guard c >= 0 else { return }
                Thread.detachNewThread { [self] in serve(c) }
            }
        }
    }

    var url: String { "http://127.0.0.1:\(port)" }
    /// How many of the next answers to drop.
    var dropAnswers: Int {
        get { lock.lock(); defer { lock.unlock() }; return _drop }
        set { lock.lock(); _drop = newValue; lock.unlock() }
    }
    /// Each request's target (path and query), in order.
    var targets: [String] { lock.lock(); defer { lock.unlock() }; return _targets }
    /// Answers passed on to the client.
    var answered: Int { lock.lock(); defer { lock.unlock() }; return _answered }

    private func serve(_ c: Int32) {
        defer { close(c) }
        guard let (head, body) = Self.readRequest(c) else { return }
        var lines = head.components(separatedBy: "\r\n").filter { !$0.isEmpty && !$0.lowercased().hasPrefix("connection:") }
        lines.insert("Connection: close", at: 1)
        let target = lines[0].split(separator: " ").dropFirst().first.map(String.init) ?? ""
        let s = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(s) }
        var addr = loopback(upstream)
        let connected = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(s, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return }
        let request = Data((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8) + body
        guard Self.writeAll(s, request) else { return }
        var answer = Data()
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(s, &chunk, chunk.count)
            if n <= 0 { break }
            answer.append(contentsOf: chunk[0..<n])
        }
        lock.lock()
        _targets.append(target)
        let stored = answer.starts(with: Data("HTTP/1.1 2".utf8)) || answer.starts(with: Data("HTTP/1.0 2".utf8))
        let drop = stored && _drop > 0
        if drop { _drop -= 1 } else { _answered += 1 }
        lock.unlock()
        if !drop { _ = Self.writeAll(c, answer) }
    }

    /// Headers, then Content-Length bytes of body; curl's `Expect: 100-continue` answered.
    private static func readRequest(_ c: Int32) -> (String, Data)? {
        var buffer = Data()
        var chunk = [UInt8](repeating: 0, count: 65536)
        while buffer.range(of: Data("\r\n\r\n".utf8)) == nil {
            let n = read(c, &chunk, chunk.count)
            guard n > 0 else { return nil }
            buffer.append(contentsOf: chunk[0..<n])
        }
        let end = buffer.range(of: Data("\r\n\r\n".utf8))!.upperBound
        let head = String(decoding: buffer[buffer.startIndex..<end], as: UTF8.self)
        var length = 0
        var expects = false
        for line in head.split(separator: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard parts.count == 2 else { continue }
            if parts[0] == "content-length" { length = Int(parts[1]) ?? 0 }
            if parts[0] == "expect" && parts[1] == "100-continue" { expects = true }
        }
        if expects { _ = writeAll(c, Data("HTTP/1.1 100 Continue\r\n\r\n".utf8)) }
        while buffer.count - (end - buffer.startIndex) < length {
            let n = read(c, &chunk, chunk.count)
            guard n > 0 else { return nil }
            buffer.append(contentsOf: chunk[0..<n])
        }
        let cleaned = head.components(separatedBy: "\r\n").filter { !$0.lowercased().hasPrefix("expect:") }.joined(separator: "\r\n")
        return (cleaned, Data(buffer[end..<(end + length)]))
    }

    private static func writeAll(_ fd: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { bytes in
            var done = 0
            while done < bytes.count {
                let n = write(fd, bytes.baseAddress! + done, bytes.count - done)
                if n <= 0 { return false }
                done += n
            }
            return true
        }
    }

    deinit { shutdown(fd, Int32(SHUT_RDWR)); close(fd) }
}
