import Foundation
import LaunchAdCore

/// Sends a batch of play records to ClickHouse: one `INSERT INTO <table> (...) FORMAT JSONEachRow`
/// POST, the rows stamped with this try's `sent_at`, the batch's token as
/// `insert_deduplication_token` until the server says it does not know the setting (18.16 does
/// not: the batch is sent again at once without it, and this server is never sent one again
/// by this process). Credentials go as headers, only to the collector's own URL: redirects are
/// not followed. The table's key keeps a batch stored twice to one row per play either way.
final class ClickHouseSender: Sendable {
    let auth: ClickHouseAuth
    let clock: @Sendable () -> Date
    /// Collector origins that refused the token setting.
    private let noToken = Locked<Set<String>>([])
    /// An insert's answer is a few KB at most.
    static let maxAnswerBytes: Int64 = 64 << 10

    init(auth: ClickHouseAuth, clock: @escaping @Sendable () -> Date) {
        self.auth = auth
        self.clock = clock
    }

    /// Sends `items` (their rows) as one INSERT that `request` alone shapes: its URL, table,
    /// reach and credentials.
    func send(
        _ request: OutboxRequest, table: ClickHouseTable, items: [OutboxItem], with fetcher: Fetcher, problems: ProblemLog
    ) -> DeliveryVerdict {
        var headers = ["Content-Type": "application/x-ndjson"]
        if let binding = request.credentials {
            switch auth.headers(for: request.url, binding: binding) {
            case .success(let h): headers.merge(h) { $1 }
            case .failure(let why):
                // Kept until a process with the credentials sends it, or its TTL runs out.
                problems.note(request.host, "\(why.description); kept for a sender that has them")
                return .retry
            }
        }
        let insert = Insert(request: request, table: table, items: items, headers: headers)
        let origin = ClickHouseCredentials.origin(of: request.url) ?? request.url
        let token = noToken.withLock { $0.contains(origin) } ? nil : ClickHouseInsert.token(itemNames: items.map(\.name))
        switch post(insert, token: token, fetcher: fetcher) {
        case .tokenUnsupported:
            noToken.withLock { _ = $0.insert(origin) }
            return verdict(post(insert, token: nil, fetcher: fetcher), host: request.host, problems: problems)
        case let answer:
            return verdict(answer, host: request.host, problems: problems)
        }
    }

    /// One batch's INSERT, whatever its token.
    private struct Insert {
        let request: OutboxRequest
        let table: ClickHouseTable
        let items: [OutboxItem]
        let headers: [String: String]
    }

    private func verdict(_ answer: ClickHouseAnswer.Insert, host: String, problems: ProblemLog) -> DeliveryVerdict {
        switch answer {
        case .stored: return .delivered
        case .tokenUnsupported:
            problems.note(host, "the server refused insert_deduplication_token twice")
            return .retry
        case .failed(let verdict, let reason):
            problems.note(host, reason)
            return verdict
        }
    }

    private func post(_ insert: Insert, token: String?, fetcher: Fetcher) -> ClickHouseAnswer.Insert {
        let collector = insert.request.url
        guard let text = ClickHouseInsert.url(collector: collector, table: insert.table, token: token), let url = URL(string: text) else {
            // An item queued by an older launchad, whose collector URL carries a query of its own.
            // (Its URL not repeated: it may hold a password.)
            return .failed(.refused, reason: ClickHouseURL.refusal(collector) ?? "not an http(s) URL")
        }
        var request = FetchRequest(url: url, reach: insert.request.reach, headers: insert.headers, maxBytes: Self.maxAnswerBytes)
        request.method = "POST"
        request.followsRedirects = false
        request.body = Data(ClickHouseInsert.body(rows: insert.items.compactMap(\.body), sentAt: clock()).utf8)
        do {
            let response = try fetcher.fetch(request, progress: nil)
            let page = (200..<300).contains(response.status) ? response.body : response.errorPage
            return ClickHouseAnswer.insert(
                status: response.status, body: String(decoding: page, as: UTF8.self),
                exceptionCode: response.headers["x-clickhouse-exception-code"])
        } catch let e as FetchError {
            // A dropped answer may follow a stored batch: tried again, the table's key keeps one row per play.
            let message = e.message.replacingOccurrences(of: url.absoluteString, with: collector)
            return .failed(e.retryable ? .retry : .refused, reason: message)
        } catch {
            return .failed(.retry, reason: "\(error)")
        }
    }
}
