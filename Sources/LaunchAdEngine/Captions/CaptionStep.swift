import Foundation
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdPlayer

/// Reads the captions an ad comes with beside its playback (never before its first frame), and
/// says what was read: a `captions` event (format, cue count, and the WebVTT cues never on
/// screen when there are some), or one `captions_error` (the file refused, or cues skipped as
/// malformed). A caption problem never stops the ad.
enum CaptionStep {
    /// The reader the player runs on a thread of its own: `location` fetched with `reach` (the
    /// reach of whoever named it) through the run's network and parsed within `--vast-timeout`.
    static func loader(
        _ location: String, source: CaptionSource, language: String? = nil, reach: Reach, o: PlayOptions, network: RunNetwork
    ) -> SideLoads.Captions {
        let fetcher = network.documents(seconds: o.vast.timeout)
        let seconds = o.vast.timeout
        return { sink, isAborted in
            let budget = CaptionFormat.budget(seconds: seconds, limitName: "--vast-timeout")
            switch CaptionLoader.load(location, reach: reach, fetcher: fetcher, budget: budget, isCancelled: isAborted) {
            case .failure(let e):
                sink.emit(.captionsError(CaptionsProblem(source: source, file: location, language: language, message: e.message)))
                return nil
            case .success(let p):
                sink.emit(
                    .captions(
                        CaptionsRead(
                            source: source, file: location, format: p.format.rawValue, cues: p.track.cues.count, language: language,
                            neverShown: p.neverShown)))
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
}
