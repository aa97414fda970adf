import Foundation
import LaunchAdCore
import LaunchAdDelivery

/// Where beacons and play records wait and how long: shared by play, launch, prefetch and outbox.
public struct DeliveryOptions: Equatable, Sendable {
    /// `--state DIR`; nil: $XDG_STATE_HOME/launchad, else ~/.local/state/launchad.
    public var stateDirectory: String?
    /// `--beacon-ttl S`: how long after its event a beacon or record may still be sent.
    public var beaconTTL: Double = 86_400
    /// `--beacon-wait S`: how long a run waits at its end for what is being sent.
    public var beaconWait: Double = 2
    /// Plain http to any host (the command's `--allow-http`); loopback hosts always may.
    public var allowHTTP = false
    /// `--allow-private-network` (labs): URLs named by remote documents may reach internal addresses.
    public var allowPrivateNetwork = false
    /// `--report URL` (play, launch): the collector for play records; launch also takes the manifest's.
    public var report: String?
    /// `--report-batch N`: the most records per POST to `--report` (default 50).
    public var reportBatch = 50
    /// `--screen-id NAME` in play records; nil: derived from /etc/machine-id.
    public var screenID: String?
    /// `--report-format clickhouse`: `--report` is a ClickHouse server's HTTP URL.
    public var reportToClickHouse = false
    /// `--report-table DB.TABLE`: the table of `--report` (with `--report-format clickhouse`), and
    /// on `launch` of the manifest's ClickHouse collector, which may not choose one of its own
    /// (`CollectorRule`); nil: `launchad.plays`.
    public var reportTable: ClickHouseTable?
    /// `--clickhouse-credentials FILE`: the user and key records are sent with (never on the command line).
    public var clickHouseCredentials: String?

    public init() {}

    public static let help = """
          --state DIR            outbox folder's parent (default $XDG_STATE_HOME/launchad, else ~/.local/state/launchad)
          --beacon-ttl S         drop a beacon or record not delivered S seconds after its event (default 86400)
          --beacon-wait S        at the end, wait at most S seconds for what is being sent (default 2)
          --clickhouse-credentials FILE  ClickHouse user and key for play records (lines user = ..., key = ...,
                                 optional url = ...; mode 600); else LAUNCHAD_CLICKHOUSE_USER and _KEY
          --allow-private-network  URLs named by a tag, manifest or redirect from a public address may
                                 reach loopback, LAN and link-local addresses too (labs only)
        """

    public static let recordHelp = """
          --report URL           send a play record for this play to the collector at URL (JSON array POSTs)
          --report-batch N       at most N records per POST (default 50)
          --report-format F      json (a JSON array per POST, the default) or clickhouse (URL is a ClickHouse
                                 server's HTTP interface: one INSERT ... FORMAT JSONEachRow per batch)
          --report-table T       the ClickHouse table, database.table (default launchad.plays); launch's
                                 manifest collector inserts there too (a manifest may not choose another)
          --screen-id NAME       the screen's name in play records (default: derived from /etc/machine-id)
        """

    /// Applies `--report`, `--report-batch` or `--screen-id` (play and launch); false when `opt` is none of them.
    public mutating func applyRecord(_ opt: String, _ r: inout ArgumentReader) throws -> Bool {
        switch opt {
        case "--report":
            let raw = try r.value(for: opt)
            if let why = CollectorURL.userinfoRefusal(raw) { throw UsageError("--report: \(why)") }
            guard Link.isAllowed(raw) else { throw UsageError("--report takes an http or https URL, not '\(TerminalText.quoted(raw))'") }
            report = raw
        case "--report-batch": reportBatch = try r.int(for: opt, min: 1, max: 1000)
        case "--report-format":
            let raw = try r.value(for: opt)
            guard ["json", "clickhouse"].contains(raw) else {
                throw UsageError("--report-format takes json or clickhouse, not '\(TerminalText.quoted(raw))'")
            }
            reportToClickHouse = raw == "clickhouse"
        case "--report-table":
            let raw = try r.value(for: opt)
            guard let table = ClickHouseTable(raw) else {
                throw UsageError("--report-table takes \(ClickHouseTable.rule), not '\(TerminalText.quoted(raw))'")
            }
            reportTable = table
        case "--screen-id":
            let raw = try r.value(for: opt)
            guard !raw.isEmpty, raw.count <= 100, !raw.contains(where: { $0.isNewline || $0.asciiValue.map { $0 < 32 } == true }) else {
                throw UsageError("--screen-id takes 1 to 100 characters on one line")
            }
            screenID = raw
        default: return false
        }
        return true
    }

