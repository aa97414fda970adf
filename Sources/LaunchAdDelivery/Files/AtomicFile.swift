import Foundation
import LaunchAdCore

/// The one way LaunchAd replaces a file whole (outbox items and counts, the cache index, the VAST
/// refusals, the metrics textfile, `--output` reports): the bytes go to a fresh temporary file
/// beside it (O_EXCL, never through a symlink, a leftover of that name removed first), are
/// fsync'd, and the temporary is renamed over the name. A reader, or the next start after a
/// power cut, finds the old file or the new one, never half of one.
public enum AtomicFile {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Replaces `name` in the folder `dir` (a path, with `AT_FDCWD`) by `data`, with `mode`
    /// whatever the umask. `sync: false` skips the fsync for data that may be lost (a counter
    /// rebuilt on the next run); `syncFolder` also fsyncs the folder so the rename itself is
    /// durable (callers writing many files do that once, after the last).
    public static func replace(
        _ name: String, in dir: Int32 = AT_FDCWD, with data: Data, temporary: String,
        mode: mode_t = 0o600, sync: Bool = true, syncFolder: Bool = false
    ) throws(Failure) {
        _ = unlinkat(dir, temporary, 0)
        let fd = openat(dir, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard fd >= 0 else { throw Failure(description: FileProblem(errno: errno, path: temporary, access: .write).description) }
        fchmod(fd, mode)
        var written = 0
        let complete = data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Bool in
            while written < bytes.count {
                let n = write(fd, bytes.baseAddress! + written, bytes.count - written)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return false }
                written += n
            }
            return true
        }
        let synced = !sync || fsync(fd) == 0
        close(fd)
        guard complete, synced, renameat(dir, temporary, dir, name) == 0 else {
            let problem = FileProblem(errno: errno, path: name, access: .write)
            _ = unlinkat(dir, temporary, 0)
            throw Failure(description: problem.description)
        }
        if syncFolder { fsyncFolder(dir, of: name) }
    }

    /// fsyncs `dir`, or with `AT_FDCWD` the folder that holds the path `name`.
    public static func fsyncFolder(_ dir: Int32, of name: String = "") {
        guard dir == AT_FDCWD else { fsync(dir); return }
        let parent = (name as NSString).deletingLastPathComponent
        let fd = open(parent.isEmpty ? "." : parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }
}
