import LaunchAdCore
import Foundation

/// An exclusive lock on the cache, held by flock(2) on a lock file: the kernel drops it when the
/// holder exits or is killed, so a crashed process never leaves the cache stuck.
/// Holders keep it only for short index updates, never across a download.
public final class CacheLock {
    private var fd: Int32

    /// Waits up to `timeout` seconds for the lock.
    public init(path: String, timeout: Double) throws {
        // Never through a symlink: one put in its place would have us create or lock its target.
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw CacheError("cannot open the cache lock \(path): \(String(cString: strerror(errno)))") }
        let deadline = ProcessClock.uptimeSeconds() + timeout
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let err = errno
            guard err == EWOULDBLOCK || err == EINTR else {
                close(fd)
                throw CacheError("cannot lock the cache: \(String(cString: strerror(err)))")
            }
            guard ProcessClock.uptimeSeconds() < deadline else {
                close(fd)
                throw CacheError("the cache is locked by another launchad process (waited \(NumberText.plain(timeout)) s)")
            }
            usleep(20_000)
        }
    }

    public func unlock() {
        guard fd >= 0 else { return }
        flock(fd, LOCK_UN)
        close(fd)
        fd = -1
    }

    deinit { unlock() }
}
