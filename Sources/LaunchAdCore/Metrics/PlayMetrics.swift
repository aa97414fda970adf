/// One run's part of the fleet metrics, read from its own events as they pass: the ad, how it
/// ended, its frames and how long the first picture took (process start to `first_frame`), and
/// the manifests its refresh refused. A prefetch's has no outcome: it counts no play.
public struct PlayMetrics: Equatable, Sendable {
    /// The ad shown (`launch` names it in `cache_hit` or `stream`).
    public var adID: String
    /// The `end` event's outcome; nil until the run ends.
    public private(set) var outcome: String?
    /// Pictures presented, from `end`.
    public private(set) var framesShown = 0
    /// Pictures decoded but never presented, from `end`.
    public private(set) var framesDropped = 0
    /// Milliseconds from process start to `first_frame`.
    public private(set) var firstFrameMs: Int?
    /// The run's `manifest_rejected` events by reason (its refresh's, for launch and prefetch).
    public private(set) var manifestRejections: [ManifestRejection: Int] = [:]

    /// A run of `adID` (the file or tag played, until `launch` names its ad).
    public init(adID: String) { self.adID = adID }

    /// Takes what it needs from one event of the run.
    public mutating func observe(_ event: AdEvent) {
        switch event.event {
        case .firstFrame:
            if firstFrameMs == nil { firstFrameMs = event.tMs }
        // `launch` names the ad it chose.
        case .cacheHit(let id, _, _), .stream(let id, _): adID = id
        case .manifestRejected(let refusal, _): manifestRejections[refusal.reason, default: 0] += 1
        case .end(let e):
            outcome = e.outcome.rawValue
            framesShown = e.frames?.shown ?? 0
            framesDropped = e.frames?.dropped ?? 0
        default: break
        }
    }
}
