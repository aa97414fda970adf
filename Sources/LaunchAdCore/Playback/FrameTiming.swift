/// Which queued picture to show at a clock time, ffplay-style: a picture whose successor is
/// already due is late and dropped; pictures earlier than the one on screen are dropped too, so
/// nothing is ever shown out of order.
public enum FrameTiming {
    /// What to do with the queue at this clock time.
    public struct Decision: Equatable, Sendable {
        /// How many pictures at the head of the queue to drop.
        public var drop: Int
        /// Whether the picture after those is due now and should be shown.
        public var show: Bool
    }

    /// `queued` are the waiting pictures' timestamps in decode order; `shown` is the timestamp on screen.
    public static func decide(queued: [Double], shown: Double?, clock: Double, tolerance: Double = 0.002) -> Decision {
        var drop = 0
        while drop < queued.count {
            let pts = queued[drop]
            if let shown, pts <= shown { drop += 1; continue }
            let next = drop + 1 < queued.count ? queued[drop + 1] : nil
            if let next, next <= clock + tolerance { drop += 1; continue }
            break
        }
        let show = drop < queued.count && queued[drop] <= clock + tolerance
        return Decision(drop: drop, show: show)
    }
}
