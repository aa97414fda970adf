import Foundation
import LaunchAdCore

/// One request: a beacon alone, or up to `batch` records for one collector.
struct OutboxJob: Sendable {
    var items: [OutboxItem]

    /// Which jobs may go out together: the beacons of one event; a batch of records goes alone.
    var wave: String { items[0].kind == .record ? items[0].name : "\(items[0].madeMs) \(items[0].event)" }

    /// Which jobs must keep their order: the beacons of one run (its process id is in the item's
    /// name), the batches for one collector.
    var lane: String {
        items[0].kind == .record
            ? "records \(items[0].collectorKey)" : "run " + (items[0].name.split(separator: "-").dropFirst().first.map(String.init) ?? "")
    }

    /// Beacons one by one, oldest first; then records grouped per collector in order, `batch`
    /// at most per POST.
    static func group(_ due: [OutboxItem]) -> [OutboxJob] {
        var jobs = due.filter { $0.kind == .beacon }.map { OutboxJob(items: [$0]) }
        var open: [String: Int] = [:]
        for item in due where item.kind == .record {
            if let j = open[item.collectorKey], jobs[j].items.count < jobs[j].items[0].batch {
                jobs[j].items.append(item)
            } else {
                open[item.collectorKey] = jobs.count
                jobs.append(OutboxJob(items: [item]))
            }
        }
        return jobs
    }

    /// Sends the job; a failure's reason goes to `problems` under the host's name.
    func send(with fetcher: Fetcher, problems: ProblemLog, clickHouse: ClickHouseSender) -> DeliveryVerdict {
        let host = items[0].host
        if items[0].clickHouseTable != nil { return clickHouse.send(items, with: fetcher, problems: problems) }
        guard let url = URL(string: items[0].url) else { problems.note(host, "not a URL: \(items[0].url)"); return .refused }
        var request = FetchRequest(url: url, reach: items[0].reach, maxBytes: 1 << 20)
        if items[0].kind == .record {
            request.method = "POST"
            request.headers["Content-Type"] = "application/json"
            request.body = Data(("[" + items.compactMap(\.body).joined(separator: ",") + "]").utf8)
        }
        do {
            let status = try fetcher.fetch(request, progress: nil).status
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
