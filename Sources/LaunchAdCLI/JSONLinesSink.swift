import Foundation
import LaunchAdCore
import LaunchAdEngine

/// Writes one JSON object per line to a file handle (stdout or `--events FILE`), flushing each line
/// so a host process reading the pipe sees every event as it happens.
/// The handle (which owns the descriptor) is written only under `written`'s lock, one whole line at a time.
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

    /// The latest time written (threads stamp events just before they reach the lock, so a line
    /// is never written with an earlier time than the one before it), and the outcome of the
    /// `end` once one is written.
    private let written = Locked<(lastMs: Int, end: Outcome?)>((0, nil))

    /// Writes the event, unless the run's `end` was written already: nothing follows it (a
    /// thread the run was ended without, waking late, writes nothing), and a second `end` is
    /// never written.
    public func emit(_ event: AdEvent) { _ = write([event]) }

    /// Ends the run with `events` (the last of them its `end`) unless another `end` was written
    /// first: the claim of whoever ends the run, the ad's own thread or the supervisor (whose
    /// `error` and `end` then go out together, nothing between them). False when it was not.
    public func endRun(with events: [AdEvent]) -> Bool { write(events) }

    /// The outcome of the `end` written, nil while none is.
    public var writtenEnd: Outcome? { written.withLock { $0.end } }

    private func write(_ events: [AdEvent]) -> Bool {
        written.withLock { w in
            guard w.end == nil else { return false }
            for event in events {
                var e = event
                e.tMs = max(e.tMs, w.lastMs)
                w.lastMs = e.tMs
                try? handle.write(contentsOf: Data((e.jsonLine() + "\n").utf8))
                if case .end(let end) = e.event {
                    w.end = end.outcome
                    break
                }
            }
            return true
        }
    }
}
