import Foundation
import LaunchAdCore

/// One try of one media file of a VAST ad. When the file does not open or decode before its
/// first frame and another candidate is left, the try's `error` and `end` are held back (no
/// Error URI, no `ad_end`): a `media_fallback` event says so and the next candidate plays.
/// Otherwise every event passes through unchanged.
final class CandidateGate: EventSink, Sendable {
    /// The player's codes for a file that could not be opened or decoded at all.
    static let openFailures: Set<String> = [
        "file_not_found", "open_failed", "permission_denied", "decoder_missing", "not_media",
        "no_video_stream"
    ]
    private let inner: EventSink
    private let sink: EventSink
    private let media: String
    private let canFallThrough: Bool
    private let state = Locked<(shown: Bool, failed: Bool)>((false, false))

    /// `sink`: where the `media_fallback` event goes (the run's own stream).
    init(_ inner: EventSink, media: String, canFallThrough: Bool, sink: EventSink) {
        self.inner = inner; self.media = media; self.canFallThrough = canFallThrough; self.sink = sink
    }

    /// Whether this try gave way to the next candidate.
    var fellThrough: Bool { state.withLock { $0.failed } }

    func emit(_ event: AdEvent) {
        // `fallThrough`: the code of the error that hands over to the next candidate.
        let (hold, fallThrough) = state.withLock { s -> (Bool, String?) in
            if event.name == "first_frame" { s.shown = true }
            if !s.failed, canFallThrough, !s.shown, event.name == "error", case .string(let code)? = event["code"],
                Self.openFailures.contains(code)
            {
                s.failed = true
                return (true, code)
            }
            return (s.failed, nil)
        }
        if let code = fallThrough {
            sink.emit(
                AdEvent(
                    "media_fallback", tMs: event.tMs,
                    [
                        ("media", .string(media)), ("code", .string(code)),
                        ("message", event["message"] ?? .null)
                    ]))
        } else if !hold {
            inner.emit(event)
        }
    }
}
