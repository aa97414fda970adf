import Foundation
import LaunchAdCore

/// The durable outbox for tracking beacons and play records: every item is on disk before it
/// is sent and leaves only when delivered, refused for good, expired or pushed out by the
/// bounds. A crash between a send and the removal sends the same bytes again (at least once).
/// Several processes share one folder: changes under one flock, sending by one process at a time.
public final class Outbox: BeaconQueue, Sendable {
    public let directory: URL
    let store: OutboxStore
    let config: OutboxConfig
    let fetcher: Fetcher
    let clock: @Sendable () -> Date
    /// Sends ClickHouse batches with this process's credentials, and remembers servers too old for a dedup token.
    let clickHouse: ClickHouseSender
    /// Told about a failure to queue (a full disk, a lock held too long), in one line.
    public var onProblem: (@Sendable (String) -> Void)? {
        get { sender.withLock { $0.problemHandler } }
        set { sender.withLock { $0.problemHandler = newValue } }
    }

    /// The sending thread's state; its changes wake whoever waits on it.
    private struct Sender {
        var problemHandler: (@Sendable (String) -> Void)?
        var started = false
        var stopping = false
        var idle = true
        var wake = false
    }
    private let sender = Locked(Sender())
    /// Parsed items by file name, kept between rounds by whoever holds the send lock.
    private let known = Locked<[String: OutboxItem]>([:])

    /// Opens (creating 0700) `stateDirectory/outbox`.
    public init(stateDirectory: URL, config: OutboxConfig, fetcher: Fetcher, clock: @escaping @Sendable () -> Date) throws {
        directory = stateDirectory.appendingPathComponent("outbox")
        store = try OutboxStore(directory: directory)
        self.config = config; self.fetcher = fetcher; self.clock = clock
        clickHouse = ClickHouseSender(auth: config.clickHouse, clock: clock)
        store.sweepTemporaries(now: clock())
    }

    private var nowMs: Int64 { Int64((clock().timeIntervalSince1970 * 1000).rounded()) }

    // MARK: queueing

    /// Beacons named by a document: each keeps `reach` on disk, so whichever process sends it
    /// later holds it to the same addresses.
    public func enqueue(beacons urls: [String], event: String, at: Date, reach: Reach) {
        let made = Int64((at.timeIntervalSince1970 * 1000).rounded())
        let items = urls.map {
            OutboxItem(
                name: OutboxItem.newName(madeMs: made, kind: .beacon),
                request: OutboxRequest(kind: .beacon, url: $0, reach: reach, clickHouseTable: nil, credentials: nil), event: event,
                madeMs: made, expiresMs: made + Int64(config.ttl * 1000))
        }
        add(items)
    }

    /// Queues one play record (a JSON object) for `collector`, sent with others as a JSON array
    /// in POSTs of at most `batch` records.
    public func enqueue(record json: String, collector: String, batch: Int, reach: Reach, at: Date) {
        let made = Int64((at.timeIntervalSince1970 * 1000).rounded())
        add([
            OutboxItem(
                name: OutboxItem.newName(madeMs: made, kind: .record),
                request: OutboxRequest(kind: .record, url: collector, reach: reach, clickHouseTable: nil, credentials: nil),
                event: "play", madeMs: made, expiresMs: made + Int64(config.ttl * 1000), body: json, batch: max(1, batch))
        ])
    }

    /// Queues one play record for `target`: for a plain collector as above; for ClickHouse `json`
    /// is the row (`ClickHouseInsert.row`), inserted with others into `target.clickHouse` in
    /// batches of at most `target.batch`, with the sending process's credentials when
    /// `credentials` allows them (nil: without).
    public func enqueue(record json: String, for target: ReportTarget, credentials: CredentialBinding?, at: Date) {
        let made = Int64((at.timeIntervalSince1970 * 1000).rounded())
        let request = OutboxRequest(
            kind: .record, url: target.url, reach: target.reach, clickHouseTable: target.clickHouse,
            credentials: target.clickHouse != nil ? credentials : nil)
        add([
            OutboxItem(
                name: OutboxItem.newName(madeMs: made, kind: .record), request: request, event: "play",
                madeMs: made, expiresMs: made + Int64(config.ttl * 1000), body: json, batch: max(1, target.batch))
        ])
    }

