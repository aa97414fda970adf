import Foundation
import LaunchAdCore

/// A local file for the demuxer: opened once by launchad and read with pread, so FFmpeg's own
/// file protocol is never used and the demuxer cannot open a second file (a playlist's
/// segments, a manifest's references). Only a regular file is read; opening a FIFO blocks
/// in the kernel as any open would, and the player's first-frame deadline covers it.
// @unchecked Sendable: the descriptor is set once and pread needs no shared position.
final class FileByteSource: ByteSource, @unchecked Sendable {
    private let fd: Int32
    let size: Int64?

    init(path: String) throws {
        fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let err = errno
            let code: FailureCode = err == ENOENT ? .fileNotFound : err == EACCES ? .permissionDenied : .openFailed
            throw MediaError(code, FileProblem(errno: err, path: path, access: .read).description)
        }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw MediaError(.notMedia, "\(path) is not a regular file (a FIFO, device or folder); refusing to read it")
        }
        size = Int64(st.st_size)
    }

    deinit { close(fd) }

    func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            let n = pread(fd, buffer.baseAddress, buffer.count, off_t(offset))
            if n >= 0 { return n }
            guard errno == EINTR else { throw MediaError(.readFailed, "reading: \(String(cString: strerror(errno)))") }
        }
    }

    func cancel() {}
}
