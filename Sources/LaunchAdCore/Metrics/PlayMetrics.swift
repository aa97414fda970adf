/// One run's part of the fleet metrics, read from its own events as they pass: the ad, how it
/// ended, its frames and how long the first picture took (process start to `first_frame`).
public struct PlayMetrics: Equatable, Sendable {
    public var adID: String
    public private(set) var outcome: String?
    public private(set) var framesShown = 0
    public private(set) var framesDropped = 0
    public private(set) var firstFrameMs: Int?

    public init(adID: String) { self.adID = adID }

    public mutating func observe(_ event: AdEvent) {
        switch event.name {
        case "first_frame":
            if firstFrameMs == nil { firstFrameMs = event.tMs }
        case "cache_hit", "stream":
            // `launch` names the ad it chose.
            if case .string(let id)? = event["id"] { adID = id }
        case "end":
            if case .string(let o)? = event["outcome"] { outcome = o }
            if case .int(let n)? = event["frames_shown"] { framesShown = n }
            if case .int(let n)? = event["frames_dropped"] { framesDropped = n }
        default: break
        }
    }
}
