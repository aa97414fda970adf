import CSDL2
import Dispatch
import Glibc

/// SDL turns SIGINT and SIGTERM into SDL_QUIT; a closed terminal or session (SIGHUP) must end
/// the ad the same way, with its `end` event, instead of killing the process. Left alone when
/// SIGHUP was already ignored (under nohup).
final class HangupSignal {
    private let source: DispatchSourceSignal?

    init() {
        let previous = signal(SIGHUP, SIG_IGN)
        guard unsafeBitCast(previous, to: Int.self) != unsafeBitCast(SIG_IGN, to: Int.self) else { source = nil; return }
        let s = DispatchSource.makeSignalSource(signal: SIGHUP, queue: .global())
        s.setEventHandler {
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
        signal(SIGHUP, SIG_DFL)
    }
}
