import Foundation

/// A one-line progress bar on stderr, redrawn in place; only when stderr is a terminal.
final class ValidateProgress {
    private var lastDrawn = -1

    static func onTerminal() -> ValidateProgress? { isatty(STDERR_FILENO) == 1 ? ValidateProgress() : nil }

    func show(_ label: String, _ fraction: Double) {
        let percent = Int((fraction * 100).rounded(.down))
        guard percent != lastDrawn else { return }
        lastDrawn = percent
        let width = 30
        let filled = width * percent / 100
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        FileHandle.standardError.write(Data("\r[\(bar)] \(String(format: "%3d", percent))%  \(label)\u{1B}[K".utf8))
    }

    func clear() {
        lastDrawn = -1
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
