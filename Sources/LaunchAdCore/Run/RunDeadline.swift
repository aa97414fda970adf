/// The deadlines of one run that must hold whatever the player's thread is doing (stuck in SDL,
/// Xlib, a sound server, a driver, a read): decided here from what that thread last said and
/// when, the clock, and a quit signal; carried out by a supervisor on a thread of its own
/// (LaunchAdEngine's `RunSupervisor`), which the stuck thread cannot hold.
///
/// Three deadlines, the earliest of which wins:
/// - **first frame**: the ad's first frame on screen within its own wait (`--wait`, and for a
///   fallback image the fallback's wait after it) plus `Limits.marginMs`. Before a player has
///   started, the front end's deadline for the whole run applies (`launch`: `--wait` + the
///   margin from its start). Paused time does not count, as for the session's own wait.
/// - **silence**: the player's thread says what it is about to do (`beat`) at every loop turn
///   and before every step that may block; it may be silent at most `Limits.silenceMs`
///   (`--stall-timeout`, at least 2 s), plus the bounded stops while it stops its threads.
/// - **quit**: a SIGTERM, SIGINT or SIGHUP ends the run within `Limits.quitGraceMs`.
///
/// Times are milliseconds on one monotonic clock (the events' `t_ms`).
public struct RunDeadline: Sendable {
    /// What the player's thread was about to do at its last sign of life.
    public enum Step: String, Equatable, Sendable, CaseIterable {
        case startingVideo = "starting SDL's video"
        case startingSound = "starting SDL's sound"
        case openingWindow = "opening its window"
        case turning = "playing"
        case stopping = "stopping its media threads"
        case handingOff = "holding the last picture for the app"
    }

    /// How long each wait may last.
    public struct Limits: Equatable, Sendable {
        /// The first frame's own wait plus this: the run is over by then if no frame is on screen.
        public var marginMs: Int
        /// The longest the player's thread may go without a sign of life.
        public var silenceMs: Int
        /// A quit signal ends the run within this.
        public var quitGraceMs: Int

        /// The first frame's margin: 2 s.
        public static let defaultMarginMs = 2000
        /// How long a quit signal may go unanswered: 1 s.
        public static let defaultQuitGraceMs = 1000
        /// The least silence allowed, whatever `--stall-timeout` says: opening a window and its
        /// renderer on a loaded machine takes a few hundred milliseconds.
        public static let leastSilenceMs = 2000
        /// What stopping adds to the silence: the engine's threads are waited for at most 1 s
        /// and an image still decoding at most 3 s (both bounded in the player).
        public static let stoppingAllowanceMs = 4000

        /// `stallLimitMs`: `--stall-timeout`.
        public init(stallLimitMs: Int, marginMs: Int = defaultMarginMs, quitGraceMs: Int = defaultQuitGraceMs) {
            self.marginMs = marginMs
            silenceMs = max(stallLimitMs, Self.leastSilenceMs)
            self.quitGraceMs = quitGraceMs
        }

        /// How long `step` may go without a beat.
        public func silenceAllowed(in step: Step) -> Int { step == .stopping ? silenceMs + Self.stoppingAllowanceMs : silenceMs }
    }

    /// Why the supervisor takes the run over.
    public enum Cause: Equatable, Sendable {
        /// No first frame on screen by its deadline (`dueMs`).
        case firstFrameLate(dueMs: Int)
        /// The player's thread said nothing for `forMs`.
        case silent(forMs: Int)
        /// Signal `signal` came and the run did not end within the grace.
        case quit(signal: Int32)
    }

    /// What the supervisor does in the run's name: report `error` (when the takeover decides the
    /// outcome), then `end`; `note` is the one line for a person (stderr).
    public struct Takeover: Equatable, Sendable {
        /// Which deadline passed.
        public let cause: Cause
        /// The player's thread's last step, when it was watched.
        public let step: Step?
        /// The `error` to write before the end (nil: the outcome is not the takeover's).
        public let error: PlayError?
        /// The run's `end`.
        public let end: RunEnd
        /// One line for a person (stderr).
        public let note: String
    }

    /// What the supervisor does now.
    public enum Verdict: Equatable, Sendable {
        /// Nothing yet: look again at `untilMs`, or when told something (nil: no deadline runs).
        case wait(untilMs: Int?)
        case takeOver(Takeover)
        /// The front end finished the run (or a takeover happened): nothing more to watch.
        case finished
    }

    /// The limits in force.
    public let limits: Limits
    /// The run's first-frame deadline before any player started (nil: none).
    private var runDueMs: Int?
    /// The current player's first-frame deadline, while its first frame is not shown.
    private var playerDueMs: Int?
    private var playerStarted = false
    /// The player's thread while watched: its step and last beat.
    private var watched: (step: Step, atMs: Int)?
    /// Since when the player's wait for its first frame has been paused.
    private var pausedSinceMs: Int?
    private var quit: (signal: Int32, atMs: Int)?
    /// The run's end as the front end settled it once the ad was over (`launch`, before the app).
    private var settledEnd: RunEnd?
    /// Whether the front end finished the run.
    public private(set) var isFinished = false
    /// Whether a takeover was decided.
    public private(set) var tookOver = false

    /// A run with nothing to watch yet.
    public init(limits: Limits) { self.limits = limits }

