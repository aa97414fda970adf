import Foundation
import LaunchAdCore

/// The hand-off to the `--then` app (`HandOffScreen`), then the window closes.
extension AdPlayer {
    /// Holds the ad's last picture until the app's window is there (or the hold runs out, or the
    /// app ends); nil when there was no picture to hold. The window is closed either way.
    /// `windowsBefore`: ``windowsNow()`` taken before the app started. `stopWhen` (asked at every
    /// redraw) true lets the picture go at once (the run was ended without this thread).
    public func handOff(
        appPID: Int32, holdSeconds: Double, windowsBefore: Set<UInt32>? = nil, stopWhen: @escaping () -> Bool = { false }
    ) -> (ending: HandOff.Ending, waitedMs: Int)? {
        defer {
            tearDown()
            pulse?.playerReturned()
        }
        return HandOffScreen(player: self, stopWhen: stopWhen).run(appPID: appPID, holdSeconds: holdSeconds, before: windowsBefore)
    }

    /// The X11 top-level windows there now (nil where windows cannot be watched): taken just
    /// before the app starts, so that a new window naming no owner can be taken for the app's.
    public func windowsNow() -> Set<UInt32>? {
        guard let output, output.kind == .ownWindow, output.videoDriver == "x11", let x = X11Windows() else { return nil }
        return Set(x.topLevel().map(\.id))
    }

    /// Closes a held window without a hand-off (the app could not be started).
    public func close() { tearDown() }
}

/// Processes as /proc lists them: each one's parent, and whether one has ended (gone, or a
/// zombie not yet waited for: its window cannot come any more).
enum ProcessTable {
    static func parents() -> [Int32: Int32] {
        var out: [Int32: Int32] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(name), let (_, parent) = stat(pid) else { continue }
            out[pid] = parent
        }
        return out
    }

    static func hasEnded(_ pid: Int32) -> Bool {
        guard let (state, _) = stat(pid) else { return true }
        return state == "Z" || state == "X"
    }

    /// State and parent from `/proc/PID/stat` ("pid (comm) S ppid ..."; comm may hold spaces and parentheses).
    private static func stat(_ pid: Int32) -> (Character, Int32)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count >= 2, let state = fields[0].first, let parent = Int32(fields[1]) else { return nil }
        return (state, parent)
    }
}
