import Foundation
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdEngine

/// `--output FILE`, written whole or not at all: the report goes to a temporary file in FILE's
/// folder, made before any decoding (so an unwritable path fails at once), and is renamed over
/// FILE once complete. Whatever is not committed is removed. A FILE that is not a regular file
/// (`/dev/stdout`, a FIFO, a device) is opened at once and written in place, never replaced.
final class ReportFile {
    /// The file written: the one named, or the regular file a symlink named points to.
    let path: String
    private var temp: String?
    /// The special file named, opened for writing.
    private var special: FileHandle?
    /// As readable as any file the user creates.
    private let mode: mode_t

    /// The option that named the file, for error lines (`--output`, `--out`).
    private let option: String

    init(_ named: String, option: String = "--output") throws {
        self.option = option
        // A symlink to a regular file (`/dev/stdout` redirected to a file, too) is replaced at
        // its target, never itself: the rename must not land on the link.
        var lst = stat()
        if lstat(named, &lst) == 0, lst.st_mode & S_IFMT == S_IFLNK, let real = realpath(named, nil) {
            path = String(cString: real)
            free(real)
        } else {
            path = named
        }
        let path = self.path
        let mask = umask(0)
        umask(mask)
        mode = 0o666 & ~mask
        var st = stat()
        if stat(path, &st) == 0 {
            if st.st_mode & S_IFMT == S_IFDIR { throw UsageError("\(option): \(FileProblem(errno: EISDIR, path: path, access: .write))") }
            if st.st_mode & S_IFMT != S_IFREG {
                let fd = open(path, O_WRONLY | O_CLOEXEC)
                guard fd >= 0 else { throw Self.failure(path, option) }
                special = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
                return
            }
        }
        let url = URL(fileURLWithPath: path)
        var template = Array((url.deletingLastPathComponent().path + "/.\(url.lastPathComponent).XXXXXX").utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else { throw Self.failure(path, option) }
        close(fd)
        temp = String(cBuffer: template)
    }

    deinit { if let temp { unlink(temp) } }

    /// Writes `text` and puts it in place.
    func commit(_ text: String) throws {
        if let special {
            do { try special.write(contentsOf: Data(text.utf8)) } catch {
                throw UsageError("\(option): \(FileProblem(error, path: path, access: .write))")
            }
            self.special = nil
            return
        }
        guard let temp else { return }
        do { try AtomicFile.replace(path, with: Data(text.utf8), temporary: temp, mode: mode) } catch {
            throw UsageError("\(option): \(error.description)")
        }
        self.temp = nil
    }

    private static func failure(_ path: String, _ option: String) -> UsageError {
        UsageError("\(option): \(FileProblem(errno: errno, path: path, access: .write))")
    }
}
