import Foundation
import LaunchAdCore

/// One try of one media file of a VAST ad. When the file does not open or decode before its
/// first frame and another candidate is left, the try's `error` and `end` are held back (no
/// Error URI, no `ad_end`): a `media_fallback` event says so and the next candidate plays.
/// Otherwise every event passes through unchanged.
final class CandidateGate: EventSink, @unchecked Sendable { // state guarded by `lock`
    /// The player's codes for a file that could not be opened or decoded at all.
    static let openFailures: Set<String> = ["file_not_found", "open_failed", "permission_denied", "decoder_missing", "not_media",
                                            "no_video_stream"]
    private let inner: EventSink
    private let sink: EventSink
    private let media: String
    private let canFallThrough: Bool
    private let lock = NSLock()
    private var shown = false
    private var failed = false

    /// `sink`: where the `media_fallback` event goes (the run's own stream).
    init(_ inner: EventSink, media: String, canFallThrough: Bool, sink: EventSink) {
        self.inner = inner; self.media = media; self.canFallThrough = canFallThrough; self.sink = sink
    }

    /// Whether this try gave way to the next candidate.
    var fellThrough: Bool { lock.lock(); defer { lock.unlock() }; return failed }

    func emit(_ event: AdEvent) {
        lock.lock()
        if event.name == "first_frame" { shown = true }
        var hold = failed
        if !hold, canFallThrough, !shown, event.name == "error", case .string(let code)? = event["code"], Self.openFailures.contains(code) {
            failed = true
            hold = true
            lock.unlock()
            sink.emit(AdEvent("media_fallback", tMs: event.tMs, [("media", .string(media)), ("code", .string(code)),
                                                                 ("message", event["message"] ?? .null)]))
            return
        }
        lock.unlock()
        if !hold { inner.emit(event) }
    }
}
