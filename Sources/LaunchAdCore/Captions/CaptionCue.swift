/// One caption: text shown from `startMs` (inclusive) to `endMs` (exclusive) of the ad's own
/// time (the media time of the picture on screen; for an image, its shown time).
public struct CaptionCue: Equatable, Sendable {
    /// When the cue appears, in ms of the ad's time.
    public var startMs: Int
    /// When it goes (the first ms it is no longer shown).
    public var endMs: Int
    /// Plain text, lines separated by "\n" (markup already removed).
    public var text: String

    /// A cue from its times and its plain text.
    public init(startMs: Int, endMs: Int, text: String) {
        self.startMs = startMs
        self.endMs = endMs
        self.text = text
    }
}

/// The cues of one caption source, in start order, and which of them show at a time.
public struct CaptionTrack: Equatable, Sendable {
    /// The cues, in start order (cues starting together in the file's order).
    public private(set) var cues: [CaptionCue]

    /// A track of `cues`, put in start order.
    public init(_ cues: [CaptionCue]) {
        // Stable: cues starting together keep the file's order (top line first).
        self.cues = cues.enumerated().sorted { ($0.element.startMs, $0.offset) < ($1.element.startMs, $1.offset) }.map(\.element)
    }

    /// Whether the track has no cue.
    public var isEmpty: Bool { cues.isEmpty }
    /// When the last cue ends; nil for an empty track.
    public var lastEndMs: Int? { cues.map(\.endMs).max() }

    /// The cues showing at `ms`: started, not yet ended. Overlapping cues all show, in start order.
    public func showing(atMs ms: Int) -> [Int] {
        var out: [Int] = []
        for (i, c) in cues.enumerated() {
            if c.startMs > ms { break }
            if ms < c.endMs { out.append(i) }
        }
        return out
    }

    /// The text on screen at `ms` (nil: none): the showing cues' text, one above the other.
    public func text(atMs ms: Int) -> String? {
        let shown = showing(atMs: ms)
        return shown.isEmpty ? nil : shown.map { cues[$0].text }.joined(separator: "\n")
    }

    /// Adds cues decoded while the ad plays (a text track, closed captions), keeping start order.
    public mutating func append(_ more: [CaptionCue]) {
        guard !more.isEmpty else { return }
        self = CaptionTrack(cues + more)
    }
}
