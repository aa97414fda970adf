import CSDL2
import Foundation
import LaunchAdCore

/// Reads control lines from stdin on its own thread and hands them to the main loop, waking it
/// with an SDL user event. It reads with poll(2) and read(2), unbuffered, one line at a time: after
/// each line it waits until the main loop has acted on it and says the ad goes on (`proceed`),
/// so a line that ends the ad is the last byte taken and what the host writes afterwards is left
/// for the application `launch --then` starts.
// @unchecked Sendable: every field is guarded by `lock`.
final class ControlChannel: @unchecked Sendable {
    private let lock = NSCondition()
    private var lines: [String] = []
    private var stopped = false
    /// A line was delivered and the main loop has not yet said to read on.
    private var awaiting = false

    func start() {
        let t = Thread { [self] in
            var pending = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 1)
            while !isStopped {
                var fds = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
                let ready = poll(&fds, 1, 100)
                if ready < 0 && errno != EINTR { return }
                guard ready > 0 else { continue }
                // One byte at a time: never take bytes past the current line from the pipe.
                let n = read(0, &buffer, 1)
                if n <= 0 { return } // end of input or error: the host has gone
                if buffer[0] == 0x0A {
                    deliver(String(decoding: pending, as: UTF8.self))
                    pending.removeAll()
                    guard waitUntilActedOn() else { return }
                } else if pending.count < 4096 {
                    pending.append(buffer[0])
                }
            }
        }
        t.name = "launchad-control"
        t.start()
    }

    func stop() { lock.lock(); stopped = true; lock.broadcast(); lock.unlock() }

    /// The main loop acted on the lines it took and the ad goes on: read the next line.
    func proceed() { lock.lock(); awaiting = false; lock.broadcast(); lock.unlock() }

    /// False once stopped.
    private func waitUntilActedOn() -> Bool {
        lock.lock(); defer { lock.unlock() }
        while awaiting && !stopped { lock.wait() }
        return !stopped
    }

    private var isStopped: Bool { lock.lock(); defer { lock.unlock() }; return stopped }

    private func deliver(_ line: String) {
        lock.lock(); lines.append(line); awaiting = true; lock.unlock()
        var e = SDL_Event()
        e.type = SDL_USEREVENT.rawValue
        SDL_PushEvent(&e)
    }

    /// The lines received since the last call.
    func take() -> [String] {
        lock.lock(); defer { lock.unlock() }
        let out = lines
        lines.removeAll()
        return out
    }
}
