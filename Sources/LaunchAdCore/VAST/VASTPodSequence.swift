/// Which ad of a VAST response plays next: the pod's ads in sequence order (or, without a pod,
/// one standalone ad), a buffet ad in place of one that failed, and nothing more once an ad was
/// ended by a click, the host, an error or a closed window, or a failure says the run stops,
/// or `maxFailedAds` ads have failed (as `prefetch` tries at most 5 ads of a response).
public struct VASTPodSequence: Sendable {
    /// The most ads of one response that may fail before the run stops: a 1 MB tag holds
    /// 2,600 ads whose media cannot be had, and each failure costs its Error URIs and up to
    /// `--wait`; trying them all held `play --vast` for minutes.
    public static let maxFailedAds = 5

    /// How the ad `next()` gave ended.
    public enum Result: Equatable, Sendable {
        case played(Outcome, closed: Bool)
        case failed(stopRun: Bool)
    }

    private var slots: ArraySlice<VASTAd?>
    private var buffet: ArraySlice<VASTAd>
    /// A buffet ad standing in for the slot whose ad failed.
    private var standIn: VASTAd?
    private var stopped = false
    private var failures = 0

    /// The order `plan`'s ads play in.
    public init(_ plan: VASTAdPlan) {
        slots = plan.pod.isEmpty ? [nil] : plan.pod.map(Optional.some)[...]
        buffet = plan.buffet[...]
    }

    /// The next ad to play, or nil when the run is over.
    public mutating func next() -> VASTAd? {
        guard !stopped else { return nil }
        if let ad = standIn { standIn = nil; return ad }
        while let slot = slots.popFirst() {
            // A slot without a pod ad takes the first buffet ad.
            if let ad = slot ?? buffet.popFirst() { return ad }
        }
        return nil
    }

    /// Records how the ad `next()` last gave ended; decides what (if anything) plays next.
    public mutating func record(_ result: Result) {
        switch result {
        case .played(let outcome, let closed):
            if closed || outcome == .clicked || outcome == .endedByHost || outcome == .error { stopped = true }
        case .failed(let stopRun):
            failures += 1
            if stopRun || failures >= Self.maxFailedAds { stopped = true } else { standIn = buffet.popFirst() }
        }
    }
}
