import Foundation
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdEngine

/// SIGTERM, SIGINT and SIGHUP noted by the launchad executable's start-up code (SDL is told to
/// install no handler of its own). The player asks at every loop turn (`take`) and ends the ad
/// as it would for SDL's quit; the first one stays noted for the rest of the run (`requested`)
/// and `launch` passes it on to the app it starts. A thread of its own reads the start-up code's
/// pipe, so the run's cancellation (the waits after the ad, a slow tag's fetch) and whoever else
/// listens hear of it at once, whatever the player's thread is doing.
public enum QuitSignal {
    private static let readers = Locked<(take: @Sendable () -> Int32, first: @Sendable () -> Int32)?>(nil)
    private static let caught = Locked<Int32?>(nil)
    private static let listeners = Locked<[@Sendable (Int32) -> Void]>([])

    /// Where noted signals are read from: `take` clears what it returns, `first` never does;
    /// `fd` gets a byte per signal (-1: none). The executable installs them before anything runs.
    public static func install(take: @escaping @Sendable () -> Int32, first: @escaping @Sendable () -> Int32, fd: Int32) {
        readers.withLock { $0 = (take, first) }
        guard fd >= 0 else { return }
        let thread = Thread {
            var byte: UInt8 = 0
            while true {
                let n = read(fd, &byte, 1)
                if n == 1 { heard(Int32(byte)) } else if n < 0 && errno == EINTR { continue } else { return }
            }
        }
        thread.name = "launchad-signals"
        thread.start()
    }

    /// The signal noted since the last call, if any.
    public static func take() -> Int32? {
        guard let read = readers.withLock({ $0?.take }) else { return nil }
        let sig = read()
        return sig == 0 ? nil : sig
    }

    /// Notes a quit signal that Swift code caught itself (`launch`'s forwarder, once its
    /// handlers replace the start-up code's).
    public static func note(_ sig: Int32) {
        caught.withLock { if $0 == nil { $0 = sig } }
        heard(sig)
    }

    /// The first quit signal of the run, taken by the player or not; nil while none came.
    public static var requested: Int32? {
        let first = readers.withLock { $0?.first }?() ?? 0
        return first != 0 ? first : caught.withLock { $0 }
    }

    /// Whether a quit signal came.
    public static var isRequested: Bool { requested != nil }

    /// Calls `listener` (on the signal thread) for every quit signal from now on, and at once if
    /// one came already.
    public static func listen(_ listener: @escaping @Sendable (Int32) -> Void) {
        listeners.withLock { $0.append(listener) }
        if let sig = requested { listener(sig) }
    }

    /// `cancellation` is cancelled by the first quit signal (or now, if one came).
    public static func cancels(_ cancellation: Cancellation) { listen { _ in cancellation.cancel() } }

    private static func heard(_ sig: Int32) {
        for listener in listeners.withLock({ $0 }) { listener(sig) }
    }
}
