import CSDL2
import Foundation
import LaunchAdCore

/// Reads control lines from stdin on its own thread and hands them to the main loop, waking it
/// with an SDL user event. It waits in poll(2) on stdin and on a pipe that `stop` writes to (no
/// timed re-checks), and reads with read(2), unbuffered, one line at a time: after
/// each line it waits until the main loop has acted on it and says the ad goes on (`proceed`),
/// so a line that ends the ad is the last byte taken and what the host writes afterwards is left
/// for the application `launch --then` starts.
final class ControlChannel: Sendable {
    private struct State {
        var lines: [String] = []
        var stopped = false
        /// A line was delivered and the main loop has not yet said to read on.
        var awaiting = false
    }
    private let state = Locked(State())
    /// Written by `stop`, so the reader leaves its wait on stdin at once; owned and closed here.
    private let wake: (read: Int32, write: Int32)

    init() {
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC); _ = fcntl(fd, F_SETFL, O_NONBLOCK) }
        } else {
            fds = [-1, -1]
        }
        wake = (fds[0], fds[1])
    }

    func start() {
        let t = Thread { [self] in
            var pending = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 1)
            while !isStopped {
                var fds = [
                    pollfd(fd: 0, events: Int16(POLLIN), revents: 0),
                    pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)
                ]
                // Without a pipe (none could be made) stop is still seen within 100 ms.
                let ready = poll(&fds, wake.read >= 0 ? 2 : 1, wake.read >= 0 ? -1 : 100)
                if ready < 0 && errno != EINTR { return }
                guard ready > 0, fds[0].revents != 0 else { continue }
                // One byte at a time: never take bytes past the current line from the pipe.
                let n = read(0, &buffer, 1)
                if n <= 0 { return }  // end of input or error: the host has gone
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

    func stop() {
        state.change { $0.stopped = true }
        var byte: UInt8 = 1
        if wake.write >= 0 { _ = write(wake.write, &byte, 1) }
    }

    deinit { if wake.read >= 0 { close(wake.read); close(wake.write) } }

    /// The main loop acted on the lines it took and the ad goes on: read the next line.
    func proceed() { state.change { $0.awaiting = false } }

    /// False once stopped.
    private func waitUntilActedOn() -> Bool {
        state.wait(until: { !$0.awaiting || $0.stopped }, then: { s, _ in !s.stopped })
    }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    private func deliver(_ line: String) {
        state.withLock {
            $0.lines.append(line)
            $0.awaiting = true
        }
        LoopWake.post()
    }

    /// The lines received since the last call.
    func take() -> [String] {
        state.withLock {
            let out = $0.lines
            $0.lines.removeAll()
            return out
        }
    }
}
