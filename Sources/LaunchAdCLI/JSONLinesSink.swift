import Foundation
import LaunchAdCore
import LaunchAdEngine

/// Writes one JSON object per line to a file handle (stdout or `--events FILE`), flushing each line
/// so a host process reading the pipe sees every event as it happens.
/// The handle (which owns the descriptor) is written only under `lastMs`'s lock, one whole line at a time.
public final class JSONLinesSink: EventSink, Sendable {
    private let handle: FileHandle

    public init(handle: FileHandle) { self.handle = handle }

    /// Opens the file at `path` for writing, creating or truncating it in place. Never replaced by
    /// a new file (FileManager.createFile writes atomically, renaming over the path): `--events
    /// /dev/null`, a FIFO or a file another process follows must stay what it is.
    public convenience init(path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw UsageError("--events: \(FileProblem(errno: errno, path: path, access: .write))")
        }
        self.init(handle: FileHandle(fileDescriptor: fd, closeOnDealloc: true))
    }

    /// The latest time written: threads stamp events just before they reach the lock, so a line
    /// is never written with an earlier time than the one before it.
    private let lastMs = Locked(0)

    public func emit(_ event: AdEvent) {
        lastMs.withLock { lastMs in
            var e = event
            e.tMs = max(e.tMs, lastMs)
            lastMs = e.tMs
            try? handle.write(contentsOf: Data((e.jsonLine() + "\n").utf8))
        }
    }
}