    /// The ClickHouse credentials this process sends with.
    public var clickHouseAuth: ClickHouseAuth { config.clickHouse }

    /// Writes `items` durably, first pushing the oldest out if the bounds need it. An item
    /// over the size cap would be set aside when read: it is refused now, in one line.
    private func add(_ all: [OutboxItem]) {
        let items = all.filter { $0.encoded().count <= OutboxStore.maxItemBytes }
        if items.count < all.count {
            onProblem?(
                "not queued: \(all.count - items.count) \(all[0].kind.rawValue)(s) for \(all[0].event) over the \(OutboxStore.maxItemBytes)-byte item cap"
            )
        }
        guard !items.isEmpty else { return }
        do {
            try store.locked {
                var delta = OutboxCounts()
                makeRoom(for: items, counts: &delta)
                try store.write(items)
                store.addCounts(delta)
            }
        } catch {
            // Without the lock the bounds wait for the next enqueue; the items are still kept.
            do { try store.write(items) } catch {
                onProblem?("cannot queue \(items.count) \(items[0].kind.rawValue)(s) for \(items[0].event): \(error)")
                return
            }
        }
        sender.change {
            $0.wake = true
            $0.idle = false
        }
    }

    /// Removes the oldest items until `incoming` fits in `maxItems` and `maxBytes`.
    private func makeRoom(for incoming: [OutboxItem], counts: inout OutboxCounts) {
        let newBytes = incoming.reduce(Int64(0)) { $0 + Int64($1.encoded().count) }
        let entries = store.list()
        var count = entries.count + incoming.count
        var bytes = entries.reduce(newBytes) { $0 + $1.size }
        var victims: [String] = []
        var i = 0
        while (count > config.maxItems || bytes > config.maxBytes), i < entries.count {
            let entry = entries[i]
            if case .item(let item) = store.read(entry.name) {
                counts.count(item.kind, host: item.host, \.dropped)
            } else {
                counts.countDamaged(entry.name.hasSuffix(".record") ? .record : .beacon)
            }
            victims.append(entry.name)
            count -= 1; bytes -= entry.size; i += 1
        }
        store.remove(victims)
    }

    // MARK: sending

    /// Starts the sending thread: oldest first, one request at a time (strictly in order, and
    /// light beside playback), retries after their backoff, never on the caller's thread.
    /// Sends only while no other process is sending from this folder.
    public func startSending() {
        let first = sender.withLock { s in
            defer { s.started = true; s.idle = false }
            return !s.started
        }
        guard first else { return }
        let thread = Thread { [self] in run() }
        thread.name = "launchad-outbox"
        thread.start()
    }

    /// At the end of a run: waits at most `seconds` for the items due now to be sent (or to
    /// fail and wait for their retry), then stops the thread; whatever is left stays queued.
    /// `cancellation`: the run's; once cancelled (a service being stopped) the wait ends at once
    /// and what is owed stays in the outbox for the next run.
    public func finish(waitingAtMost seconds: Double, cancellation: Cancellation = Cancellation()) {
        guard sender.withLock({ $0.started }) else { return }
        let deadline = Date(timeIntervalSinceNow: seconds)
        // The cancellation cannot wake this lock, hence the short turns.
        while !cancellation.isCancelled, Date() < deadline {
            if sender.wait(until: { $0.idle }, deadline: min(deadline, Date(timeIntervalSinceNow: 0.05))) { break }
        }
        sender.change { $0.stopping = true }
    }

