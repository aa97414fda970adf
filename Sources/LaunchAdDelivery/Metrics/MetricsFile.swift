import Foundation
import LaunchAdCore

/// The Prometheus textfile, replaced atomically: written to a hidden temporary file in the same
/// folder (node_exporter's textfile collector reads only `*.prom`), synced, then renamed over the
/// old one, so a scrape never sees half a file. Mode 0644: the exporter runs as its own user.
public struct MetricsFile: Sendable {
    public let path: String

    public init(path: String) { self.path = path }

    private var folder: String { (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent }
    private func temporary() -> String {
        (folder as NSString).appendingPathComponent(".\((path as NSString).lastPathComponent).tmp-\(getpid())")
    }

    /// Whether the file can be written, checked at start (a probe file made and removed in its folder).
    public func checkWritable() throws {
        var st = stat()
        if stat(path, &st) == 0, st.st_mode & S_IFMT == S_IFDIR {
            throw MetricsError(FileProblem(errno: EISDIR, path: path, access: .write).description)
        }
        try checkReplaceable()
        let probe = temporary()
        let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw MetricsError(FileProblem(errno: errno, path: path, access: .write).description) }
        close(fd)
        unlink(probe)
    }

    /// The largest previous file read back: launchad's own is a few KB.
    public static let maxPreviousBytes = 1 << 20

    /// The file as the last run left it, nil when there is none. Read only when it is a regular
    /// file this user owns of at most `maxPreviousBytes` (never through a symlink); otherwise the
    /// reason is thrown, and the counters start again from zero.
    public func previous() throws(MetricsError) -> String? {
        switch OwnFile.read(path, maxBytes: MetricsFile.maxPreviousBytes) {
        case .missing: return nil
        case .refused(let why): throw MetricsError("\(path) not read back (\(why)); its counters start again")
        case .contents(let data): return String(decoding: data, as: UTF8.self)
        }
    }

    /// What is at `path` may be replaced: nothing, a regular file, or a symlink (the link itself,
    /// never what it names: one planted in a shared folder cannot send the write elsewhere). A
    /// folder, FIFO, device or socket is someone's own arrangement and is refused: as root,
    /// `--metrics /dev/null` replaced the system's /dev/null with a regular file, and a FIFO a
    /// reader was waiting on was swapped for a file.
    private func checkReplaceable() throws {
        var st = stat()
        guard lstat(path, &st) == 0 else { return }
        switch st.st_mode & S_IFMT {
        case S_IFREG, S_IFLNK: return
        case S_IFDIR: throw MetricsError("\(path) is a folder")
        default: throw MetricsError("\(path) is not a regular file (a FIFO, device or socket); launchad will not replace it")
        }
    }

    public func write(_ text: String) throws {
        try checkReplaceable()
        do { try AtomicFile.replace(path, with: Data(text.utf8), temporary: temporary(), mode: 0o644) } catch {
            throw MetricsError("cannot write \(path): \(error.description)")
        }
    }
}

public struct MetricsError: Error, CustomStringConvertible {
    public let description: String
    init(_ message: String) { description = message }
}
