import CSDL2
import Dispatch
import Glibc
import LaunchAdCore

/// SDL turns SIGINT and SIGTERM into SDL_QUIT; a closed terminal or session (SIGHUP) must end
/// the ad the same way, with its `end` event, instead of killing the process. Left alone when
/// SIGHUP was already ignored (under nohup). The hangup is noted as a quit signal, so the waits
/// after the ad end on it too, and the handler that was there before (the start-up code's, which
/// notes it) is put back at the end: resetting it to the default killed `play` when a hangup came
/// during `--beacon-wait`, after its `end`.
final class HangupSignal {
    private let source: DispatchSourceSignal?
    private let previous: __sighandler_t?

    init() {
        previous = signal(SIGHUP, SIG_IGN)
        guard unsafeBitCast(previous, to: Int.self) != unsafeBitCast(SIG_IGN, to: Int.self) else { source = nil; return }
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
