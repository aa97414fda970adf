import Foundation
import LaunchAdCore

/// Asks a ClickHouse server questions over its HTTP interface: each SELECT a POST (the SQL as
/// the body, so it is neither in the URL nor in access logs), the answer read only whole
/// (`wait_end_of_query=1`: an error mid-query is an error status, not a 200 cut short) and
/// capped in bytes; credentials as headers, to this URL only (no redirect followed).
public struct ClickHouseClient: Sendable {
    /// The server's HTTP URL, as the user named it.
    public let url: String
    let fetcher: Fetcher
    let credentials: ClickHouseCredentials?
    /// The most bytes one answer may carry.
    public var maxBytes: Int64 = 64 << 20
    /// How long the whole report may take (`--timeout`): its four queries asked, their answers
    /// read and the report made from them.
    public var timeout: Double = 30

    /// A client of the server at `url` (checked against the URL rule by `fetcher`).
    public init(url: String, fetcher: Fetcher, credentials: ClickHouseCredentials?) {
        self.url = url; self.fetcher = fetcher; self.credentials = credentials
    }

    /// The answer's text, asked within `budget`'s deadline (the transfer is abandoned once it
    /// passes); throws a one-line `ClickHouseError`.
    public func select(_ sql: String, within budget: ParseBudget) throws -> String {
        guard let text = ClickHouseURL.with(url, [("wait_end_of_query", "1")]), let target = URL(string: text) else {
            throw ClickHouseError("\(shownURL): \(ClickHouseURL.refusal(url) ?? "not an http or https URL")")
        }
        // Credentials tied to a server go to that server only, as the outbox's do.
        var headers: [String: String] = [:]
        if let credentials {
            switch credentials.headers(forCommandLine: url) {
            case .success(let h): headers = h
            case .failure(let why): throw ClickHouseError(why.description)
            }
        }
        // The user named the server (`--clickhouse`): it may be on any address.
        var request = FetchRequest(url: target, reach: .any, headers: headers, maxBytes: maxBytes)
        request.method = "POST"
        request.body = Data(sql.utf8)
        request.followsRedirects = false
        request.isCancelled = { budget.isExpired }
        let response: FetchResponse
        do { response = try fetcher.fetch(request, progress: nil) } catch let e as FetchError {
            if e.tooLarge { throw ClickHouseError("the answer from \(shownURL) is over \(maxBytes) bytes") }
            if budget.isExpired { throw ClickHouseError("\(shownURL): asking took longer than \(budget.limitName)") }
            throw ClickHouseError(TerminalText.escaped(e.message.replacingOccurrences(of: target.absoluteString, with: url)))
        }
        guard (200..<300).contains(response.status) else {
            let page = String(decoding: response.errorPage, as: UTF8.self)
            let why = ClickHouseAnswer.exception(in: page) ?? "no reason given"
            throw ClickHouseError("HTTP \(response.status) from \(shownURL): \(why)")
        }
        let answer = String(decoding: response.body, as: UTF8.self)
        // An answer that ends in an error carries its code in a header (and the exception as a line of its own).
        if let code = response.headers["x-clickhouse-exception-code"] {
            let why = ClickHouseAnswer.exception(in: answer) ?? "no reason given"
            throw ClickHouseError("HTTP \(response.status) from \(shownURL) with exception code \(TerminalText.escaped(code)): \(why)")
        }
        return answer
    }

    /// The fleet report: four queries, judged by `limits`, all of it within `timeout`.
    public func fleetReport(table: ClickHouseTable, limits: FleetReport.Limits) throws -> FleetReport {
        let q = FleetQueries(table: table, since: limits.since)
        // One deadline for the whole report: each answer is capped in bytes, not the four together in time.
        let budget = ParseBudget(maxBytes: Int(maxBytes), seconds: timeout, limitName: "--timeout")
        let rows = { (sql: String) throws -> ClickHouseRows in
            do { return try ClickHouseRows(try select(sql, within: budget), maxRows: q.maxRows + 1, budget: budget) } catch let e
                as ClickHouseRows.Unreadable
            {
                throw ClickHouseError("\(shownURL): \(e.description)")
            }
        }
        do {
            return try FleetReport(
                server: rows(q.server), screens: rows(q.screens), plays: rows(q.plays), ads: rows(q.ads), limits: limits,
                maxRows: q.maxRows, budget: budget)
        } catch let e as ClickHouseRows.Unreadable {
            throw ClickHouseError("\(shownURL): \(e.description)")
        }
    }

    /// The URL as an error line shows it.
    private var shownURL: String { TerminalText.quoted(url) }
}

/// A ClickHouse request that failed, in one line safe for a terminal (what came from outside
/// is escaped where the line is made).
public struct ClickHouseError: Error, Equatable, CustomStringConvertible {
    /// The line.
    public let description: String
    /// The error line.
    public init(_ line: String) { description = line }
}

/// Reading the credentials a process sends with: `--clickhouse-credentials FILE`, else the file
/// in `LAUNCHAD_CLICKHOUSE_CREDENTIALS`, else `LAUNCHAD_CLICKHOUSE_USER`/`_KEY`/`_URL`.
public enum ClickHouseCredentialsSource {
    /// The credentials, none, or why the configured ones cannot be used.
    public static func load(file: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> ClickHouseAuth {
        do {
            if let path = file ?? environment["LAUNCHAD_CLICKHOUSE_CREDENTIALS"].flatMap({ $0.isEmpty ? nil : $0 }) {
                return .credentials(try read(path))
            }
            return try ClickHouseCredentials.parse(environment: environment).map { .credentials($0) } ?? .none
        } catch let e as CredentialsError {
            return .unusable(e.description)
        } catch {
            return .unusable("\(error)")
        }
    }

    /// The file at `path`, checked as ssh checks a private key: a regular file (a symlink is
    /// followed: the file it names is checked), at most 4 KiB, owned by this user or root, and
    /// neither readable by others nor writable by the group or others.
    public static func read(_ path: String) throws -> ClickHouseCredentials {
        let shown = TerminalText.quoted(path)
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { throw CredentialsError(FileProblem(errno: errno, path: path, access: .read).description) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { throw CredentialsError("\(shown) is not a regular file") }
        guard st.st_uid == geteuid() || st.st_uid == 0 else {
            throw CredentialsError("\(shown) belongs to user \(st.st_uid), not this user or root")
        }
        guard st.st_mode & 0o026 == 0 else {
            throw CredentialsError(
                "\(shown) may be read or changed by others (mode \(String(st.st_mode & 0o777, radix: 8))); chmod 600 it")
        }
        guard st.st_size <= 4096 else { throw CredentialsError("\(shown) is over 4 KiB") }
        var bytes = [UInt8](repeating: 0, count: 4097)
        let n = Glibc.read(fd, &bytes, bytes.count)
        guard n >= 0 else { throw CredentialsError(FileProblem(errno: errno, path: path, access: .read).description) }
        guard let text = String(bytes: bytes[0..<n], encoding: .utf8) else { throw CredentialsError("\(shown) is not UTF-8 text") }
        do { return try ClickHouseCredentials.parse(file: text) } catch let e as CredentialsError {
            throw CredentialsError("\(shown): \(e.description)")
        }
    }
}
