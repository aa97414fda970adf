import Foundation
import LaunchAdCore

/// An exclusive flock(2) on a lock file, for the cache and the outbox alike: the kernel drops it
/// when the holder exits or is killed, so a crashed process never leaves a folder stuck. The file
/// is created 0600 and never opened through a symlink (one planted in its place would have us
/// create or lock its target).
final class FileLock {
    private var fd: Int32

    /// Why the lock could not be had. `busy`: another process holds it for the whole wait.
    struct Failure: Error, CustomStringConvertible {
        let busy: Bool
        let description: String
    }

    /// Locks `name` in the folder `dir`, waiting up to `wait` seconds. The wait is a blocking
    /// flock on a thread of its own (woken by the kernel when the holder lets go), not a retry loop.
    init(in dir: DirectoryHandle, name: String, wait: Double) throws(Failure) {
        let path = "\(dir.path)/\(name)"
        fd = openat(dir.fd, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw Failure(
                busy: false,
                description: errno == ELOOP
                    ? "\(path) is a symlink; launchad will not follow it"
                    : "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        var st = stat()
        guard fstat(fd, &st) == 0, DirectoryHandle.isRegular(st) else {
            close(fd)
            throw Failure(busy: false, description: "\(path) is not a regular file; launchad will not use it")
        }
        if flock(fd, LOCK_EX | LOCK_NB) == 0 { return }
        guard errno == EWOULDBLOCK || errno == EINTR else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw Failure(busy: false, description: "cannot lock \(path): \(reason)")
        }
        guard wait > 0, FileLock.waitBlocking(fd, seconds: wait) else {
            // Not waited for: closed here; waited for in vain: the waiting thread owns it now.
            if wait <= 0 { close(fd) }
            fd = -1
            throw Failure(busy: true, description: "\(path) is locked by another launchad process (waited \(NumberText.plain(wait)) s)")
        }
    }

    /// Blocks in flock on a thread; true if the lock came within `seconds`. On a timeout the
    /// thread keeps waiting, then lets go of the lock and closes `fd` as soon as it gets it.
    private static func waitBlocking(_ fd: Int32, seconds: Double) -> Bool {
        let wait = LockWait()
        let waiter = Thread {
            while flock(fd, LOCK_EX) != 0 && errno == EINTR {}
            if !wait.lockArrived() { flock(fd, LOCK_UN); close(fd) }
        }
        waiter.name = "launchad-lock-wait"
        waiter.start()
        return wait.waitForLock(until: Date().addingTimeInterval(seconds))
    }

    func unlock() {
        guard fd >= 0 else { return }
        flock(fd, LOCK_UN)
        close(fd)
        fd = -1
    }

    deinit { unlock() }
}

/// The race between the lock arriving and the wait for it ending, decided under one lock.
private final class LockWait: Sendable {
    private let state = Locked((arrived: false, abandoned: false))

    /// The waiting thread got the lock: false if nobody wants it any more (the thread lets go).
    func lockArrived() -> Bool {
        state.change { s in
            guard !s.abandoned else { return false }
            s.arrived = true
            return true
        }
    }

    /// True if the lock arrives by `deadline`; otherwise the wait is abandoned.
    func waitForLock(until deadline: Date) -> Bool {
        state.wait(
            until: { $0.arrived }, deadline: deadline,
            then: { s, arrived in
                if !arrived { s.abandoned = true }
                return arrived
            })
    }
}
