import Foundation
import LaunchAdCore
import LaunchAdEngine

/// A one-line progress bar redrawn in place on a terminal (`\r`), for any long job with a known
/// total: downloads (bytes) or files checked (a count). Safe to update from any thread; redraws
/// at most ten times a second.
public final class ProgressBar: Sendable {
    /// `percent`: the bar and its per cent only (the label says the rest).
    public enum Unit: Sendable { case bytes, count, percent }

    private let output: FileHandle
    private let unit: Unit
    private let width: Int
    /// The total, the last redraw's time and whether a line is on screen; writes happen under it too.
    private let state: Locked<(total: Int64, lastDraw: Double, drawn: Bool)>

    public init(total: Int64, unit: Unit = .count, output: FileHandle = .standardError, width: Int = 28) {
        state = Locked((total, 0, false)); self.unit = unit; self.output = output; self.width = width
    }

    /// True when the file descriptor is a terminal (no bars in logs or pipes).
    public static func isTerminal(_ fd: Int32 = STDERR_FILENO) -> Bool { isatty(fd) == 1 }

    public func update(_ done: Int64, total newTotal: Int64? = nil, label: String) {
        state.withLock { s in
            if let newTotal { s.total = newTotal }
            let now = ProcessClock.uptimeSeconds()
            guard now - s.lastDraw >= 0.1 || done >= s.total else { return }
            s.lastDraw = now
            s.drawn = true
            output.write(Data(("\r\u{1B}[2K" + ProgressBar.line(done: done, total: s.total, label: label, unit: unit, width: width)).utf8))
        }
    }

    /// Ends the line so later output starts clean.
    public func finish() {
        state.withLock { s in
            if s.drawn { output.write(Data("\n".utf8)); s.drawn = false }
        }
    }

    /// "label  [#########-----------]  45%  1.2/2.7 MB"
    public static func line(done: Int64, total: Int64, label: String, unit: Unit, width: Int) -> String {
        let fraction = total > 0 ? min(1, max(0, Double(done) / Double(total))) : 1
        let filled = Int((fraction * Double(width)).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let amount: String
        switch unit {
        case .count: amount = "\(done)/\(total)"
        case .bytes: amount = String(format: "%.1f/%.1f MB", Double(done) / 1e6, Double(total) / 1e6)
        case .percent: amount = ""
        }
        return "\(TerminalText.escaped(String(label.prefix(24))))  [\(bar)] \(String(format: "%3d", Int(fraction * 100)))%"
            + (amount.isEmpty ? "" : "  \(amount)")
    }
}
