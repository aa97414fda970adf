import Foundation

/// `launch`'s decisions around the one ad it shows: the options a manifest's ad sets on top of
/// the command line, the `end` it writes once the app is on screen (a first launch's creative
/// that came too late is `no_ad`, `creative_late`), the play counted for the frequency caps,
/// and the exit status.
public enum LaunchRun {
    /// The command line's presentation options, with what the manifest says about this ad on top.
    /// `handsOff`: an app follows (`--then`), so the ad leaves without a transition.
    /// `captions`: the ad's own caption file (cached or streamed), used unless `--captions` names
    /// one. `waitLeft`: what is left of `--wait` for a creative that streams (at least half a
    /// second: the manifest's arrival took the rest); nil keeps `--wait` whole.
    public static func options(
        _ base: PlayOptions, for choice: AdChoice, file: String, fallback: String?, captions: String? = nil, waitLeft: Double? = nil,
        handsOff: Bool
    ) -> PlayOptions {
        var p = base
        let ad = choice.ad
        p.file = file
        p.captions = base.captions ?? captions
        if let waitLeft { p.wait = max(0.5, waitLeft) }
        p.adID = ad.id
        p.fallback = fallback ?? p.fallback
        if let link = ad.link { p.link = link }
        if let skip = ad.skipAfter { p.skipAfter = skip }
        if let d = ad.duration {
            // An image's (or the fallback's) length; for a video also a cap on its own length.
            p.imageDuration = d
            if ad.kind == .video { p.maxDuration = d }
        }
        if let layout = ad.layout.flatMap(LayoutMode.init(rawValue:)), layout == .fullscreen || p.logo != nil {
            p.layout = layout
        }
        // The hand-off replaces the leave transition: the last picture stays until the app is there.
        if handsOff { p.transition = .none }
        return p
    }

    /// The collector for play records: `--report`, else the manifest's `report`.
    public static func reportTarget(commandLine: ReportTarget?, manifest: ReportTarget?) -> ReportTarget? { commandLine ?? manifest }

    /// The metrics file a run writes: `--metrics` when given (nil when it failed its check at
    /// start), else the local manifest's `metrics` as the last refresh recorded it.
    public static func metricsPath(given: String?, checked: String?, manifest: String?) -> String? {
        given == nil ? manifest : checked
    }

    /// What the run showed: an ad played (from the cache or streamed), or no ad and why.
    public enum Shown: Equatable, Sendable {
        /// The ad `adID` played; `streamed`: from the network on a first launch.
        case played(PlayResult, adID: String, streamed: Bool)
        case noAd(NoAdReason)
        /// No ad could be tried: the player cannot run (a library that cannot be loaded).
        case failed(PlayError)
    }

    /// The run's `end`. A streamed creative whose first frame was too late is no ad: the next
    /// launch has it cached.
    public static func end(_ shown: Shown) -> RunEnd {
        switch shown {
        case .noAd(let reason): return RunEnd(outcome: .noAd, reason: reason)
        case .failed: return RunEnd(outcome: .error)
        case .played(let result, _, let streamed):
            var end = result.end
            if streamed && end.outcome == .timeout {
                end.outcome = .noAd
                end.reason = .creativeLate
            }
            return end
        }
    }

    /// When the ad itself was on screen, as a date for the frequency caps: `nowMs` and `now` are
    /// the same moment on the process clock and the wall clock. Nil when only a fallback, or
    /// nothing, was shown.
    public static func countedPlay(_ shown: Shown, nowMs: Int, now: Date) -> (adID: String, at: Date)? {
        guard case .played(let result, let id, _) = shown, let at = result.adShownAtMs else { return nil }
        return (id, now.addingTimeInterval(Double(at - nowMs) / 1000))
    }

    /// The exit status: the app's when one was started (127 when it could not be), else the
    /// ad's outcome's; a refused cache folder is a usage error, a missing library 127.
    public static func exitStatus(_ shown: Shown, appGiven: Bool, appStatus: Int32?, cacheRefused: Bool) -> Int32 {
        if appGiven { return appStatus ?? 127 }
        if cacheRefused { return ExitCode.usage }
        if case .failed(let e) = shown, e.failure == .libraryMissing { return ExitCode.libraryMissing }
        return end(shown).outcome.exitCode
    }
}
