import Foundation
import LaunchAdCore
import LaunchAdDelivery

/// Reads the captions an ad comes with before it plays, and says what was read: a `captions`
/// event (format, cue count), or one `captions_error` (the file refused, or cues skipped as
/// malformed). A caption problem never stops the ad.
enum CaptionStep {
    static func load(_ location: String, source: String, language: String? = nil, o: PlayOptions, sink: EventSink) -> CaptionTrack? {
        let fetcher = HTTPClient(connectTimeout: o.vast.timeout, totalTimeout: o.vast.timeout, allowHTTP: o.vast.allowHTTP)
        let about: [(String, JSONValue)] =
            [("source", .string(source)), ("file", .string(location))]
            + (language.map { [("language", .string($0))] } ?? [])
        switch CaptionLoader.load(location, fetcher: fetcher) {
        case .failure(let e):
            emit(sink, "captions_error", about + [("message", .string(e.message))])
            return nil
        case .success(let p):
            emit(sink, "captions", about + [("format", .string(p.format.rawValue)), ("cues", .int(p.track.cues.count))])
            if p.skipped > 0 {
                emit(
                    sink, "captions_error", about + [("message", .string(p.firstProblem ?? "malformed cues")), ("skipped", .int(p.skipped))]
                )
            }
            return p.track
        }
    }

    private static func emit(_ sink: EventSink, _ name: String, _ fields: [(String, JSONValue)]) {
        sink.emit(AdEvent(name, tMs: ProcessClock.nowMs(), fields))
    }
}
