/// Whether a video's pictures reach the screen on schedule, judged from the wall clock and the
/// pictures' own timestamps (not the media clock: when the stream stalls the audio clock stops
/// too, and a frozen picture would look on time). The next picture is due when the one on
/// screen has had its time: its successor's timestamp minus its own, or one frame interval
/// while the successor is not decoded yet. One judgement serves three users: shown time (time a
/// picture was overdue is not shown time), the stall limit (`--stall-timeout`) and the systemd
/// watchdog (pinged only while on schedule).
public struct PresentationWatch: Equatable, Sendable {
    /// Lateness a picture may have and still count as on schedule: decode and present jitter.
    public static let toleranceMs = 250

    /// How late the next picture may be before the ad ends as stalled.
    public var stallLimitMs: Int
    /// When the picture on screen was presented (process ms) and its timestamp (seconds).
    private var presentedAt: Int?
    private var shownPTS = 0.0
    /// The video's frame interval, for a successor not decoded yet.
    private var frameMs = 40
    /// The successor's timestamp, when decoded; `drained`: there is none (the stream is over).
    private var nextPTS: Double?
    private var drained = false
    private var pausedAt: Int?
    /// Overdue time of pictures already presented, beyond the tolerance.
    private var lostMs = 0

    /// A watch that calls the video stalled once a picture is `stallLimitMs` (at least 1) overdue.
    public init(stallLimitMs: Int) { self.stallLimitMs = max(1, stallLimitMs) }

    /// The video opened: pictures come every `frameDuration` seconds unless their timestamps say otherwise.
    public mutating func videoStarted(frameDuration: Double) {
        if frameDuration > 0, let ms = Checked.milliseconds(frameDuration) { frameMs = max(1, ms) }
    }

    /// A new picture (timestamp `pts`) reached the screen at `now`.
    public mutating func presented(pts: Double, now: Int) {
        lostMs += overdueMs(now: now)
        presentedAt = now
        shownPTS = pts
        nextPTS = nil
    }

    /// What the player knows of the next picture: its timestamp once decoded, or that the video
    /// has no more (then nothing is due: the last picture stays, as intended).
    public mutating func upcoming(pts: Double?, drained: Bool) {
        nextPTS = pts
        self.drained = drained
    }

    /// Paused: nothing is due; on resume the picture on screen gets the rest of its time.
    public mutating func pause(now: Int) {
        guard pausedAt == nil else { return }
        lostMs += overdueMs(now: now)
        pausedAt = now
    }

    /// Resumed at `now`: the picture on screen gets the rest of its time from here.
    public mutating func resume(now: Int) {
        guard let since = pausedAt else { return }
        pausedAt = nil
        // Time overdue before the pause was banked by `pause`; the due time starts over from here.
        if let at = presentedAt, let due = dueAt, now > since {
            presentedAt = at + (now - since) + max(0, since - due)
        }
    }

    /// When the next picture is due (process ms); nil while none is expected.
    public var dueAt: Int? {
        guard let at = presentedAt, pausedAt == nil, !drained else { return nil }
        // A file's timestamps may jump anywhere: a gap past a day is a day.
        let gap = nextPTS.map { Checked.int((($0 - shownPTS) * 1000).rounded(), clampedTo: 0...86_400_000) } ?? frameMs
        return at + max(0, gap)
    }

    /// How late the next picture is at `now` (0 when it is not due yet or none is expected).
    public func lateMs(now: Int) -> Int { dueAt.map { max(0, now - $0) } ?? 0 }

    /// The screen shows the picture it should (within the tolerance).
    public func isOnSchedule(now: Int) -> Bool { lateMs(now: now) <= PresentationWatch.toleranceMs }

    /// The next picture is later than the stall limit.
    public func isStalled(now: Int) -> Bool { lateMs(now: now) >= stallLimitMs }

    /// Time a picture was overdue beyond the tolerance, so far: a frozen picture is not shown time.
    public func notShownMs(now: Int) -> Int { lostMs + overdueMs(now: now) }

    private func overdueMs(now: Int) -> Int { max(0, lateMs(now: now) - PresentationWatch.toleranceMs) }
}
