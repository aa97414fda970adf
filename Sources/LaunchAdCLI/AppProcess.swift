import Foundation
import LaunchAdCore
import LaunchAdEngine

/// The `--then` application, started as exec would start it: posix_spawnp looks the program up
/// on PATH itself (no `/usr/bin/env` in between, so `A=B` is a program name), in launchad's own
/// process group (it can read the terminal), with default signal handling, only stdin, stdout
/// and stderr inherited and launchad's environment as it was given (ChildEnvironment);
/// launchad waits for exactly that process, so a grandchild left running in the background
/// never holds it up.
final class AppProcess: Sendable {
    let pid: pid_t
    /// Who waits for the app: nobody yet, one thread (in waitpid), or its status once reaped
    /// (then the pid may name another process: no signal goes to it). The run's main thread and
    /// its supervisor may both wait; one reaps, both get the status.
    private enum Waiting { case no, waiting, reaped(Int32) }
    private let waiting = Locked(Waiting.no)

    private init(pid: pid_t) { self.pid = pid }

    /// Starts `command[0]` with the rest as its arguments; throws the one-line reason it could not.
    static func spawn(_ command: [String]) throws -> AppProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let closeFrom = addCloseFrom {
            _ = closeFrom(&actions, 3)
        } else {
            markInheritedDescriptorsCloseOnExec()
        }
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        // Signals launchad ignores or forwards are the app's own again; nothing stays blocked.
        var defaults = sigset_t(), empty = sigset_t()
        sigemptyset(&defaults)
        sigemptyset(&empty)
        for sig in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGQUIT] { sigaddset(&defaults, sig) }
        posix_spawnattr_setsigdefault(&attr, &defaults)
        posix_spawnattr_setsigmask(&attr, &empty)
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        var argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var pid: pid_t = 0
        let err = ChildEnvironment.withCArray { posix_spawnp(&pid, command[0], &actions, &attr, &argv, $0) }
        guard err == 0 else { throw AppError("cannot start \(command[0]): \(String(cString: strerror(err)))") }
        return AppProcess(pid: pid)
    }

    /// glibc 2.34's posix_spawn_file_actions_addclosefrom_np, which Swift's Glibc module does not
    /// declare (it is behind _GNU_SOURCE).
    private static let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    /// Without closefrom: every descriptor above stderr is marked close-on-exec.
    private static func markInheritedDescriptorsCloseOnExec() {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
            guard let fd = Int32(name), fd > 2 else { continue }
            let flags = fcntl(fd, F_GETFD)
            if flags >= 0 { _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC) }
        }
    }

    /// Passes a signal on, unless the app has already been waited for (its pid may be reused).
    func signal(_ sig: Int32) {
        waiting.withLock { w in
            if case .reaped = w { return }
            kill(pid, sig)
        }
    }

    /// Waits for the app; its exit status, or 128+N when signal N ended it (as a shell says).
    /// Any number of threads may wait: the first reaps it, the others get the same status.
    func wait() -> Int32 {
        // The first waiter takes the waitpid; the others wait for its status.
        let reaps = waiting.wait(
            until: { if case .waiting = $0 { return false } else { return true } },
            then: { w, _ -> Bool in
                guard case .no = w else { return false }
                w = .waiting
                return true
            })
        if !reaps {
            return waiting.wait(
                until: { if case .reaped = $0 { return true } else { return false } },
                then: { w, _ in
                    if case .reaped(let status) = w { return status }
                    return 127
                })
        }
        var status: Int32 = 0
        var result: Int32 = 127
        while true {
            if waitpid(pid, &status, 0) >= 0 {
                let signal = status & 0x7f
                result = signal == 0 ? (status >> 8) & 0xff : 128 + signal
                break
            }
            guard errno == EINTR else { break }
        }
        waiting.change { $0 = .reaped(result) }
        return result
    }
}

/// The `--then` app of one run, started once by whoever gets there first: the run's main thread
/// after the ad, or its supervisor when the ad's thread is stuck.
final class AppLaunch: Sendable {
    let command: [String]
    private let state = Locked<(tried: Bool, app: AppProcess?)>((false, nil))

    init(_ command: [String]) { self.command = command }

    /// The app, started now by `start` unless it was already (nil: it could not be started).
    func start(_ start: () -> AppProcess?) -> AppProcess? {
        state.withLock { s in
            if !s.tried {
                s.tried = true
                s.app = start()
            }
            return s.app
        }
    }

    /// The app once started (nil: not yet, or it could not be).
    var started: AppProcess? { state.withLock { $0.app } }
}

struct AppError: Error, CustomStringConvertible {
    let description: String
    init(_ message: String) { description = message }
}
