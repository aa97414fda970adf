import Foundation

/// How a test waits for something it cannot be told about (a file appearing, a request in a
/// server's log, a lock taken by another process): it looks again every few milliseconds until the
/// thing holds or the deadline passes. A loaded machine only makes the wait longer; the deadline is
/// there so a regression fails instead of hanging. Events of a running launchad are waited on with
/// `LiveRun.waitFor`, which is woken by the event itself.
public enum Wait {
    /// True once `condition` holds; false if `timeout` seconds pass first.
    @discardableResult
    public static func until(timeout: TimeInterval = 10, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() >= deadline { return false }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return true
    }

    /// True once process `pid` has `count` threads (`/proc/PID/task`): for a moment a few
    /// milliseconds wide (the start-up code's handlers set, SDL not up yet), so it looks again
    /// at once, yielding the core, rather than every 10 ms.
    @discardableResult
    public static func forThreads(of pid: Int32, atLeast count: Int, timeout: TimeInterval = 5) -> Bool {
        let tasks = "/proc/\(pid)/task"
        let deadline = Date().addingTimeInterval(timeout)
        while ((try? FileManager.default.contentsOfDirectory(atPath: tasks))?.count ?? 0) < count {
            if Date() >= deadline { return false }
            sched_yield()
        }
        return true
    }

    /// True once `path` exists.
    @discardableResult
    public static func forFile(_ path: String, timeout: TimeInterval = 10) -> Bool {
        until(timeout: timeout) { FileManager.default.fileExists(atPath: path) }
    }
}

extension Wait {
    /// True once a window manager has taken over X display `display`: it names its check window
    /// on the root (`_NET_SUPPORTING_WM_CHECK`) when it manages the screen.
    @discardableResult
    public static func forWindowManager(display: String, timeout: TimeInterval = 30) -> Bool {
        until(timeout: timeout) { xprop(display, ["-root", "_NET_SUPPORTING_WM_CHECK"])?.stdout.contains("window id #") == true }
    }

    /// What xprop says of a root window property (or why it could not), for a failure's message.
    public static func rootProperty(display: String, _ name: String) -> String {
        guard let r = xprop(display, ["-root", name]) else { return "xprop did not run" }
        return "status \(r.status): \(r.stdout.prefix(200))\(r.stderr.prefix(200))"
    }

    /// xprop comes with x11-utils, which chromium (a test package) depends on.
    private static func xprop(_ display: String, _ args: [String]) -> Fixtures.Result? {
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = display
        return try? Fixtures.run("/usr/bin/xprop", args, environment: env)
    }
}
