import Foundation
import LaunchAdCore

/// How the outbox keeps and sends what it is given.
public struct OutboxConfig: Equatable, Sendable {
    /// Seconds after its event that an item may still be sent (`--beacon-ttl`, default 24 h).
    public var ttl: Double = 86_400
    /// The most items (beacons and records) kept; the oldest go first.
    public var maxItems = 10_000
    /// The most bytes of item files kept; the oldest go first.
    public var maxBytes: Int64 = 10_000_000
    /// The first retry waits about `backoffBase` seconds, each next one twice as long, up to `backoffCap`.
    public var backoffBase: Double = 2
    public var backoffCap: Double = 900
    /// Requests in flight at once during `flush` (the background sender uses one).
    public var connections = 6
    /// Items picked per sending round.
    public var roundSize = 1000
    /// The ClickHouse credentials this process sends records with, when it has any.
    public var clickHouse: ClickHouseAuth = .none

    public init(ttl: Double = 86_400) { self.ttl = ttl }
}

/// Counters of what became of the items that left the outbox (and of failed tries).
public struct OutboxTally: Equatable, Sendable {
    public var delivered = 0
    /// Failed tries kept for another (an item retried three times counts three).
    public var retried = 0
    /// Dropped after `ttl` without being delivered.
    public var expired = 0
    /// Dropped to keep the outbox within its bounds, or unreadable.
    public var dropped = 0
    /// Answered with a final refusal (a 4xx other than 408/429, a refused URL).
    public var refused = 0
    /// Failed their checks when read (unparseable, not http(s), too large): moved to `damaged/`.
    public var damaged = 0

    public init() {}

    // Computed: key paths are not Sendable, so a stored static list is not allowed in Swift 6 mode.
    static var fields: [(String, WritableKeyPath<OutboxTally, Int>)] {
        [
            ("delivered", \.delivered), ("retried", \.retried), ("expired", \.expired), ("dropped", \.dropped), ("refused", \.refused),
            ("damaged", \.damaged)
        ]
    }

    mutating func add(_ other: OutboxTally) {
        for (_, key) in OutboxTally.fields { self[keyPath: key] += other[keyPath: key] }
    }

    var isZero: Bool { OutboxTally.fields.allSatisfy { self[keyPath: $0.1] == 0 } }

    var json: [(String, JSONValue)] { OutboxTally.fields.map { ($0.0, .int(self[keyPath: $0.1])) } }

    init(json: [String: Any]) {
        for (name, key) in OutboxTally.fields { self[keyPath: key] = json[name] as? Int ?? 0 }
    }

    var plain: [String: Int] { Dictionary(uniqueKeysWithValues: OutboxTally.fields.map { ($0.0, self[keyPath: $0.1]) }) }
}

/// Counters kept across runs in the outbox folder: beacons and records apart, and per host.
public struct OutboxCounts: Equatable, Sendable {
    public var beacons = OutboxTally()
    public var records = OutboxTally()
    public var hosts: [String: OutboxTally] = [:]
    /// The last failed try per host: its UTC time and reason.
    public var problems: [String: String] = [:]

    public init() {}

    mutating func count(_ kind: OutboxItem.Kind, host: String, _ key: WritableKeyPath<OutboxTally, Int>, _ n: Int = 1) {
        switch kind {
        case .beacon: beacons[keyPath: key] += n
        case .record: records[keyPath: key] += n
        }
        hosts[host, default: OutboxTally()][keyPath: key] += n
    }

    /// A damaged item is counted by its kind only: its host cannot be trusted.
    mutating func countDamaged(_ kind: OutboxItem.Kind) {
        switch kind {
        case .beacon: beacons.damaged += 1
        case .record: records.damaged += 1
        }
    }

    mutating func add(_ other: OutboxCounts) {
        beacons.add(other.beacons)
        records.add(other.records)
        for (host, tally) in other.hosts { hosts[host, default: OutboxTally()].add(tally) }
        problems.merge(other.problems) { $1 }
    }

    var isZero: Bool { beacons.isZero && records.isZero && problems.isEmpty }
}

/// What `launchad outbox status` shows.
public struct OutboxStatus: Equatable, Sendable {
    public var pendingBeacons = 0
    public var pendingRecords = 0
    public var pendingBytes: Int64 = 0
    /// Seconds since the oldest pending item's event; nil when nothing is pending.
    public var oldestAge: Double?
    public var pendingByHost: [String: Int] = [:]
    public var counts = OutboxCounts()

    public var pending: Int { pendingBeacons + pendingRecords }

    public var json: JSONValue {
        let hosts = Set(pendingByHost.keys).union(counts.hosts.keys).sorted()
        return .object([
            ("pending", .int(pending)),
            ("pending_beacons", .int(pendingBeacons)),
            ("pending_records", .int(pendingRecords)),
            ("pending_bytes", .int(Int(pendingBytes))),
            ("oldest_age_s", oldestAge.map { .double($0) } ?? .null),
            ("beacons", .object(counts.beacons.json)),
            ("records", .object(counts.records.json)),
            (
                "hosts",
                .object(
                    hosts.map { host in
                        (
                            host,
                            .object(
                                [("pending", .int(pendingByHost[host] ?? 0))] + (counts.hosts[host] ?? OutboxTally()).json
                                    + [("last_problem", counts.problems[host].map { .string($0) } ?? .null)])
                        )
                    })
            )
        ])
    }
}
