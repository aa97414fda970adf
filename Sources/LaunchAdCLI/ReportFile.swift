import Foundation
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdEngine
import Synchronization

/// `--output FILE`, written whole or not at all: the report goes to a temporary file in FILE's
/// folder, made before any decoding (so an unwritable path fails at once), and is renamed over
/// FILE once complete. Whatever is not committed is removed, on every way out: an error, a
/// return, and any signal that ends the process (`PendingFiles`). A FILE that is not a regular file
/// (`/dev/stdout`, a FIFO, a device) is opened at once and written in place, never replaced.
final class ReportFile {
    /// The file written: the one named, or the regular file a symlink named points to.
    let path: String
    private var temp: String?
    /// Its place among the files a signal removes.
    private var pending: PendingFiles.Slot?
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
        pending = PendingFiles.slot()
        let fd = mkstemp(&template)
        guard fd >= 0 else { throw Self.failure(path, option) }
        pending?.arm(template)
        close(fd)
        temp = String(cBuffer: template)
    }

    deinit {
        if let temp { unlink(temp) }
        pending?.forget()
    }

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
        pending?.forget()
        pending = nil
    }

    private static func failure(_ path: String, _ option: String) -> UsageError {
        UsageError("\(option): \(FileProblem(errno: errno, path: path, access: .write))")
    }
}

/// The temporary files of `ReportFile`s not yet committed, removed when a signal ends the
/// process (an interrupted `fleet report --out` left `.FILE.XXXXXX` behind: first on TERM, INT
/// and HUP, then on USR1, ALRM, PIPE, XFSZ and the rest). Every signal whose default action ends
/// the process (`terminating`) is taken, and only while at that default (not HUP under nohup, nor
/// a PIPE the parent ignored, nor one the Swift runtime handles to print a crash's backtrace). The
/// handler removes each pending file, then ends the process by the same signal, as the default
/// would have: the disposition is reset as the handler starts (`SA_RESETHAND`), and the signal
/// raised again is delivered once it returns. Async-signal-safe: the paths are copied into
/// memory allocated beforehand, each slot used once, and armed by an atomic bit.
enum PendingFiles {
    /// One pending file's place.
    struct Slot {
        let index: Int

        /// Copies `path` (a C string) into the slot and arms it.
        func arm(_ path: [CChar]) {
            let start = PendingFiles.paths + index * PendingFiles.width
            let count = min(path.count, PendingFiles.width - 1)
            path.withUnsafeBufferPointer { start.update(from: $0.baseAddress!, count: count) }
            start[count] = 0
            PendingFiles.armed.bitwiseOr(1 << index, ordering: .sequentiallyConsistent)
        }

        /// The file is gone or committed: a signal leaves it alone.
        func forget() { PendingFiles.armed.bitwiseAnd(~(1 << index), ordering: .sequentiallyConsistent) }
    }

    static let slots = 16
    static let width = Int(PATH_MAX) + 1
    /// Allocated once, kept for the process.
    nonisolated(unsafe) static let paths = UnsafeMutablePointer<CChar>.allocate(capacity: slots * width)
    static let armed = Atomic<Int>(0)
    static let used = Atomic<Int>(0)
    static let installed = Atomic<Bool>(false)

    /// A slot for a file about to be made, the handlers installed at the first; nil once every
    /// slot was used (a process making more report files than that is not one launchad runs).
    static func slot() -> Slot? {
        // What the handler reads exists before it can run.
        _ = paths
        _ = armed.load(ordering: .sequentiallyConsistent)
        let index = used.wrappingAdd(1, ordering: .sequentiallyConsistent).oldValue
        guard index < slots else { return nil }
        if installed.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged {
            for sig in terminating { install(sig) }
        }
        return Slot(index: index)
    }

    /// Every signal whose default action ends the process, by terminating it or dumping core
    /// (signal(7)), real-time ones included: all but KILL and STOP, which no handler can take, and
    /// those ignored, stopping or continuing by default. (32 and 33 are glibc's own: `sigaction`
    /// refuses them, and `install` leaves them.)
    static let terminating: [Int32] = {
        let notEnding: Set<Int32> = [SIGKILL, SIGSTOP, SIGCHLD, SIGCONT, SIGURG, SIGWINCH, SIGTSTP, SIGTTIN, SIGTTOU]
        return (1..<Int32(NSIG)).filter { !notEnding.contains($0) }
    }()

    private static func install(_ sig: Int32) {
        var old = sigaction()
        guard sigaction(sig, nil, &old) == 0,
            unsafeBitCast(old.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_DFL, to: Int.self)
        else { return }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { sig in
            let mask = PendingFiles.armed.load(ordering: .sequentiallyConsistent)
            for i in 0..<PendingFiles.slots where mask & (1 << i) != 0 { unlink(PendingFiles.paths + i * PendingFiles.width) }
            raise(sig)
        }
        action.sa_flags = Int32(truncatingIfNeeded: SA_RESETHAND)
        sigemptyset(&action.sa_mask)
        sigaction(sig, &action, nil)
    }
}
