import Foundation

/// Milliseconds since this process started, the time base of every event's `t_ms`.
/// The start is read from /proc/self/stat (so it includes loading and linking), else the first call.
public enum ProcessClock {
    private static let startUptime: Double = {
        if let start = processStartUptime() { return start }
        return uptimeSeconds()
    }()

    /// Milliseconds since this process started, rounded.
    public static func nowMs() -> Int {
        Int(((uptimeSeconds() - startUptime) * 1000).rounded())
    }

    /// Monotonic seconds (CLOCK_BOOTTIME, the clock /proc/self/stat's start time is counted in).
    public static func uptimeSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_BOOTTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    static func processStartUptime() -> Double? { startUptime(ofProcess: nil) }

    /// When process `pid` (nil: this one) started, in `uptimeSeconds()`: the zero of its `t_ms`.
    public static func startUptime(ofProcess pid: Int32?) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid.map(String.init) ?? "self")/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        // Fields after the command name: state is field 3, starttime is field 22.
        let rest = stat[stat.index(after: close)...].split(separator: " ")
        guard rest.count > 19, let ticks = Double(rest[19]) else { return nil }
        let hz = Double(sysconf(Int32(_SC_CLK_TCK)))
        return hz > 0 ? ticks / hz : nil
    }
}