    /// `--report` over plain http only to loopback hosts or with `--allow-http`, as every fetch.
    /// `manifestCollector` (launch): `--report-table` without `--report` is the table of the
    /// manifest's ClickHouse collector.
    public func check(manifestCollector: Bool = false) throws {
        if reportTable != nil && !reportToClickHouse && (report != nil || !manifestCollector) {
            throw UsageError("--report-table needs --report-format clickhouse")
        }
        if reportToClickHouse && report == nil { throw UsageError("--report-format clickhouse needs --report URL") }
        if reportToClickHouse, let why = report.flatMap(ClickHouseURL.refusal) { throw UsageError("--report: \(why)") }
        if let report, let url = URL(string: report), (try? URLPolicy.check(url, allowHTTP: allowHTTP)) == nil {
            throw UsageError("--report over plain http needs --allow-http (or https, or a loopback host)")
        }
    }

    /// `--report` as a collector, if given.
    var reportTarget: ReportTarget? {
        report.map {
            // The user's own collector: it may be at any address.
            ReportTarget(url: $0, batch: reportBatch, clickHouse: reportToClickHouse ? reportTable ?? .standard : nil, reach: .any)
        }
    }

    /// Applies `--state`, `--beacon-ttl` or `--beacon-wait`; false when `opt` is none of them.
    public mutating func apply(_ opt: String, _ r: inout ArgumentReader) throws -> Bool {
        switch opt {
        case "--state":
            let dir = try r.value(for: opt)
            guard !dir.isEmpty else { throw UsageError("--state needs a folder") }
            stateDirectory = dir
        case "--beacon-ttl": beaconTTL = try r.double(for: opt, min: 1, max: 30 * 86_400)
        case "--beacon-wait": beaconWait = try r.double(for: opt, max: 600)
        case "--allow-private-network": try r.flag(opt); allowPrivateNetwork = true
        case "--clickhouse-credentials":
            let file = try r.value(for: opt)
            guard !file.isEmpty else { throw UsageError("--clickhouse-credentials needs a file") }
            clickHouseCredentials = file
        default: return false
        }
        return true
    }

    /// --state, else $XDG_STATE_HOME/launchad, else ~/.local/state/launchad.
    public func stateURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let stateDirectory { return URL(fileURLWithPath: stateDirectory) }
        return DeliveryOptions.xdgFolder("XDG_STATE_HOME", else: ".local/state", environment: environment)
    }

    /// `$VARIABLE/launchad` when the variable holds an absolute path (relative ones are ignored,
    /// as the XDG spec says), else `~/FALLBACK/launchad`.
    public static func xdgFolder(_ variable: String, else fallback: String, environment: [String: String]) -> URL {
        if let xdg = environment[variable], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("launchad")
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent("\(fallback)/launchad")
    }

    /// The outbox, or nil after one `outbox_unavailable` event when the state folder cannot be
    /// used (the ad still plays; its beacons are lost, and said so). It sends through `network`'s
    /// policy (the run's plain-http and internal-address rules).
    public func openOutbox(events: EventSink, network: RunNetwork) -> Outbox? {
        do {
            var config = OutboxConfig(ttl: beaconTTL)
            config.clickHouse = ClickHouseCredentialsSource.load(file: clickHouseCredentials)
            if case .unusable(let why) = config.clickHouse {
                // Records that need them wait in the outbox for a process that has them.
                events.emit(.outboxError(reason: "ClickHouse credentials: \(why); records that need them wait"))
            }
            // libcurl, a connection per beacon: measured twice the rate of a keep-alive URLSession at half the CPU.
            let outbox = try Outbox(
                stateDirectory: stateURL(), config: config,
                fetcher: network.client(connectTimeout: 5, totalTimeout: 10),
                clock: { Date() })
            outbox.onProblem = { events.emit(.outboxError(reason: $0)) }
            return outbox
        } catch {
            events.emit(.outboxUnavailable(reason: "\(error)"))
            return nil
        }
    }
}
