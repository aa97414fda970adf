import Foundation
import LaunchAdCore

/// The creative cache on disk:
///
///     DIR/index.json            what is cached (CacheIndex), replaced atomically
///     DIR/objects/<sha256>.ext  creatives, named by content hash
///     DIR/tmp/                  downloads in progress
///     DIR/lock                  flock(2) lock for index updates
///     DIR/CACHEDIR.TAG          marks the folder as launchad's (nothing unmarked is touched)
///
/// Readers need no lock (the index is only ever replaced by rename); every change re-reads the
/// index under the lock, so two processes never lose each other's updates.
/// Changes go through the cache's flock lock; the settings are fixed at construction.
public final class CacheStore: Sendable {
    public let directory: URL
    /// How long an update waits for another process's lock, in seconds.
    public let lockTimeout: Double

    public init(directory: URL, lockTimeout: Double = 10) throws {
        self.directory = directory
        self.lockTimeout = lockTimeout
        try CacheStore.prepareFolder(directory)
    }

    var indexURL: URL { directory.appendingPathComponent("index.json") }

    /// The index as last written; empty when there is none or it cannot be read. A record
    /// naming anything but `objects/<its sha256>.<known extension>` is dropped unread.
    public func readIndex() -> CacheIndex {
        guard let data = try? Data(contentsOf: indexURL),
            let index = try? CacheStore.decoder.decode(CacheIndex.self, from: data)
        else { return CacheIndex() }
        return index.keepingOnlyObjectRecords()
    }

    /// Locks, re-reads the index, lets `body` change it, writes it back atomically.
    @discardableResult
    public func update<T>(_ body: (inout CacheIndex) throws -> T) throws -> T {
        let lock: FileLock
        do {
            lock = try FileLock(in: DirectoryHandle(directory.path), name: "lock", wait: lockTimeout)
        } catch let failure as FileLock.Failure {
            throw CacheError(
                failure.busy
                    ? "the cache is locked by another launchad process (waited \(NumberText.plain(lockTimeout)) s)"
                    : failure.description)
        }
        defer { lock.unlock() }
        var index = readIndex()
        let before = index
        let result = try body(&index)
        if index != before { try write(index) }
        return result
    }

    private func write(_ index: CacheIndex) throws {
        let data = try CacheStore.encoder.encode(index)
        // The temporary in tmp/ (swept at start if a crash leaves it); synced before the rename,
        // so the plays the frequency caps count survive a power loss.
        let tmp = directory.appendingPathComponent("tmp/index-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).json")
        do {
            try AtomicFile.replace(indexURL.path, with: data, temporary: tmp.path)
        } catch {
            throw CacheError("cannot write the cache index in \(directory.path)")
        }
    }

    /// The file of a cached creative.
    public func url(of record: FileRecord) -> URL { directory.appendingPathComponent(record.file) }

    /// True when the creative's file is in the index and on disk as installed: a regular file
    /// (never a symlink) of its full size and with the modification time it had when verified.
    /// Cheap enough for the launch path; a refresh re-hashes (`recheck`).
    public func isAvailable(_ creative: Creative, in index: CacheIndex) -> Bool {
        guard let record = index.files[creative.sha256], record.bytes == creative.bytes,
            let st = CacheStore.lstat(url(of: record).path), DirectoryHandle.isRegular(st)
        else { return false }
        return Int64(st.st_size) == creative.bytes && (record.mtimeNs == nil || record.mtimeNs == CacheStore.mtimeNs(st))
    }

    static func lstat(_ path: String) -> stat? {
        var st = stat()
        return Glibc.lstat(path, &st) == 0 ? st : nil
    }

