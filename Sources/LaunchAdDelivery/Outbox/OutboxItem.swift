import Foundation
import LaunchAdCore
import Synchronization

/// Everything about an item that shapes the request it goes out in: where it goes (`url`), what
/// the address may be (`reach`), in which form (a beacon's GET, a plain collector's JSON array,
/// a ClickHouse INSERT into `clickHouseTable`) and with which credentials. Records are batched
/// only with records of an equal `OutboxRequest`, and a batch's request is built from it alone,
/// never from one of its items: a record queued with credentials cannot go out in a batch sent
/// without them (it did, behind an older record for the same URL, and was answered 401 and
/// dropped), nor into another record's table.
struct OutboxRequest: Hashable, Sendable {
    var kind: OutboxItem.Kind
    var url: String
    /// Which addresses the URL may reach (`.publicOnly`: named by a document from a public address).
    var reach: Reach
    /// A record for ClickHouse: the table its batch is inserted into (`body` is then the row);
    /// nil for a beacon or a plain collector's record.
    var clickHouseTable: ClickHouseTable?
    /// A ClickHouse record sent with the sending process's credentials, when this allows them (it
    /// waits while there are none it allows); nil: sent without.
    var credentials: CredentialBinding?

    /// The server it goes to, for `outbox status`: the host, with its port unless the scheme's own.
    var host: String { ServerName.of(url) }
}

/// One queued delivery as its file holds it. What is sent (`request`, `body`) never changes after
/// the item is made, so every retry is byte-identical; only `attempts` and `nextMs` do.
public struct OutboxItem: Equatable, Sendable {
    public enum Kind: String, Sendable { case beacon, record }

    /// The file's name: made from the event time and a counter, never from the URL.
    var name: String
    /// What shapes the request it goes in.
    var request: OutboxRequest
    /// Why it fires (`impression`, `complete`, ...; `play` for a record).
    var event: String
    var madeMs: Int64
    var expiresMs: Int64
    /// A record's JSON object (a ClickHouse row for ClickHouse); records of one request are sent together.
    var body: String?
    /// The most records per POST.
    var batch: Int
    var attempts: Int
    var nextMs: Int64

    var kind: Kind { request.kind }
    var url: String { request.url }
    var reach: Reach { request.reach }
    var clickHouseTable: ClickHouseTable? { request.clickHouseTable }
    var host: String { request.host }

    private static let counter = Counter()

    /// A binding as its item's file keeps it: who named the collector, the user and the origin
    /// the credentials were tied to (never the key).
    static func encoded(_ binding: CredentialBinding) -> JSONValue {
        var fields: [(String, JSONValue)] = [("named_by", .string(binding.namedBy.rawValue))]
        if let user = binding.user { fields.append(("user", .string(user))) }
        if let origin = binding.origin { fields.append(("origin", .string(origin))) }
        return .object(fields)
    }

    /// A new item's file name: sorts by event time, then by the order this process made them.
    static func newName(madeMs: Int64, kind: Kind) -> String {
        let n = counter.next()
        let random = UInt32.random(in: 0...UInt32.max)
        return String(format: "%015lld-%05d-%06d-%08x.%@", madeMs, Int(getpid()) % 100_000, n % 1_000_000, random, kind.rawValue)
    }

    static func isItemName(_ name: String) -> Bool {
        !name.hasPrefix(".") && (name.hasSuffix(".beacon") || name.hasSuffix(".record"))
    }

    func encoded() -> Data {
        var fields: [(String, JSONValue)] = [
            ("url", .string(url)), ("event", .string(event)), ("made_ms", .int(Int(madeMs))),
            ("expires_ms", .int(Int(expiresMs))), ("attempts", .int(attempts)), ("next_ms", .int(Int(nextMs)))
        ]
        if let body { fields += [("body", .string(body)), ("batch", .int(batch))] }
        fields.append(("reach", .string(reach.rawValue)))
        if let clickHouseTable {
            fields.append(("clickhouse_table", .string(clickHouseTable.description)))
            if let binding = request.credentials { fields.append(("credentials", OutboxItem.encoded(binding))) }
        }
        return Data(JSONValue.object(fields).serialized().utf8)
    }

