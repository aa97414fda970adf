import Foundation
import LaunchAdCore

/// Opens a click-through link in the desktop's browser with xdg-open, without waiting for it;
/// a missing or failing xdg-open (a non-zero status, as `xdg-open` exits 4 when no browser
/// starts) is reported.
enum LinkOpener {
    /// Starts xdg-open on `link`; `done` is called once, from any thread, with nil when it
    /// exited 0 and the reason otherwise.
    static func start(_ link: String, done: @escaping @Sendable (String?) -> Void) {
        guard Link.isAllowed(link) else { return done("the link is not an http(s) URL") }
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        guard let exe = path.map({ "\($0)/xdg-open" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            return done("xdg-open is not installed (Debian package xdg-utils)")
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = [link]
        p.environment = ChildEnvironment.variables
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        p.terminationHandler = { p in
            guard p.terminationReason == .exit else { return done("xdg-open was ended by signal \(p.terminationStatus)") }
            done(p.terminationStatus == 0 ? nil : "xdg-open exited with status \(p.terminationStatus)")
        }
        do { try p.run() } catch { done("cannot start xdg-open: \(error)") }
    }

    /// Starts xdg-open on `link` while the ad goes on (a VAST icon's click): a failure is an event.
    static func open(_ link: String, events: EventSink) {
        guard Link.isAllowed(link) else { return }
        start(link) { failure in
            if let failure { events.emit(.linkOpenFailed(link: link, message: failure)) }
        }
    }
}

/// The ad's clicked link being opened: the opener's verdict, taken by the player's loop while
/// the session waits for it. A verdict that comes after the session stopped waiting (its
/// `end` written) is emitted on its own, and the end gate puts it on stderr.
final class LinkWait: Sendable {
    private enum State {
        case idle
        case waiting(link: String)
        case done(failure: String?)
    }
    private let state = Locked(State.idle)

    /// Starts the opener for `link`, reporting late failures to `events`; `wake` makes the loop turn.
    func open(_ link: String, events: EventSink, wake: @escaping @Sendable () -> Void) {
        state.withLock { $0 = .waiting(link: link) }
        LinkOpener.start(link) { [state] failure in
            let late = state.withLock { s -> Bool in
                guard case .waiting = s else { return true }
                s = .done(failure: failure)
                return false
            }
            if late, let failure { events.emit(.linkOpenFailed(link: link, message: failure)) }
            wake()
        }
    }

    /// The verdict, once, when the opener is done: `.some(nil)` for a link opened.
    func take() -> String?? {
        state.withLock { s -> String?? in
            guard case .done(let failure) = s else { return nil }
            s = .idle
            return .some(failure)
        }
    }

    /// The session no longer waits (the ad ended): a verdict from now on is late.
    func stopWaiting() { state.withLock { $0 = .idle } }
}
