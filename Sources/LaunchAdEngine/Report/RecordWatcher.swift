import Foundation
import LaunchAdCore
import LaunchAdDelivery

/// Builds one play's record from its events (the core's PlayRecord) and, once the play is over,
/// queues it for the collector through the outbox (on disk before the ad's end is written).
final class RecordWatcher: AdWatcher, Sendable {
    private let outbox: Outbox
    private let target: ReportTarget
    /// Whose credentials a ClickHouse record may go with (nil: none).
    private let credentials: CredentialBinding?
    private let screen: String
    /// The creative's sha256, worked out when the record is made (after the ad, not before it).
    private let creative: @Sendable () -> String?
    private let record: Locked<PlayRecord>

    init(
        record: PlayRecord, target: ReportTarget, outbox: Outbox, screen: String, credentials: CredentialBinding? = nil,
        creative: @escaping @Sendable () -> String?
    ) {
        self.record = Locked(record); self.target = target; self.outbox = outbox; self.screen = screen
        self.credentials = credentials; self.creative = creative
    }

    func watch(_ event: AdEvent) {
        let now = Date()
        let made = record.withLock { record in
            let wasComplete = record.isComplete
            record.observe(event, at: now)
            if !wasComplete && record.isComplete && record.creativeSHA256 == nil { record.creativeSHA256 = creative() }
            return !wasComplete && record.isComplete
                ? record.json(id: UUID().uuidString.lowercased(), screen: screen, version: LaunchAdVersion.versionString) : nil
        }
        guard let made else { return }
        if target.clickHouse != nil {
            outbox.enqueue(record: ClickHouseInsert.row(record: made).serialized(), for: target, credentials: credentials, at: now)
        } else {
            outbox.enqueue(record: made.serialized(), collector: target.url, batch: target.batch, reach: target.reach, at: now)
        }
    }

    /// The record is queued in `watch`, on this thread.
    func flush() {}
}

extension DeliveryOptions {
    /// The screen's name in records: `--screen-id`, else derived from /etc/machine-id (hashed,
    /// never the raw id), else from the host name the same way.
    func screenName() -> String {
        if let screenID { return screenID }
        for path in ["/etc/machine-id", "/var/lib/dbus/machine-id"] {
            if let id = try? String(contentsOfFile: path, encoding: .utf8), !id.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                return ScreenID.derive(machineID: id)
            }
        }
        return ScreenID.derive(machineID: "host:" + ProcessInfo.processInfo.hostName)
    }

    /// The play's record watcher, when there is a collector and an outbox.
    func recording(
        _ sink: EventSink, target: ReportTarget?, outbox: Outbox?, adID: String?,
        sha256: @escaping @Sendable () -> String?, options: PlayOptions
    ) -> RecordWatcher? {
        guard let usable = usableTarget(target, outbox: outbox, sink: sink) else { return nil }
        let record = PlayRecord(adID: adID, creativeSHA256: nil, fullscreen: options.fullscreen, muted: options.muted)
        return RecordWatcher(
            record: record, target: usable.target, outbox: usable.outbox, screen: screenName(), credentials: usable.credentials,
            creative: sha256)
    }

    /// For a VAST run: a function giving each ad played its own record watcher (one record per
    /// ad), the collector checked once.
    func recordingEachAd(_ sink: EventSink, outbox: Outbox?, options: PlayOptions) -> VASTPlay.Recorder {
        guard let usable = usableTarget(reportTarget, outbox: outbox, sink: sink) else { return { _ in nil } }
        let screen = screenName()
        return { adID in
            let record = PlayRecord(adID: adID, creativeSHA256: nil, fullscreen: options.fullscreen, muted: options.muted)
            return RecordWatcher(
                record: record, target: usable.target, outbox: usable.outbox, screen: screen, credentials: usable.credentials,
                creative: { nil })
        }
    }

    /// The collector and outbox when records can be sent; a plain-http collector off loopback is
    /// refused like any such fetch: said once on `sink`, no record. The rest is `CollectorRule`'s:
    /// a ClickHouse collector named by the manifest inserts into the screen's table (a manifest
    /// naming another is refused the same way) and gets the credentials only if they name its
    /// server.
    private func usableTarget(
        _ target: ReportTarget?, outbox: Outbox?, sink: EventSink
    ) -> (target: ReportTarget, outbox: Outbox, credentials: CredentialBinding?)? {
        guard let target, let outbox else { return nil }
        if let url = URL(string: target.url), let refusal = Result(catching: { try URLPolicy.check(url, allowHTTP: allowHTTP) }).failure {
            sink.emit(.reportRefused(reason: "\(refusal)"))
            return nil
        }
        switch CollectorRule.decide(target, namedOnCommandLine: target == reportTarget, table: reportTable, auth: outbox.clickHouseAuth) {
        case .send(let decided, let credentials): return (decided, outbox, credentials)
        case .refused(let why):
            sink.emit(.reportRefused(reason: why))
            return nil
        }
    }
}

private extension Result {
    var failure: Failure? { if case .failure(let e) = self { return e }; return nil }
}
