import Foundation

/// Reads a file launchad wrote earlier and reads again (the metrics textfile): only a regular
/// file this user owns, never through a symlink (O_NOFOLLOW), never a FIFO or device that could
/// block (O_NONBLOCK), and never more than `maxBytes`: a planted link, a foreign file or a 1 GB
/// file is refused with its reason instead of read whole. With `owner: .anyone`, a setting the
/// administrator put in place (a trusted public key): any owner, links followed, the rest alike.
public enum OwnFile {
    /// Whose file it may be.
    public enum Owner: Sendable { case thisUser, anyone }

    /// What was found under the name.
    public enum Read: Equatable, Sendable {
        case missing
        case refused(String)
        case contents(Data)
    }

    public static func read(_ path: String, maxBytes: Int, owner: Owner = .thisUser) -> Read {
        let fd = open(path, O_RDONLY | (owner == .thisUser ? O_NOFOLLOW : 0) | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            switch errno {
            case ENOENT: return .missing
            case ELOOP: return .refused("it is a symlink; launchad will not follow it")
            default: return .refused("cannot open it: \(String(cString: strerror(errno)))")
            }
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, DirectoryHandle.isRegular(st) else { return .refused("it is not a regular file") }
        guard owner == .anyone || st.st_uid == geteuid() else { return .refused("it belongs to another user (uid \(st.st_uid))") }
        guard st.st_size <= maxBytes else { return .refused("it has \(st.st_size) bytes, over the \(maxBytes)-byte limit") }
        // One byte more than its size, to notice a file that grew meanwhile; never past the limit.
        var buffer = [UInt8](repeating: 0, count: min(Int(st.st_size), maxBytes) + 1)
        var count = 0
        while count < buffer.count {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            count += n
        }
        guard count <= st.st_size else { return .refused("it changed while read") }
        return .contents(Data(buffer[0..<count]))
    }
}
