import LaunchAdCore

/// Where the player's thread says it is alive and what it is about to do, for a supervisor on
/// another thread that owns the run's deadlines (LaunchAdEngine's `RunSupervisor`; the decision
/// is LaunchAdCore's `RunDeadline`). The window loop beats at every turn and before each step
/// that may block (SDL's video and sound, the window); a player without a pulse is watched by
/// nobody (an application's loop drives it).
public protocol PlayerPulse: AnyObject, Sendable {
    /// The player's loop starts; its first frame is due within `firstFrameWithinMs`.
    func playerStarted(firstFrameWithinMs: Int)
    /// The thread is alive and about to do `step`; `waitPaused`: the wait for the first frame is paused.
    func beat(_ step: RunDeadline.Step, waitPaused: Bool)
    /// The first frame (of the ad or its fallback) is on screen.
    func firstFrameShown()
    /// The thread is done with the player (its loop returned, or the hand-off ended).
    func playerReturned()
    /// What another thread can do to end the ad while this one is stuck: stop its media (the
    /// sound stops) and take its window off the screen. Replaced as the player gets more.
    func stoppable(by stop: @escaping @Sendable () -> Void)
}

extension PlayerPulse {
    func beat(_ step: RunDeadline.Step) { beat(step, waitPaused: false) }
}
