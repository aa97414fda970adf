import Foundation
import LaunchAdCore

extension CacheStore {
    /// Names an earlier, untagged launchad cache could hold: such a folder is taken over and tagged.
    static let ownNames: Set<String> = ["index.json", "manifest.json", "lock", "objects", "tmp", CacheNames.tagFile, VASTRefusals.fileName]

    /// Makes the cache folder (0700, tagged with CACHEDIR.TAG) or checks that an existing one is
    /// launchad's: tagged, or empty, or holding only launchad's own names; owned by this user and
    /// not writable by others. Anything else (`~`, a repository's `.git`) is refused untouched.
    static func prepareFolder(_ directory: URL) throws {
        let path = directory.path
        let parent = directory.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        } catch {
            throw CacheError("cannot create the cache folder \(path): \(FileProblem(error, path: parent.path, access: .write).reason)")
        }
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw CacheError("cannot create the cache folder \(path): \(FileProblem(errno: errno, path: path, access: .write).reason)")
        }
        // The folder the user named may be reached through a symlink; what is inside never is.
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else {
            throw CacheError(
                "cannot use the cache folder \(path): \(FileProblem(errno: errno, path: path, access: .read).reason)",
                refusal: errno == ENOTDIR)
        }
        close(fd)
        let dir = try DirectoryHandle(URL(fileURLWithPath: path).resolvingSymlinksInPath().path)
        try dir.checkOwnership()
        if !isTagged(dir) {
            let names = Set(dir.names())
            guard names.isSubset(of: ownNames) else {
                throw CacheError(
                    "\(path) is not a launchad cache folder (it holds other files and no \(CacheNames.tagFile)); "
                        + "give --cache a new or empty folder", refusal: true)
            }
            try writeTag(dir)
        }
        for sub in ["objects", "tmp"] { _ = try dir.subfolder(sub) }
    }

    private static func isTagged(_ dir: DirectoryHandle) -> Bool {
        guard let st = dir.lstat(CacheNames.tagFile), DirectoryHandle.isRegular(st) else { return false }
        let fd = openat(dir.fd, CacheNames.tagFile, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let signature = Array(CacheNames.tagSignature.utf8)
        var buf = [UInt8](repeating: 0, count: signature.count)
        return read(fd, &buf, buf.count) == buf.count && buf == signature
    }

    private static func writeTag(_ dir: DirectoryHandle) throws {
        let fd = openat(dir.fd, CacheNames.tagFile, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw CacheError(
                "cannot mark the cache folder \(dir.path): \(FileProblem(errno: errno, path: dir.path, access: .write).reason)")
        }
        defer { close(fd) }
        let bytes = Array(CacheNames.tagContents.utf8)
        guard write(fd, bytes, bytes.count) == bytes.count else {
            throw CacheError(
                "cannot mark the cache folder \(dir.path): \(FileProblem(errno: errno, path: dir.path, access: .write).reason)")
        }
    }

    /// `objects/` or `tmp/`, opened without following a symlink put in its place.
    func folder(_ name: String) throws -> DirectoryHandle {
        try DirectoryHandle(directory.appendingPathComponent(name).path)
    }
}