    private func run() {
        var sendLock: FileLock?
        defer { sendLock?.unlock() }
        // What earlier runs left is tried once at once, whatever its backoff said: a new run is
        // the natural moment to retry (the kiosk restarted, the network may be back).
        var firstPass = true
        var tried: Set<String> = []
        while true {
            if isStopping { return }
            if sendLock == nil { sendLock = store.trySendLock() }
            var waitMs: Int64 = 500
            if sendLock != nil {
                let round = sendRound(force: firstPass, skipping: tried, connections: 1)
                if firstPass {
                    tried.formUnion(round.tried)
                    if round.sent > 0 { continue }
                    firstPass = false
                    tried = []
                    continue
                }
                if round.sent > 0 { continue }
                if let next = round.nextDueMs { waitMs = min(max(next - nowMs, 20), 1000) }
            }
            // Nothing due (or another process is sending): idle until woken or the next retry.
            sender.change { $0.idle = true }
            sender.wait(
                until: { $0.stopping || $0.wake }, deadline: Date(timeIntervalSinceNow: Double(waitMs) / 1000),
                then: { s, _ in
                    if s.wake { s.wake = false; s.idle = false }
                })
        }
    }

    /// `launchad outbox flush`: sends every pending item once now, backoff or not, over
    /// `config.connections` connections (a backlog goes out fast), waiting up to
    /// `lockWait` seconds for another sending process. Returns the items sent, or nil when
    /// another process kept the send lock; throws when the send lock cannot be used.
    public func flush(lockWait: Double) throws -> Int? {
        guard let lock = try store.sendLock(wait: lockWait) else { return nil }
        defer { lock.unlock() }
        var tried: Set<String> = []
        var total = 0
        while true {
            let round = sendRound(force: true, skipping: tried, connections: config.connections)
            tried.formUnion(round.tried)
            total += round.sent
            if round.sent == 0 { return total }
        }
    }

    struct Round { var sent = 0; var tried: [String] = []; var nextDueMs: Int64? }

    /// One pass: drops expired items, sends up to `roundSize` due ones (all pending ones when
    /// `force`) over `connections` connections, and applies each answer as it comes (the file
    /// removed or rewritten, the counters added), so a run that leaves mid-round, its
    /// `--beacon-wait` over or killed, sends again only the requests that were in flight.
    /// Call only with the send lock held.
    func sendRound(force: Bool, skipping: Set<String>, connections: Int) -> Round {
        let now = nowMs
        let listed = store.list()
        let remembered = known.withLock { $0 }
        var fresh: [String: OutboxItem] = [:]
        var due: [OutboxItem] = []
        var expired: [OutboxItem] = []
        var damaged = OutboxCounts()
        let progress = RoundProgress()
        // A request's records go in order: while its oldest waits for a retry, so do the rest.
        var waitingCollectors: Set<OutboxRequest> = []
        for entry in listed {
            let item: OutboxItem
            if let k = remembered[entry.name] {
                item = k
            } else {
                switch store.read(entry.name) {
                case .item(let read): item = read
                case .damaged: damaged.add(store.setAside(entry.name)); continue
                case .missing: continue
                }
            }
            if item.expiresMs < now { expired.append(item); continue }
            fresh[entry.name] = item
            guard !skipping.contains(item.name), due.count < config.roundSize else { continue }
            if item.kind == .record, waitingCollectors.contains(item.request) { continue }
            if force || item.nextMs <= now {
                due.append(item)
            } else {
                progress.noteDue(item.nextMs)
                if item.kind == .record { waitingCollectors.insert(item.request) }
            }
        }
        known.withLock { $0 = fresh }
        var delta = damaged
        for item in expired { delta.count(item.kind, host: item.host, \.expired) }
        store.remove(expired.map(\.name))
        if !delta.isZero { _ = try? store.locked { store.addCounts(delta) } }

        let problems = ProblemLog()
        // One request at a time (the background sender, whose process may leave at any moment):
        // the counters follow each answer; a parallel flush adds them every half second.
        let countsEvery = connections <= 1 ? 0 : 0.5
        send(OutboxJob.group(due), connections: connections, problems: problems) { job, verdict in
            self.apply(verdict, to: job, now: now, progress: progress, countsEvery: countsEvery)
        }
        let round = progress.round
        let retried = progress.retried
        known.withLock { k in
            for name in round.tried { k[name] = nil }
            for item in retried { k[item.name] = item }
        }
        let stamp = MacroExpander.timestamp(clock())
        var counted = progress.takeCounts(every: nil) ?? OutboxCounts()
        for (host, text) in problems.all { counted.problems[host] = "\(stamp) \(text)" }
        finishRound(retried: retried, counted: counted)
        return round
    }

