import Foundation
import LaunchAdCore

/// An open folder (O_NOFOLLOW): names inside it are looked at with lstat and removed with
/// unlinkat relative to this descriptor, so a symlink put in place of the folder or of a file
/// is never followed, and nothing is ever removed recursively.
final class DirectoryHandle: Sendable {
    let fd: Int32
    let path: String

    init(_ path: String) throws {
        fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        self.path = path
        guard fd >= 0 else {
            let err = errno
            throw CacheError(
                err == ELOOP || err == ENOTDIR
                    ? "\(path) is not a folder (a symlink or a file); launchad will not use it"
                    : "cannot open \(path): \(String(cString: strerror(err)))")
        }
    }

    deinit { close(fd) }

    /// The entry itself, not what a symlink points to; nil when absent.
    func lstat(_ name: String) -> stat? {
        var st = stat()
        return fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 ? st : nil
    }

    static func isRegular(_ st: stat) -> Bool { st.st_mode & S_IFMT == S_IFREG }
    static func isDirectory(_ st: stat) -> Bool { st.st_mode & S_IFMT == S_IFDIR }

    /// Removes `name` only if it is a regular file (a folder, symlink or device is left alone).
    @discardableResult
    func unlinkRegularFile(_ name: String) -> Bool {
        guard let st = lstat(name), DirectoryHandle.isRegular(st) else { return false }
        return unlinkat(fd, name, 0) == 0
    }

    /// The names in the folder, without `.` and `..`.
    func names() -> [String] {
        let copy = dup(fd)
        guard copy >= 0, let dir = fdopendir(copy) else { return [] }
        defer { closedir(dir) }
        rewinddir(dir)
        var result: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { result.append(name) }
        }
        return result
    }

    /// Makes the sub-folder `name` (0700) if absent and opens it; refuses anything that is not
    /// a real folder owned by this user.
    func subfolder(_ name: String) throws -> DirectoryHandle {
        if mkdirat(fd, name, 0o700) != 0 && errno != EEXIST {
            throw CacheError("cannot create \(path)/\(name): \(String(cString: strerror(errno)))")
        }
        let sub = try DirectoryHandle("\(path)/\(name)")
        try sub.checkOwnership()
        return sub
    }

    /// Refuses a folder another user owns or that others may write in: its contents would be
    /// deleted and played on their say-so.
    func checkOwnership() throws {
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw CacheError("cannot read \(path): \(String(cString: strerror(errno)))") }
        guard st.st_uid == geteuid() else {
            throw CacheError("\(path) belongs to another user (uid \(st.st_uid)); launchad uses only a folder of its own", refusal: true)
        }
        guard st.st_mode & 0o022 == 0 else {
            throw CacheError(
                "\(path) is writable by group or others (mode \(String(st.st_mode & 0o777, radix: 8))); chmod 700 it", refusal: true)
        }
    }
}
