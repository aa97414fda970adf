/// SIGTERM and SIGINT noted by the launchad executable's start-up code, before SDL could turn
/// them into its quit event: the player asks at every loop turn and ends the ad as it would
/// for SDL's quit. The first one stays noted for the rest of the run (`requested`): the waits
/// after the ad (the beacon wait, the refresh, a VAST tag's fetch) end on it instead of holding
/// a stopping service, and `launch` passes it on to the app it starts. Without a reader (the
/// player used as a library, or in tests) SDL's own handling is all there is.
public enum QuitSignal {
    private static let readers = Locked<(take: @Sendable () -> Int32, first: @Sendable () -> Int32)?>(nil)
    private static let caught = Locked<Int32?>(nil)

    /// Where noted signals are read from: `take` clears what it returns, `first` never does.
    /// The executable installs them before anything runs.
    public static func install(take: @escaping @Sendable () -> Int32, first: @escaping @Sendable () -> Int32) {
        readers.withLock { $0 = (take, first) }
    }

    /// The signal noted since the last call, if any.
    public static func take() -> Int32? {
        guard let read = readers.withLock({ $0?.take }) else { return nil }
        let sig = read()
        return sig == 0 ? nil : sig
    }

    /// Notes a quit signal that Swift code caught itself (`launch`'s forwarder, once its
    /// handlers replace the start-up code's).
    public static func note(_ sig: Int32) { caught.withLock { if $0 == nil { $0 = sig } } }

    /// The first quit signal of the run, taken by the player or not; nil while none came.
    public static var requested: Int32? {
        let first = readers.withLock { $0?.first }?() ?? 0
        return first != 0 ? first : caught.withLock { $0 }
    }

    /// Whether a quit signal came: the test a wait after the ad polls.
    public static var isRequested: Bool { requested != nil }
}
