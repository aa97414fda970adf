import Foundation
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdPlayer

/// Reads the captions an ad comes with beside its playback (never before its first frame), and
/// says what was read: a `captions` event (format, cue count), or one `captions_error` (the file
/// refused, or cues skipped as malformed). A caption problem never stops the ad.
enum CaptionStep {
    /// The reader the player runs on a thread of its own: `location` fetched with `reach` (the
    /// reach of whoever named it) and parsed within `--vast-timeout`.
    static func loader(_ location: String, source: String, language: String? = nil, reach: Reach, o: PlayOptions) -> SideLoads.Captions {
        let fetcher = HTTPClient(connectTimeout: o.vast.timeout, totalTimeout: o.vast.timeout, allowHTTP: o.vast.allowHTTP)
        let seconds = o.vast.timeout
        return { sink, isAborted in
            let about: [(String, JSONValue)] =
                [("source", .string(source)), ("file", .string(location))]
                + (language.map { [("language", .string($0))] } ?? [])
            let budget = CaptionFormat.budget(seconds: seconds, limitName: "--vast-timeout")
            switch CaptionLoader.load(location, reach: reach, fetcher: fetcher, budget: budget, isCancelled: isAborted) {
            case .failure(let e):
                emit(sink, "captions_error", about + [("message", .string(e.message))])
                return nil
            case .success(let p):
                emit(sink, "captions", about + [("format", .string(p.format.rawValue)), ("cues", .int(p.track.cues.count))])
                if p.skipped > 0 {
                    emit(
                        sink, "captions_error",
                        about + [("message", .string(p.firstProblem ?? "malformed cues")), ("skipped", .int(p.skipped))])
                }
                return p.track
            }
        }
    }

    private static func emit(_ sink: EventSink, _ name: String, _ fields: [(String, JSONValue)]) {
        sink.emit(AdEvent(name, tMs: ProcessClock.nowMs(), fields))
    }
}
