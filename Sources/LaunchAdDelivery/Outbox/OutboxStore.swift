import Foundation
import LaunchAdCore

/// The outbox's folder: one file per item in `items/`, written to a temporary name, fsync'd,
/// renamed into place and the folder fsync'd, so an item is either whole on disk or absent
/// after a crash or power cut. `lock` (flock) serialises changes between processes; `send.lock`
/// lets one process at a time send; `counts.json` keeps the counters across runs; `damaged/`
/// holds items that failed their checks when read.
/// The state folder obeys the cache folder's rules: created 0700, refused when another user owns
/// it or others may write in it; every name inside is opened relative to its folder with
/// O_NOFOLLOW (a planted symlink is never followed) and every file is created 0600.
final class OutboxStore: Sendable {
    let directory: URL
    let items: URL
    private let folder: DirectoryHandle
    private let itemFolder: DirectoryHandle
    /// An item file larger than this is damaged (a beacon URL or one play record is a few kB).
    static let maxItemBytes = 256 << 10
    /// At most this many damaged items are kept aside for a look; later ones are deleted.
    static let maxDamaged = 1000

    init(directory: URL) throws {
        self.directory = directory
        items = directory.appendingPathComponent("items")
        let state = directory.deletingLastPathComponent()
        try OutboxStore.makeFolder(state.path)
        // The folder the user named may be reached through a symlink; what is inside never is.
        let stateFolder = try OutboxStore.checked { try DirectoryHandle(state.resolvingSymlinksInPath().path) }
        try OutboxStore.checked { try stateFolder.checkOwnership() }
        let outbox = try OutboxStore.checked { try stateFolder.subfolder(directory.lastPathComponent) }
        folder = outbox
        itemFolder = try OutboxStore.checked { try outbox.subfolder("items") }
        guard faccessat(itemFolder.fd, ".", R_OK | W_OK | X_OK, 0) == 0 else {
            throw OutboxError("cannot use \(items.path): \(String(cString: strerror(errno)))")
        }
    }

