import Dispatch
import LaunchAdCore

/// Wakes the application when the ad's next frame is due (a video picture's time, the
/// countdown's next label, a fade's next step): a host that owns its GL loop (GtkGLArea,
/// QOpenGLWidget) renders only when woken, and draws a whole frame each time, so without this it
/// would have to render on a timer of its own. One timer, moved at every turn: a late turn
/// moves it again, so the wakes never pile up.
final class GLWakeTimer {
    private let timer: DispatchSourceTimer
    /// What a firing calls (the player's wake hook); nil once released.
    private let action = Locked<(@Sendable () -> Void)?>(nil)

    init() {
        timer = DispatchSource.makeTimerSource(queue: .global(qos: .userInteractive))
        // Called under the lock, so that once `stop` returns no wake is under way: the
        // application's callback only wakes its loop (launchad.h), it never calls back in.
        timer.setEventHandler { [action] in action.withLock { $0?() } }
        timer.schedule(deadline: .distantFuture)
        timer.resume()
    }

    deinit { timer.cancel() }

    /// Calls `wake` once, `ms` from now (instead of any time asked before).
    func wake(afterMs ms: Int, _ wake: @escaping @Sendable () -> Void) {
        action.withLock { $0 = wake }
        timer.schedule(deadline: .now() + .milliseconds(max(1, ms)), repeating: .never, leeway: .milliseconds(1))
    }

    /// No more wakes (the ad is over, or detached).
    func stop() {
        action.withLock { $0 = nil }
        timer.schedule(deadline: .distantFuture)
    }
}
