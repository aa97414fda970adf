import LaunchAdCore
import Foundation

/// The outbox's folder: one file per item in `items/`, written to a temporary name, fsync'd,
/// renamed into place and the folder fsync'd, so an item is either whole on disk or absent
/// after a crash or power cut. `lock` (flock) serialises changes between processes; `send.lock`
/// lets one process at a time send; `counts.json` keeps the counters across runs.
final class OutboxStore {
    let directory: URL
    let items: URL

    init(directory: URL) throws {
        self.directory = directory
        items = directory.appendingPathComponent("items")
        for dir in [directory.deletingLastPathComponent(), directory, items] { try OutboxStore.makeFolder(dir.path) }
        guard access(items.path, R_OK | W_OK | X_OK) == 0 else {
            throw OutboxError("cannot use \(items.path): \(String(cString: strerror(errno)))")
        }
    }

    /// mkdir -p with mode 0700, failing with the system's reason (a file in the way, no permission).
    private static func makeFolder(_ path: String) throws {
        if mkdir(path, 0o700) == 0 { return }
        var err = errno
        if err == ENOENT, path != "/" {
            try makeFolder((path as NSString).deletingLastPathComponent)
            if mkdir(path, 0o700) == 0 { return }
            err = errno
        }
        var st = stat()
        if err == EEXIST, stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR { return }
        throw OutboxError("cannot create the outbox folder \(path): \(String(cString: strerror(err == EEXIST ? ENOTDIR : err)))")
    }

    /// Runs `body` holding the change lock (waiting up to 10 s for it).
    func locked<T>(_ body: () throws -> T) throws -> T {
        let lock = try FileLock(path: directory.appendingPathComponent("lock").path, wait: 10)
        defer { lock.unlock() }
        return try body()
    }

    /// The send lock if no other process holds it.
    func trySendLock(wait: Double = 0) -> FileLock? {
        try? FileLock(path: directory.appendingPathComponent("send.lock").path, wait: wait)
    }

    /// Item names and sizes, oldest first.
    func list() -> [(name: String, size: Int64)] {
        guard let dir = opendir(items.path) else { return [] }
        defer { closedir(dir) }
        let fd = dirfd(dir)
        var out: [(name: String, size: Int64)] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            guard OutboxItem.isItemName(name) else { continue }
            var st = stat()
            guard fstatat(fd, name, &st, 0) == 0 else { continue }
            out.append((name, Int64(st.st_size)))
        }
        return out.sorted { $0.name < $1.name }
    }

    func read(_ name: String) -> OutboxItem? {
        guard let data = FileManager.default.contents(atPath: items.appendingPathComponent(name).path) else { return nil }
        return OutboxItem(name: name, data: data)
    }

    func exists(_ name: String) -> Bool { access(items.appendingPathComponent(name).path, F_OK) == 0 }

    /// Writes items durably: each file fsync'd before its rename, the folder fsync'd once after.
    func write(_ batch: [OutboxItem]) throws {
        for item in batch {
            let final = items.appendingPathComponent(item.name).path
            let tmp = items.appendingPathComponent(".tmp-\(item.name)").path
            let fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            guard fd >= 0 else { throw OutboxError("cannot write the outbox: \(String(cString: strerror(errno)))") }
            let data = item.encoded()
            let written = data.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            let synced = fsync(fd) == 0
            close(fd)
            guard written == data.count, synced, rename(tmp, final) == 0 else {
                let reason = String(cString: strerror(errno))
                unlink(tmp)
                throw OutboxError("cannot write the outbox: \(reason)")
            }
        }
        syncFolder()
    }

    func remove(_ names: [String]) {
        for name in names { unlink(items.appendingPathComponent(name).path) }
        syncFolder()
    }

    private func syncFolder() {
        let fd = open(items.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    /// Temporary files left by a process killed while writing (older than a minute).
    func sweepTemporaries(now: Date) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: items.path) else { return }
        for name in names where name.hasPrefix(".tmp-") {
            let path = items.appendingPathComponent(name).path
            if let m = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date,
               now.timeIntervalSince(m) > 60 { unlink(path) }
        }
    }

    // MARK: counters

    private var countsURL: URL { directory.appendingPathComponent("counts.json") }

    func readCounts() -> OutboxCounts {
        var counts = OutboxCounts()
        guard let data = FileManager.default.contents(atPath: countsURL.path),
              let o = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return counts }
        counts.beacons = OutboxTally(json: o["beacons"] as? [String: Any] ?? [:])
        counts.records = OutboxTally(json: o["records"] as? [String: Any] ?? [:])
        for (host, t) in o["hosts"] as? [String: Any] ?? [:] { counts.hosts[host] = OutboxTally(json: t as? [String: Any] ?? [:]) }
        counts.problems = o["problems"] as? [String: String] ?? [:]
        return counts
    }

    /// Adds `delta` to the stored counters; call with the change lock held.
    func addCounts(_ delta: OutboxCounts) {
        guard !delta.isZero else { return }
        var counts = readCounts()
        counts.add(delta)
        let o: [String: Any] = ["beacons": counts.beacons.plain, "records": counts.records.plain,
                                "hosts": counts.hosts.mapValues { $0.plain }, "problems": counts.problems]
        guard let data = try? JSONSerialization.data(withJSONObject: o, options: [.sortedKeys]) else { return }
        try? data.write(to: countsURL, options: .atomic)
    }
}

/// An exclusive flock(2) on a file: the kernel drops it when the holder exits or is killed.
final class FileLock {
    private var fd: Int32

    init(path: String, wait: Double) throws {
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw OutboxError("cannot open \(path): \(String(cString: strerror(errno)))") }
        let deadline = ProcessClock.uptimeSeconds() + wait
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let err = errno
            guard (err == EWOULDBLOCK || err == EINTR), ProcessClock.uptimeSeconds() < deadline else {
                close(fd)
                throw OutboxError("\(path) is locked by another launchad process")
            }
            usleep(10_000)
        }
    }

    func unlock() {
        guard fd >= 0 else { return }
        flock(fd, LOCK_UN)
        close(fd)
        fd = -1
    }

    deinit { unlock() }
}

/// Why the outbox cannot be used or written, in one line.
public struct OutboxError: Error, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
