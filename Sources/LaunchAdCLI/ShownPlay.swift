import Foundation
import LaunchAdCore
import LaunchAdDelivery

/// Notes whether the chosen ad itself (not its fallback) reached the screen, passing every
/// event on; `record` then writes the play into the cache index, where the frequency caps of
/// later launches count it.
final class ShownPlay: EventSink, Sendable {
    private let store: CacheStore
    private let id: String
    private let inner: EventSink
    private let shownAt = Locked<Date?>(nil)

    init(store: CacheStore, id: String, sink: EventSink) { self.store = store; self.id = id; inner = sink }

    func emit(_ event: AdEvent) {
        if event.name == "first_frame", event["fallback"] != .bool(true) {
            shownAt.withLock { if $0 == nil { $0 = Date() } }
        }
        inner.emit(event)
    }

    /// Writes the play (if the ad was shown); a cache that cannot be written is said on stderr.
    func record() {
        guard let at = shownAt.withLock({ $0 }) else { return }
        do { try store.recordPlay(id, at: at) } catch {
            FileHandle.standardError.write(Data("launchad: cannot count the play for the frequency caps: \(error)\n".utf8))
        }
    }
}
