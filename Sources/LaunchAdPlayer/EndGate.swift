import Foundation
import LaunchAdCore

/// Keeps `end` the last event of a run: anything reported after it (a link that failed to open,
/// a thread finishing late) goes to stderr as one line instead of into the event stream.
final class EndGate: EventSink, Sendable {
    private let inner: EventSink
    private let ended = Locked(false)

    init(_ inner: EventSink) { self.inner = inner }

    func emit(_ event: AdEvent) {
        let late = ended.withLock { ended in
            defer { if case .end = event.event { ended = true } }
            return ended
        }
        if late {
            FileHandle.standardError.write(TerminalText.line("after the end: \(event.jsonLine())"))
        } else {
            inner.emit(event)
        }
    }
}
