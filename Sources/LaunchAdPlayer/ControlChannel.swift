import CSDL2
import Foundation
import LaunchAdCore

/// Reads control lines from stdin on its own thread and hands them to the main loop,
/// waking it with an SDL user event.
final class ControlChannel: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    func start() {
        let t = Thread { [self] in
            while let line = readLine(strippingNewline: true) {
                lock.lock(); lines.append(line); lock.unlock()
                var e = SDL_Event()
                e.type = SDL_USEREVENT.rawValue
                SDL_PushEvent(&e)
            }
        }
        t.name = "launchad-control"
        t.start()
    }

    /// The lines received since the last call.
    func take() -> [String] {
        lock.lock(); defer { lock.unlock() }
        let out = lines
        lines.removeAll()
        return out
    }
}