    static func mtimeNs(_ st: stat) -> Int64 { Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec) }

    /// The modification time of an installed file, to notice later that it was written to.
    func installedMtime(_ name: String) -> Int64? {
        CacheStore.lstat(directory.appendingPathComponent(name).path).map(CacheStore.mtimeNs)
    }

    /// A fresh file name for a download.
    public func newTempURL() -> URL {
        directory.appendingPathComponent("tmp/\(getpid())-\(UInt64.random(in: 0...UInt64.max)).part")
    }

    /// Checks a downloaded file against the manifest's size and digest. Outside the lock: hashing takes time.
    public static func verify(_ file: URL, as creative: Creative) throws {
        let attrs = try? FileManager.default.attributesOfItem(atPath: file.path)
        let size = (attrs?[.size] as? NSNumber)?.int64Value ?? -1
        guard size == creative.bytes else {
            throw CacheError("size mismatch: got \(size) bytes, the manifest says \(creative.bytes)")
        }
        guard try SHA256.hex(ofFile: file.path) == creative.sha256 else {
            throw CacheError("sha256 mismatch: the file is not the one the manifest describes")
        }
    }

    /// Moves a verified download into place and records it. Call inside `update`.
    public func install(_ temp: URL, as creative: Creative, kind: AdKind, into index: inout CacheIndex, now: Date) throws {
        let name = CacheStore.objectName(for: creative, kind: kind)
        try rename(temp, to: directory.appendingPathComponent(name))
        if let old = index.files[creative.sha256], old.file != name { unlinkObject(old.file) }
        index.files[creative.sha256] = FileRecord(
            file: name, bytes: creative.bytes, url: creative.url.absoluteString,
            fetchedAt: now, lastShown: index.files[creative.sha256]?.lastShown,
            mtimeNs: installedMtime(name))
    }

    /// Takes back a creative whose file is already in objects/ but not in the index (an index
    /// lost or damaged): verified like a download, so nothing is fetched again. False if absent
    /// or wrong (a wrong file is deleted).
    public func adopt(_ creative: Creative, kind: AdKind, now: Date) throws -> Bool {
        let name = CacheStore.objectName(for: creative, kind: kind)
        let file = directory.appendingPathComponent(name)
        guard let st = CacheStore.lstat(file.path), DirectoryHandle.isRegular(st) else { return false }
        do {
            try CacheStore.verify(file, as: creative)
        } catch {
            unlinkObject(name)
            return false
        }
        try update { index in
            index.files[creative.sha256] = FileRecord(
                file: name, bytes: creative.bytes, url: creative.url.absoluteString,
                fetchedAt: now, lastShown: index.files[creative.sha256]?.lastShown,
                mtimeNs: installedMtime(name))
        }
        return true
    }

    /// Re-hashes a cached creative (outside the lock: hashing takes time). True when its file
    /// still matches the manifest's size and sha256.
    public func recheck(_ creative: Creative) -> Bool {
        guard let record = readIndex().files[creative.sha256] else { return false }
        return (try? CacheStore.verify(url(of: record), as: creative)) != nil
    }

    /// Unlinks `objects/<name>` if it is a regular file with a name launchad writes.
    func unlinkObject(_ file: String) {
        let name = (file as NSString).lastPathComponent
        guard file == "objects/\(name)", CacheNames.isObjectName(name), let objects = try? folder("objects") else { return }
        objects.unlinkRegularFile(name)
    }

    static func objectName(for creative: Creative, kind: AdKind) -> String {
        "objects/\(creative.sha256).\(fileExtension(for: creative.url, kind: kind))"
    }

    /// Notes that these files were just shown (least-recently-shown eviction keeps them longest).
    public func markShown(_ shas: [String], at time: Date) throws {
        try update { index in
            for sha in shas { index.files[sha]?.lastShown = time }
        }
    }

    /// Notes that the ad `id` was shown at `time` (the frequency caps count these).
    public func recordPlay(_ id: String, at time: Date) throws {
        try update { $0.recordPlay(id, at: time) }
    }

    /// Deletes a creative's file and its record. Call inside `update`.
    public func remove(_ sha: String, from index: inout CacheIndex) {
        guard let record = index.files.removeValue(forKey: sha) else { return }
        unlinkObject(record.file)
    }

    /// Removes files in objects/ the index does not know, and downloads abandoned by a killed
    /// process (older than `staleAfter`). Only regular files with names launchad writes are
    /// unlinked, looked at with lstat in folders opened without following symlinks; nothing
    /// is recursed into. Call inside `update`.
    public func sweep(_ index: CacheIndex, staleAfter: TimeInterval = 3600) {
        let known = Set(index.files.values.map { ($0.file as NSString).lastPathComponent })
        if let objects = try? folder("objects") {
            for name in objects.names() where CacheNames.isObjectName(name) && !known.contains(name) {
                objects.unlinkRegularFile(name)
            }
        }
        if let tmp = try? folder("tmp") {
            let now = Date().timeIntervalSince1970
            for name in tmp.names() where CacheNames.isTempName(name) {
                guard let st = tmp.lstat(name) else { continue }
                if now - Double(st.st_mtim.tv_sec) > staleAfter { tmp.unlinkRegularFile(name) }
            }
        }
    }

    /// A short, safe extension (so players that look at names see the right kind), never taken
    /// from the URL as is: only known media extensions survive.
    static func fileExtension(for url: URL, kind: AdKind) -> String {
        let ext = url.pathExtension.lowercased()
        if CacheNames.knownExtensions.contains(ext) { return ext }
        return kind == .video ? "mp4" : "png"
    }

    private func rename(_ from: URL, to: URL) throws {
        guard Foundation.rename(from.path, to.path) == 0 else {
            throw CacheError("cannot move \(from.lastPathComponent) into the cache: \(String(cString: strerror(errno)))")
        }
    }

    static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        e.dateEncodingStrategy = .iso8601
        return e
    }()

    static let decoder: JSONDecoder = {
        let d = JSONDecoder()
        d.dateDecodingStrategy = .iso8601
        return d
    }()
}
