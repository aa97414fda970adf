import LaunchAdCore
import Foundation

/// The creative cache on disk:
///
///     DIR/index.json            what is cached (CacheIndex), replaced atomically
///     DIR/objects/<sha256>.ext  creatives, named by content hash
///     DIR/tmp/                  downloads in progress
///     DIR/lock                  flock(2) lock for index updates
///
/// Readers need no lock (the index is only ever replaced by rename); every change re-reads the
/// index under the lock, so two processes never lose each other's updates.
public final class CacheStore: @unchecked Sendable {
    public let directory: URL
    public var lockTimeout: Double = 10

    public init(directory: URL) throws {
        self.directory = directory
        let fm = FileManager.default
        for sub in ["objects", "tmp"] {
            do {
                try fm.createDirectory(at: directory.appendingPathComponent(sub), withIntermediateDirectories: true)
            } catch {
                throw CacheError("cannot create the cache folder \(directory.path): \(error.localizedDescription)")
            }
        }
    }

    var indexURL: URL { directory.appendingPathComponent("index.json") }

    /// The index as last written; empty when there is none or it cannot be read.
    public func readIndex() -> CacheIndex {
        guard let data = try? Data(contentsOf: indexURL),
              let index = try? CacheStore.decoder.decode(CacheIndex.self, from: data) else { return CacheIndex() }
        return index
    }

    /// Locks, re-reads the index, lets `body` change it, writes it back atomically.
    @discardableResult
    public func update<T>(_ body: (inout CacheIndex) throws -> T) throws -> T {
        let lock = try CacheLock(path: directory.appendingPathComponent("lock").path, timeout: lockTimeout)
        defer { lock.unlock() }
        var index = readIndex()
        let before = index
        let result = try body(&index)
        if index != before { try write(index) }
        return result
    }

    private func write(_ index: CacheIndex) throws {
        let data = try CacheStore.encoder.encode(index)
        let tmp = directory.appendingPathComponent("tmp/index-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).json")
        guard FileManager.default.createFile(atPath: tmp.path, contents: data) else {
            throw CacheError("cannot write the cache index in \(directory.path)")
        }
        try rename(tmp, to: indexURL)
    }

    /// The file of a cached creative.
    public func url(of record: FileRecord) -> URL { directory.appendingPathComponent(record.file) }

    /// True when the creative's file is in the index and on disk at its full size. (Its digest
    /// was checked when it was stored; a refresh re-checks it.)
    public func isAvailable(_ creative: Creative, in index: CacheIndex) -> Bool {
        guard let record = index.files[creative.sha256], record.bytes == creative.bytes else { return false }
        let attrs = try? FileManager.default.attributesOfItem(atPath: url(of: record).path)
        return (attrs?[.size] as? NSNumber)?.int64Value == creative.bytes
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
        if let old = index.files[creative.sha256], old.file != name {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(old.file))
        }
        index.files[creative.sha256] = FileRecord(file: name, bytes: creative.bytes, url: creative.url.absoluteString,
                                                  fetchedAt: now, lastShown: index.files[creative.sha256]?.lastShown)
    }

    /// Takes back a creative whose file is already in objects/ but not in the index (an index
    /// lost or damaged): verified like a download, so nothing is fetched again. False if absent
    /// or wrong (a wrong file is deleted).
    public func adopt(_ creative: Creative, kind: AdKind, now: Date) throws -> Bool {
        let name = CacheStore.objectName(for: creative, kind: kind)
        let file = directory.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: file.path) else { return false }
        do {
            try CacheStore.verify(file, as: creative)
        } catch {
            try? FileManager.default.removeItem(at: file)
            return false
        }
        try update { index in
            index.files[creative.sha256] = FileRecord(file: name, bytes: creative.bytes, url: creative.url.absoluteString,
                                                      fetchedAt: now, lastShown: index.files[creative.sha256]?.lastShown)
        }
        return true
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

    /// Deletes a creative's file and its record. Call inside `update`.
    public func remove(_ sha: String, from index: inout CacheIndex) {
        guard let record = index.files.removeValue(forKey: sha) else { return }
        try? FileManager.default.removeItem(at: url(of: record))
    }

    /// Removes files in objects/ the index does not know, and downloads abandoned by a killed
    /// process (older than `staleAfter`). Call inside `update`.
    public func sweep(_ index: CacheIndex, staleAfter: TimeInterval = 3600) {
        let fm = FileManager.default
        let known = Set(index.files.values.map { ($0.file as NSString).lastPathComponent })
        let objects = directory.appendingPathComponent("objects")
        for name in (try? fm.contentsOfDirectory(atPath: objects.path)) ?? [] where !known.contains(name) {
            try? fm.removeItem(at: objects.appendingPathComponent(name))
        }
        let tmp = directory.appendingPathComponent("tmp")
        for name in (try? fm.contentsOfDirectory(atPath: tmp.path)) ?? [] {
            let file = tmp.appendingPathComponent(name)
            let modified = (try? fm.attributesOfItem(atPath: file.path))?[.modificationDate] as? Date ?? .distantPast
            if Date().timeIntervalSince(modified) > staleAfter { try? fm.removeItem(at: file) }
        }
    }

    /// A short, safe extension (so players that look at names see the right kind), never taken
    /// from the URL as is: only known media extensions survive.
    static func fileExtension(for url: URL, kind: AdKind) -> String {
        let known = ["mp4", "m4v", "mov", "webm", "mkv", "png", "jpg", "jpeg", "gif", "webp", "bmp"]
        let ext = url.pathExtension.lowercased()
        if known.contains(ext) { return ext }
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
