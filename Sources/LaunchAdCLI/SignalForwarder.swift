import Dispatch
import Foundation
import LaunchAdCore
import LaunchAdEngine

/// Passes SIGTERM, SIGINT and SIGHUP sent to the launcher on to the `--then` app, which decides
/// how to end (and its status is the launcher's). It is set up before the app is started: a
/// signal sent as soon as the app is there (a service manager stopping both at once) must reach
/// the app, not end the launcher in the moment between the app's start and the handlers'.
/// A signal that comes before the app is known is held and passed on once it is.
final class SignalForwarder {
    static let signals = [SIGTERM, SIGINT, SIGHUP]
    private let state = Locked<(app: AppProcess?, held: [Int32])>((nil, []))
    // Kept so the sources live on; each handler runs on Dispatch's queue.
    private let sources: [DispatchSourceSignal]

    init() {
        let state = self.state
        sources = Self.signals.map { sig in
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler {
                // The waits after the ad (beacons, the refresh) end on it too.
                QuitSignal.note(sig)
                let app = state.withLock { s -> AppProcess? in
                    if s.app == nil { s.held.append(sig) }
                    return s.app
                }
                app?.signal(sig)
            }
            source.resume()
            return source
        }
    }

    /// From now on signals go to `app`; any held ones go at once, in the order they came.
    func forward(to app: AppProcess) {
        let held = state.withLock { s in
            s.app = app
            defer { s.held = [] }
            return s.held
        }
        for sig in held { app.signal(sig) }
    }

    /// The app could not be started: signals are the launcher's own again, and one that came
    /// meanwhile ends it as it would have.
    func cancel() {
        for source in sources { source.cancel() }
        for sig in Self.signals { signal(sig, SIG_DFL) }
        if let first = state.withLock({ $0.held.first }) { raise(first) }
    }
}
