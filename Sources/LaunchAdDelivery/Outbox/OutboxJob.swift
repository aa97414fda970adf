import Foundation
import LaunchAdCore

/// One request: a beacon alone, or up to `batch` records of one `OutboxRequest`.
struct OutboxJob: Sendable {
    /// What every item of the job shares: the request is built from it alone.
    let request: OutboxRequest
    var items: [OutboxItem]

    /// Which jobs may go out together: the beacons of one event; a batch of records goes alone.
    var wave: String { request.kind == .record ? items[0].name : "\(items[0].madeMs) \(items[0].event)" }

    /// Which jobs must keep their order: the beacons of one run (its process id is in the item's
    /// name), the batches of one request.
    var lane: String {
        request.kind == .record
            ? "records \(request)" : "run " + (items[0].name.split(separator: "-").dropFirst().first.map(String.init) ?? "")
    }

    /// Beacons one by one, oldest first; then records grouped per request in order, `batch`
    /// at most per POST.
    static func group(_ due: [OutboxItem]) -> [OutboxJob] {
        var jobs = due.filter { $0.kind == .beacon }.map { OutboxJob(request: $0.request, items: [$0]) }
        var open: [OutboxRequest: Int] = [:]
        for item in due where item.kind == .record {
            if let j = open[item.request], jobs[j].items.count < jobs[j].items[0].batch {
                jobs[j].items.append(item)
            } else {
                open[item.request] = jobs.count
                jobs.append(OutboxJob(request: item.request, items: [item]))
            }
        }
        return jobs
    }

    /// Sends the job; a failure's reason goes to `problems` under the host's name.
    func send(with fetcher: Fetcher, problems: ProblemLog, clickHouse: ClickHouseSender) -> DeliveryVerdict {
        let host = request.host
        if let table = request.clickHouseTable {
            return clickHouse.send(request, table: table, items: items, with: fetcher, problems: problems)
        }
        guard let url = URL(string: request.url) else { problems.note(host, "not a URL: \(request.url)"); return .refused }
        var fetch = FetchRequest(url: url, reach: request.reach, maxBytes: 1 << 20)
        if request.kind == .record {
            fetch.method = "POST"
            fetch.headers["Content-Type"] = "application/json"
            fetch.body = Data(("[" + items.compactMap(\.body).joined(separator: ",") + "]").utf8)
        }
        do {
            let status = try fetcher.fetch(fetch, progress: nil).status
            let verdict = DeliveryRule.verdict(status: status)
            if verdict != .delivered { problems.note(host, "HTTP \(status) from \(url.absoluteString)") }
            return verdict
        } catch let e as FetchError {
            problems.note(host, e.message)
            return e.retryable ? .retry : .refused
        } catch {
            problems.note(host, "\(error)")
            return .retry
        }
    }
}

/// What a round's answered jobs did, gathered from the sender threads.
final class RoundProgress: Sendable {
    private struct State {
        var round = Outbox.Round()
        var retried: [OutboxItem] = []
        var counts = OutboxCounts()
        var countedAt = ProcessClock.uptimeSeconds()
    }
    private let state = Locked(State())

    func noteDue(_ ms: Int64) { state.withLock { $0.round.nextDueMs = min($0.round.nextDueMs ?? .max, ms) } }

    func record(_ names: [String], retried: [OutboxItem], counts delta: OutboxCounts) {
        state.withLock { s in
            s.counts.add(delta)
            s.round.sent += names.count
            s.round.tried += names
            s.retried += retried
            for item in retried { s.round.nextDueMs = min(s.round.nextDueMs ?? .max, item.nextMs) }
        }
    }

    var round: Outbox.Round { state.withLock { $0.round } }
    var retried: [OutboxItem] { state.withLock { $0.retried } }

    /// The counters gathered since the last call, when `every` seconds have passed since then
    /// (always when nil); nil when there is nothing to add yet.
    func takeCounts(every: Double?) -> OutboxCounts? {
        state.withLock { s in
            let now = ProcessClock.uptimeSeconds()
            guard !s.counts.isZero, every.map({ now - s.countedAt >= $0 }) ?? true else { return nil }
            defer { s.counts = OutboxCounts(); s.countedAt = now }
            return s.counts
        }
    }
}

/// The last failure per host during a round, for `outbox status` (a beacon is never lost silently).
final class ProblemLog: Sendable {
    private let byHost = Locked<[String: String]>([:])
    func note(_ host: String, _ text: String) { byHost.withLock { $0[host] = text } }
    var all: [String: String] { byHost.withLock { $0 } }
}