    /// The folder checks speak of the cache; here they are about the state folder.
    private static func checked<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let e as CacheError { throw OutboxError("state folder: \(e.message)") }
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
        let reason = FileProblem.reason(errno: err == EEXIST ? ENOTDIR : err, path: path, access: .write)
        throw OutboxError("cannot create the outbox folder \(path): \(reason)")
    }

    /// Runs `body` holding the change lock (waiting up to 10 s for it).
    func locked<T>(_ body: () throws -> T) throws -> T {
        let lock: FileLock
        do { lock = try FileLock(in: folder, name: "lock", wait: 10) } catch { throw OutboxError(error.description) }
        defer { lock.unlock() }
        return try body()
    }

    /// The send lock, or nil while another process holds it; throws when it cannot be used at all
    /// (a symlink planted in its place).
    func sendLock(wait: Double = 0) throws -> FileLock? {
        do { return try FileLock(in: folder, name: "send.lock", wait: wait) } catch {
            if error.busy { return nil }
            throw OutboxError(error.description)
        }
    }

    /// The send lock if it can be had now.
    func trySendLock() -> FileLock? { (try? sendLock()) ?? nil }

    /// Item names and sizes, oldest first (a planted symlink or device too: reading sets it aside).
    func list() -> [(name: String, size: Int64)] {
        itemFolder.names().compactMap { name in
            guard OutboxItem.isItemName(name), let st = itemFolder.lstat(name), !DirectoryHandle.isDirectory(st) else { return nil }
            return (name, Int64(st.st_size))
        }.sorted { $0.name < $1.name }
    }

    enum Read {
        case item(OutboxItem)
        /// Present but not a valid item: why.
        case damaged(String)
        /// Gone meanwhile (sent or dropped by another process).
        case missing
    }

    /// Reads and re-checks one item: a regular file no larger than `maxItemBytes` holding an
    /// http(s) URL (and a body for a record). Nothing is read past the cap.
    func read(_ name: String) -> Read {
        let fd = openat(itemFolder.fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return errno == ENOENT ? .missing : .damaged("cannot open: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, DirectoryHandle.isRegular(st) else { return .damaged("not a regular file") }
        guard st.st_size <= OutboxStore.maxItemBytes else {
            return .damaged("\(st.st_size) bytes, over the \(OutboxStore.maxItemBytes)-byte cap")
        }
        // One byte more than the size said, to notice a file that grew meanwhile; never past the cap.
        var buffer = [UInt8](repeating: 0, count: min(Int(st.st_size) + 1, OutboxStore.maxItemBytes + 1))
        var count = 0
        while count < buffer.count {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, $0.count - count) }
            if n <= 0 { break }
            count += n
        }
        guard count <= st.st_size else { return .damaged("changed while read") }
        return OutboxItem.checked(name: name, data: Data(buffer[0..<count]))
    }

    /// Moves a damaged item into `damaged/` (or deletes it once that holds `maxDamaged`) and
    /// returns it counted.
    func setAside(_ name: String) -> OutboxCounts {
        var counts = OutboxCounts()
        counts.countDamaged(name.hasSuffix(".record") ? .record : .beacon)
        if let damaged = try? folder.subfolder("damaged"), damaged.names().count < OutboxStore.maxDamaged,
            renameat(itemFolder.fd, name, damaged.fd, name) == 0
        {
            fsync(damaged.fd)
        } else if let st = itemFolder.lstat(name), !DirectoryHandle.isDirectory(st) {
            unlinkat(itemFolder.fd, name, 0)
        }
        syncFolder()
        return counts
    }

    func exists(_ name: String) -> Bool { itemFolder.lstat(name) != nil }

    /// Writes items durably: each file fsync'd before its rename, the folder fsync'd once after.
    func write(_ batch: [OutboxItem]) throws {
        for item in batch { try writeFile(in: itemFolder, item.name, item.encoded(), sync: true) }
        syncFolder()
    }

    /// Writes `name` in `dir` whole (AtomicFile), 0600.
    private func writeFile(in dir: DirectoryHandle, _ name: String, _ data: Data, sync: Bool) throws {
        do { try AtomicFile.replace(name, in: dir.fd, with: data, temporary: ".tmp-\(name)", sync: sync) } catch {
            throw OutboxError("cannot write the outbox: \(error.description)")
        }
    }

    /// Unlinks items; `sync: false` leaves the folder's fsync to a later call (a removal lost to
    /// a power cut only sends an item again, which at-least-once allows).
    func remove(_ names: [String], sync: Bool = true) {
        guard !names.isEmpty else { return }
        for name in names { itemFolder.unlinkRegularFile(name) }
        if sync { syncFolder() }
    }

    func syncFolder() { fsync(itemFolder.fd) }

    /// Temporary files left by a process killed while writing (older than a minute).
    func sweepTemporaries(now: Date) {
        for name in itemFolder.names() where name.hasPrefix(".tmp-") {
            if let st = itemFolder.lstat(name), now.timeIntervalSince1970 - Double(st.st_mtim.tv_sec) > 60 {
                itemFolder.unlinkRegularFile(name)
            }
        }
    }

    // MARK: counters

    private static let countsName = "counts.json"

    func readCounts() -> OutboxCounts {
        var counts = OutboxCounts()
        let fd = openat(folder.fd, OutboxStore.countsName, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return counts }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        var st = stat()
        guard fstat(fd, &st) == 0, DirectoryHandle.isRegular(st), st.st_size <= 4 << 20,
            let data = try? handle.readToEnd(),
            let o = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        else { return counts }
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
        let o: [String: Any] = [
            "beacons": counts.beacons.plain, "records": counts.records.plain,
            "hosts": counts.hosts.mapValues { $0.plain }, "problems": counts.problems
        ]
        guard let data = try? JSONSerialization.data(withJSONObject: o, options: [.sortedKeys]) else { return }
        try? writeFile(in: folder, OutboxStore.countsName, data, sync: false)
    }
}

/// Why the outbox cannot be used or written, in one line.
public struct OutboxError: Error, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
