/// A VAST run's decisions, from the typed results of each ad: which ad plays next (the pod, a
/// buffet ad standing in for a failed one), which media file of an ad is tried next (a file that
/// does not open gives way to the next candidate before its first frame), and how the run ends
/// (its `end`, the fallback image, or `no_ad`). The CLI fetches, plays and sends; this decides.
public struct VASTRun: Sendable {
    private var pod: VASTPodSequence
    /// Ads that played (reached the player and did not give way).
    public private(set) var adsPlayed = 0
    private var shownMs = 0
    private var last: Outcome?
    /// The error the run reports as its reason when nothing played.
    public private(set) var lastError: VASTError?

    /// A run of `plan`'s ads in pod order.
    public init(_ plan: VASTAdPlan) { pod = VASTPodSequence(plan) }

    /// The next ad to resolve and play, or nil when the run is over.
    public mutating func nextAd() -> VASTAd? { pod.next() }

    /// The ad could not be resolved or had no media file to play; `stopRun`: a wrapper's
    /// `fallbackOnNoAd="false"` that found nothing selects no ad at all.
    public mutating func adFailed(_ error: VASTError, stopRun: Bool = false) {
        lastError = error
        pod.record(.failed(stopRun: stopRun))
    }

    /// One ad's media files, tried in order.
    public struct Candidates: Sendable {
        private let files: [VASTMediaFile]
        private var index = 0

        /// The chosen file and its fallbacks, best first.
        public init(_ files: [VASTMediaFile]) { self.files = files }

        /// The next file to play, and whether it may give way to a file after it.
        public mutating func next() -> (file: VASTMediaFile, givesWay: Bool)? {
            guard index < files.count else { return nil }
            defer { index += 1 }
            return (files[index], index + 1 < files.count)
        }
    }

    /// What one try of a media file leads to.
    public enum Step: Equatable, Sendable {
        /// The file did not open: say so (`media_fallback`) and try the next candidate.
        case tryNext(LaunchEvent)
        /// The ad played: its `ad_end` is written, then the run goes on (or not) by its outcome.
        case played(LaunchEvent)
        /// The ad's first frame never came (no ad, or too late): its `ad_end` is written and the
        /// ad failed (VAST 405).
        case failed(LaunchEvent)
    }

    /// Judges one try of `media` for the ad `adID` (`sequence` in the pod).
    public mutating func tried(_ media: String, result: PlayResult, adID: String?, sequence: Int?) -> Step {
        if result.gaveWay, let e = result.error, let code = e.failure {
            return .tryNext(.mediaFallback(media: media, code: code, message: e.message))
        }
        let adEnd = LaunchEvent.adEnd(adID: adID, sequence: sequence, end: result.end)
        if result.outcome == .noAd || result.outcome == .timeout {
            adFailed(VASTError(VASTError.mediaDisplay, "the media file could not be played"))
            return .failed(adEnd)
        }
        adsPlayed += 1
        shownMs += result.end.shownMs ?? 0
        last = result.outcome
        pod.record(.played(result.outcome, closed: result.closed))
        return .played(adEnd)
    }

    /// Every candidate gave way: the ad failed.
    public mutating func candidatesExhausted() { pod.record(.failed(stopRun: false)) }

    /// How the run ends once `nextAd()` has nothing left.
    public enum Ending: Equatable, Sendable {
        /// The run's `end`.
        case end(RunEnd)
        /// Nothing played: the fallback image is shown (its own run writes the `end`).
        case fallback(FallbackReason)
    }

    /// The run's ending; `hasFallback`: a fallback image was given.
    public func ending(hasFallback: Bool) -> Ending {
        if let last { return .end(RunEnd(outcome: last, shownMs: shownMs, adsPlayed: adsPlayed)) }
        return Self.noAdEnding(lastError, hasFallback: hasFallback)
    }

    /// Nothing played (`lastError`: the last VAST error reported): the fallback image, else `no_ad`.
    public static func noAdEnding(_ lastError: VASTError?, hasFallback: Bool) -> Ending {
        if hasFallback { return .fallback(lastError.map { .error(.vast($0.code)) } ?? .noAd) }
        return .end(RunEnd(outcome: .noAd, shownMs: 0))
    }
}
