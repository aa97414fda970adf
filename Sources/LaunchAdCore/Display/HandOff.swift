/// The hand-off from the ad to the `--then` app: the ad's last picture stays on screen until
/// the app's first top-level window is mapped (on X11, a window whose `_NET_WM_PID` is in the
/// app's process tree, or, for an app that does not set it (Tk, xmessage, plain Xt), a window
/// naming no owner that was not there when the app started), or for `--hold` seconds where that
/// cannot be seen; never past the app's exit.
public enum HandOff {
    /// Why the hold ended; the raw value is what events report.
    public enum Ending: String, Equatable, Sendable {
        /// A window of the app's process tree is mapped: the app is on screen.
        case appWindow = "app_window"
        /// Windows were watched, none of the app's came within `--hold`.
        case holdExpired = "hold_expired"
        /// Windows cannot be watched here (not X11): `--hold` seconds, then close.
        case hold
        /// The app ended before showing a window.
        case appExited = "app_exited"
    }

    /// A top-level window as the display lists it.
    public struct Window: Equatable, Sendable {
        /// The process that owns the window (`_NET_WM_PID`), when it says.
        public var pid: Int32?
        /// Whether the window is mapped and viewable.
        public var viewable: Bool
        /// The X window's id (the client's, or its frame's when the client is not listed).
        public var id: UInt32
        /// A window owned by `pid`, viewable or not.
        public init(pid: Int32?, viewable: Bool, id: UInt32 = 0) { self.pid = pid; self.viewable = viewable; self.id = id }
    }

    /// How long the ad's picture stays behind the app's newly mapped window: time for the app
    /// to paint its first frame (and a window manager to place it) before the picture goes.
    public static let settleMs = 150

    /// Whether to stop holding now, and why. `appWindowAt` is when the app's window was first
    /// seen mapped (nil: not yet); `watching` is false where windows cannot be seen.
    public static func ending(elapsedMs: Int, holdMs: Int, appWindowAt: Int?, watching: Bool, appExited: Bool) -> Ending? {
        if let at = appWindowAt, elapsedMs - at >= settleMs { return .appWindow }
        if appWindowAt != nil { return nil }
        if appExited { return .appExited }
        guard elapsedMs >= holdMs else { return nil }
        return watching ? .holdExpired : .hold
    }

    /// Whether a viewable top-level window belongs to `appPID`'s process tree. With `before`
    /// (the windows there before the app started), a new viewable window that names no owning
    /// process counts too: an app without `_NET_WM_PID` would otherwise wait the whole hold. A
    /// window another process names as its own never counts.
    public static func appWindowShown(appPID: Int32, parents: [Int32: Int32], windows: [Window], before: Set<UInt32>? = nil) -> Bool {
        let tree = descendants(of: appPID, parents: parents)
        return windows.contains { w in
            guard w.viewable else { return false }
            guard let pid = w.pid else { return before.map { !$0.contains(w.id) } ?? false }
            return tree.contains(pid)
        }
    }

    /// `root` and every process below it, from each process's parent.
    public static func descendants(of root: Int32, parents: [Int32: Int32]) -> Set<Int32> {
        var children: [Int32: [Int32]] = [:]
        for (pid, parent) in parents { children[parent, default: []].append(pid) }
        var tree: Set<Int32> = [root]
        var queue = [root]
        while let pid = queue.popLast() {
            for child in children[pid] ?? [] where tree.insert(child).inserted { queue.append(child) }
        }
        return tree
    }
}
