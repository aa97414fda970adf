import CSDL2
import Dispatch
import Glibc
import LaunchAdCore

/// SDL turns SIGINT and SIGTERM into SDL_QUIT; a closed terminal or session (SIGHUP) must end
/// the ad the same way, with its `end` event, instead of killing the process. Left alone when
/// SIGHUP was already ignored (under nohup), and when a handler is already there: the
/// executable's start-up code notes it, the window loop takes it as SDL's quit, and the waits
/// after the ad end on it (a source of our own here reset it to the default as the ad ended,
/// which killed `play` during `--beacon-wait`, and could swallow a hangup that came as it was
/// cancelled). Otherwise (LaunchAd embedded, no start-up code) a source pushes SDL_QUIT.
final class HangupSignal {
    private let source: DispatchSourceSignal?
    private let previous: __sighandler_t?

    init() {
        previous = signal(SIGHUP, SIG_IGN)
        let was = unsafeBitCast(previous, to: Int.self)
        guard was == unsafeBitCast(SIG_DFL, to: Int.self) else {
            signal(SIGHUP, previous)
            source = nil
            return
        }
        let s = DispatchSource.makeSignalSource(signal: SIGHUP, queue: .global())
        s.setEventHandler {
            QuitSignal.note(SIGHUP)
            var quit = SDL_Event()
            quit.type = SDL_QUIT.rawValue
            _ = libsdl.SDL_PushEvent(&quit)
        }
        s.resume()
        source = s
    }

    deinit {
        guard let source else { return }
        source.cancel()
        signal(SIGHUP, previous)
    }
}
