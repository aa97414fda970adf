import Foundation
import LaunchAdCore
import LaunchAdEngine

/// Options `play` was given but will not use, said once on stderr instead of ignored silently.
enum IgnoredOptions {
    /// Known from the command line alone.
    static func notes(_ o: PlayOptions) -> [String] {
        o.logo != nil && o.layout != .logoBottom ? ["--logo is drawn only with --layout logo-bottom; ignored"] : []
    }

    /// `--duration` sets an image's (and the fallback's) length: on a video without a fallback
    /// it has nothing to act on, which only the `start` event tells.
    static func durationNote(_ event: AdEvent) -> String? {
        guard case .start(let start) = event.event, start.kind == .video else { return nil }
        return "--duration applies to images and the fallback; this video lasts its own length (--max-duration caps it)"
    }

    static func print(_ note: String) {
        FileHandle.standardError.write(TerminalText.line(note))
    }
}

/// Passes events on and prints the `--duration` note when the creative turns out to be a video.
final class DurationNoteSink: EventSink, Sendable {
    private let base: EventSink
    init(_ base: EventSink) { self.base = base }
    func emit(_ event: AdEvent) {
        if let note = IgnoredOptions.durationNote(event) { IgnoredOptions.print(note) }
        base.emit(event)
    }
}
