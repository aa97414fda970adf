/// SIGTERM and SIGINT noted by the launchad executable's start-up code, before SDL could turn
/// them into its quit event: the player asks at every loop turn and ends the ad as it would
/// for SDL's quit. Without a reader (the player used as a library, or in tests) SDL's own
/// handling is all there is.
public enum QuitSignal {
    private static let reader = Locked<(@Sendable () -> Int32)?>(nil)

    /// Where noted signals are read from; the executable installs it before anything runs.
    public static func install(_ read: @escaping @Sendable () -> Int32) { reader.withLock { $0 = read } }

    /// The signal noted since the last call, if any.
    public static func take() -> Int32? {
        guard let read = reader.withLock({ $0 }) else { return nil }
        let sig = read()
        return sig == 0 ? nil : sig
    }
}