    /// How long a player's first frame may take from its start: its wait, and with a fallback
    /// image the fallback's own wait after that (the session gives it at least a second).
    public static func firstFrameWithinMs(waitMs: Int, hasFallback: Bool) -> Int {
        max(0, waitMs) + (hasFallback ? max(waitMs, AdSession.fallbackMinWaitMs) : 0)
    }

    // MARK: What the run says

    /// The whole run's first frame is due by `dueMs` (before a player reports its own).
    public mutating func firstFrame(dueBy dueMs: Int) { runDueMs = dueMs }

    /// A player starts at `now`; its first frame is due within `withinMs` (plus the margin).
    public mutating func playerStarted(now: Int, firstFrameWithinMs withinMs: Int) {
        playerStarted = true
        playerDueMs = now + withinMs + limits.marginMs
        pausedSinceMs = nil
        watched = (.turning, now)
    }

    /// The player's thread is alive at `now` and about to do `step`; `waitPaused`: its wait for
    /// the first frame is paused (the window lost focus), which stops that deadline as the
    /// session's own wait stops.
    public mutating func beat(_ step: Step, now: Int, waitPaused: Bool = false) {
        watched = (step, now)
        if waitPaused {
            if pausedSinceMs == nil { pausedSinceMs = now }
        } else if let since = pausedSinceMs {
            playerDueMs = playerDueMs.map { $0 + max(0, now - since) }
            pausedSinceMs = nil
        }
    }

    /// The current player's first frame is on screen.
    public mutating func firstFrameShown() {
        playerDueMs = nil
        pausedSinceMs = nil
    }

    /// The player's thread is done with the player: its loop returned (or the hand-off ended).
    public mutating func playerReturned() {
        playerDueMs = nil
        pausedSinceMs = nil
        watched = nil
    }

    /// The ad is over and the front end settled the run's end (what a takeover then writes).
    public mutating func settle(_ end: RunEnd) { settledEnd = end }

    /// The first quit signal, at `now`.
    public mutating func quitRequested(signal: Int32, now: Int) {
        if quit == nil { quit = (signal, now) }
    }

    /// The front end ends the run itself; false when the supervisor took it over first.
    public mutating func finish() -> Bool {
        guard !tookOver else { return false }
        isFinished = true
        return true
    }

    // MARK: The decision

    /// The first-frame deadline in force (nil: none).
    var firstFrameDueMs: Int? {
        if pausedSinceMs != nil { return nil }
        return playerStarted ? playerDueMs : runDueMs
    }

    /// What to do at `now`; a takeover is decided once (the state remembers it).
    public mutating func verdict(now: Int) -> Verdict {
        if isFinished || tookOver { return .finished }
        var due: [(ms: Int, cause: Cause)] = []
        if let ms = firstFrameDueMs { due.append((ms, .firstFrameLate(dueMs: ms))) }
        if let w = watched { due.append((w.atMs + limits.silenceAllowed(in: w.step), .silent(forMs: now - w.atMs))) }
        if let q = quit { due.append((q.atMs + limits.quitGraceMs, .quit(signal: q.signal))) }
        guard let first = due.min(by: { $0.ms < $1.ms }) else { return .wait(untilMs: nil) }
        guard now >= first.ms else { return .wait(untilMs: first.ms) }
        tookOver = true
        return .takeOver(takeover(first.cause, now: now))
    }

    private func takeover(_ cause: Cause, now: Int) -> Takeover {
        let step = watched?.step
        let whereStuck = step.map { " (its last step: \($0.rawValue))" } ?? ""
        let silence = watched.map { " and silent for \(now - $0.atMs) ms" } ?? ""
        let why: String
        switch cause {
        case .firstFrameLate(let dueMs):
            why = "no first frame on screen \(dueMs) ms into the run\(silence)\(whereStuck)"
        case .silent(let ms):
            why = "the player's thread has been silent for \(ms) ms\(whereStuck)"
        case .quit(let signal):
            why = "signal \(signal) was not answered within \(limits.quitGraceMs) ms\(whereStuck)"
        }
        // The ad is over: the run's end is what it was; only the thread after it is stuck.
        if let settledEnd {
            return Takeover(cause: cause, step: step, error: nil, end: settledEnd, note: "\(why); the run ends without it")
        }
        if case .quit = cause {
            // As a quit ends an ad whose thread answers: skipped, by the signal.
            return Takeover(cause: cause, step: step, error: nil, end: RunEnd(outcome: .skipped), note: "\(why); the run ends without it")
        }
        let code: FailureCode = step == .openingWindow ? .windowUnavailable : .playerStuck
        let message =
            code == .windowUnavailable
            ? "the window could not be opened and shown in time: \(why)" : "the player stopped answering: \(why)"
        return Takeover(
            cause: cause, step: step, error: PlayError(code, message), end: RunEnd(outcome: .error),
            note: "\(message); the run ends without it")
    }

    // MARK: The window's map

    /// How long SDL may wait for the window manager to map a new window before the wait is
    /// ended for it (SDL 2.26 waits for the MapNotify without a limit).
    public static let mapWaitMs = 1000

    /// Whether an ad whose window is still not on screen gives up at `now`: its wait
    /// (`waitMs` from `waitStartedMs`, the player's start) is over.
    public static func windowGivenUp(now: Int, waitStartedMs: Int, waitMs: Int) -> Bool { now - waitStartedMs >= waitMs }
}
