import Foundation
import LaunchAdCore

/// Keeps `end` the last event of a run: anything reported after it (a link that failed to open,
/// a thread finishing late) goes to stderr as one line instead of into the event stream.
// unchecked Sendable: `ended` is read and written only under `lock`.
final class EndGate: EventSink, @unchecked Sendable {
    private let inner: EventSink
    private let lock = NSLock()
    private var ended = false

    init(_ inner: EventSink) { self.inner = inner }

    func emit(_ event: AdEvent) {
        lock.lock()
        let late = ended
        if event.name == "end" { ended = true }
        lock.unlock()
        if late {
            FileHandle.standardError.write(Data("launchad: after the end: \(event.jsonLine())\n".utf8))
        } else {
            inner.emit(event)
        }
    }
}
