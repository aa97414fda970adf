import Foundation

/// Creates (or truncates) a file for writing under exactly the name given, readable by this user
/// only, never through a symlink. Unlike FileManager.createFile it writes no temporary file of
/// its own beside it, so a process killed mid-write leaves only names launchad's sweep knows.
enum PrivateFile {
    static func create(_ path: String) -> FileHandle? {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
        return fd >= 0 ? FileHandle(fileDescriptor: fd, closeOnDealloc: true) : nil
    }
}