    /// A retried item's next try is written once per round (one pushed out meanwhile by another
    /// process's enqueue stays gone), with the counters not yet added.
    private func finishRound(retried: [OutboxItem], counted: OutboxCounts) {
        do {
            try store.locked {
                try store.write(retried.filter { store.exists($0.name) })
                store.syncFolder()
                store.addCounts(counted)
            }
        } catch {
            onProblem?("cannot record the outbox's round: \(error)")
        }
    }

    /// One answered job, on its sender's thread: a delivered or refused item's file leaves at
    /// once; a retried one is rewritten with its next try's time at the round's end.
    private func apply(_ verdict: DeliveryVerdict, to job: OutboxJob, now: Int64, progress: RoundProgress, countsEvery: Double) {
        var delta = OutboxCounts()
        var gone: [String] = []
        var retried: [OutboxItem] = []
        for var item in job.items {
            switch verdict {
            case .delivered: delta.count(item.kind, host: item.host, \.delivered); gone.append(item.name)
            case .refused: delta.count(item.kind, host: item.host, \.refused); gone.append(item.name)
            case .retry:
                delta.count(item.kind, host: item.host, \.retried)
                item.attempts += 1
                let wait = DeliveryRule.backoff(
                    attempts: item.attempts, base: config.backoffBase, cap: config.backoffCap,
                    unit: Double.random(in: 0..<1))
                item.nextMs = now + Int64(wait * 1000)
                retried.append(item)
            }
        }
        store.remove(gone, sync: false)
        progress.record(job.items.map(\.name), retried: retried, counts: delta)
        if let due = progress.takeCounts(every: countsEvery) { _ = try? store.locked { store.addCounts(due) } }
    }

    /// Sends the jobs: one at a time in order; else `connections` at once as `JobSchedule`
    /// allows (each run's events in order, other runs beside them), on threads of their own
    /// (blocking sends do not belong on Dispatch's shared pool). Each answer goes to `answered`
    /// as it comes; the background sender stops starting new requests once the run finishes.
    private func send(
        _ jobs: [OutboxJob], connections: Int, problems: ProblemLog,
        answered: @escaping @Sendable (OutboxJob, DeliveryVerdict) -> Void
    ) {
        let fetcher = self.fetcher, clickHouse = self.clickHouse
        if connections <= 1 || jobs.count <= 1 {
            for job in jobs {
                if isStopping { return }
                answered(job, job.send(with: fetcher, problems: problems, clickHouse: clickHouse))
            }
            return
        }
        let schedule = JobSchedule(lane: jobs.map(\.lane), wave: jobs.map(\.wave))
        let group = DispatchGroup()
        for _ in 0..<min(connections, jobs.count) {
            group.enter()
            Thread.detachNewThread {
                while let (i, lane) = schedule.claim() {
                    let verdict = jobs[i].send(with: fetcher, problems: problems, clickHouse: clickHouse)
                    answered(jobs[i], verdict)
                    schedule.finish(i, lane: lane, verdict)
                }
                group.leave()
            }
        }
        group.wait()
    }

    private var isStopping: Bool { sender.withLock { $0.stopping } }

    // MARK: status

    /// Pending items (read from disk, so it sees every process's), and the stored counters.
    public func status() -> OutboxStatus {
        var s = OutboxStatus()
        let now = nowMs
        var damaged = OutboxCounts()
        for entry in store.list() {
            let item: OutboxItem
            switch store.read(entry.name) {
            case .item(let read): item = read
            case .damaged: damaged.add(store.setAside(entry.name)); continue
            case .missing: continue
            }
            switch item.kind {
            case .beacon: s.pendingBeacons += 1
            case .record: s.pendingRecords += 1
            }
            s.pendingBytes += entry.size
            s.pendingByHost[item.host, default: 0] += 1
            let age = Double(now - item.madeMs) / 1000
            s.oldestAge = max(s.oldestAge ?? age, age)
        }
        if !damaged.isZero { _ = try? store.locked { store.addCounts(damaged) } }
        s.counts = store.readCounts()
        return s
    }
}
