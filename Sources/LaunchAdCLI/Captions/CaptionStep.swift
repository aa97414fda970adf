import Foundation
import LaunchAdCore
import LaunchAdDelivery

/// Reads the captions an ad comes with before it plays, and says what was read: a `captions`
/// event (format, cue count), or one `captions_error` (the file refused, or cues skipped as
/// malformed). A caption problem never stops the ad.
enum CaptionStep {
    static func load(
        _ location: String, source: CaptionSource, language: String? = nil, o: PlayOptions, sink: EventSink
    ) -> CaptionTrack? {
        let fetcher = HTTPClient(connectTimeout: o.vast.timeout, totalTimeout: o.vast.timeout, allowHTTP: o.vast.allowHTTP)
        switch CaptionLoader.load(location, fetcher: fetcher) {
        case .failure(let e):
            sink.emit(.captionsError(CaptionsProblem(source: source, file: location, language: language, message: e.message)))
            return nil
        case .success(let p):
            sink.emit(
                .captions(
                    CaptionsRead(source: source, file: location, format: p.format.rawValue, cues: p.track.cues.count, language: language)))
            if p.skipped > 0 {
                sink.emit(
                    .captionsError(
                        CaptionsProblem(
                            source: source, file: location, language: language, message: p.firstProblem ?? "malformed cues",
                            skipped: p.skipped)))
            }
            return p.track
        }
    }
}