    init(
        name: String, request: OutboxRequest, event: String, madeMs: Int64, expiresMs: Int64,
        body: String? = nil, batch: Int = 1, attempts: Int = 0, nextMs: Int64 = 0
    ) {
        self.name = name; self.request = request; self.event = event; self.madeMs = madeMs
        self.expiresMs = expiresMs; self.body = body; self.batch = batch; self.attempts = attempts; self.nextMs = nextMs
    }

    /// An item read back from disk, re-checked: its file may have been damaged or planted.
    static func checked(name: String, data: Data) -> OutboxStore.Read {
        guard let item = OutboxItem(name: name, data: data) else { return .damaged("not an outbox item") }
        guard let url = URL(string: item.url), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host?.isEmpty == false else {
            return .damaged("not an http(s) URL")
        }
        if item.kind == .record && item.body == nil { return .damaged("a record without a body") }
        // Times and counts are subtracted, added and compared: a file holding 9.2e18 or 1e300
        // trapped `outbox status`, `flush` and every run's metrics (exit 132).
        guard [item.madeMs, item.expiresMs, item.nextMs].allSatisfy(plausibleMs.contains), (0...maxAttempts).contains(item.attempts)
        else { return .damaged("a time or a count out of range") }
        return .item(item)
    }

    /// Times an item may hold, in ms since 1970: up to the end of the year 9999.
    static let plausibleMs: ClosedRange<Int64> = 0...253_402_300_799_999
    /// Tries an item may count (one a second for ten years is far fewer).
    static let maxAttempts = 1_000_000_000

    init?(name: String, data: Data) {
        guard let o = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
            let url = o["url"] as? String, let event = o["event"] as? String,
            let made = (o["made_ms"] as? NSNumber)?.int64Value, let expires = (o["expires_ms"] as? NSNumber)?.int64Value
        else { return nil }
        // A table name that is not two plain identifiers makes the item damaged, never sent.
        var table: ClickHouseTable?
        if let raw = o["clickhouse_table"] {
            guard let checked = (raw as? String).flatMap(ClickHouseTable.init) else { return nil }
            table = checked
        }
        let kind: Kind = name.hasSuffix(".record") ? .record : .beacon
        // Every item is written with its reach: one without (written before items carried it
        // always, or planted) may reach public addresses only, as anything else unreadable.
        let reach = (o["reach"] as? String).flatMap(Reach.init(rawValue:)) ?? .publicOnly
        var credentials: CredentialBinding?
        switch o["credentials"] {
        case nil, is NSNull: break
        // Written by an older launchad: whose credentials, and who named the collector, unknown.
        case let flag as Bool: credentials = flag ? .unknown : nil
        case let binding as [String: Any]:
            guard let named = (binding["named_by"] as? String).flatMap(CredentialBinding.NamedBy.init(rawValue:)) else { return nil }
            credentials = CredentialBinding(namedBy: named, user: binding["user"] as? String, origin: binding["origin"] as? String)
        default: return nil
        }
        let request = OutboxRequest(
            kind: kind, url: url, reach: reach, clickHouseTable: table, credentials: table != nil ? credentials : nil)
        self.init(
            name: name, request: request, event: event, madeMs: made, expiresMs: expires,
            body: o["body"] as? String, batch: max(1, o["batch"] as? Int ?? 1),
            attempts: o["attempts"] as? Int ?? 0, nextMs: (o["next_ms"] as? NSNumber)?.int64Value ?? 0)
    }
}

/// A process-wide counter.
private final class Counter: Sendable {
    private let value = Atomic<Int>(0)
    func next() -> Int { value.add(1, ordering: .sequentiallyConsistent).newValue }
}
