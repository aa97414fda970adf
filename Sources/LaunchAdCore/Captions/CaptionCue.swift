/// One caption: text shown from `startMs` (inclusive) to `endMs` (exclusive) of the ad's own
/// time (the media time of the picture on screen; for an image, its shown time).
public struct CaptionCue: Equatable, Sendable {
    /// When the cue appears, in ms of the ad's time.
    public var startMs: Int
    /// When it goes (the first ms it is no longer shown).
    public var endMs: Int
    /// Plain text, lines separated by "\n" (markup already removed).
    public var text: String

    /// A cue from its times and its plain text, cut to what one screen can show
    /// (`CaptionText.screenful`), whichever reader made it.
    public init(startMs: Int, endMs: Int, text: String) {
        self.startMs = startMs
        self.endMs = endMs
        self.text = CaptionText.screenful(text)
    }
}

/// The cues of one caption source, in start order, and which of them show at a time. What is
/// on screen at once is bounded whatever the file holds (5,000 cues overlapping made a 3 s ad
/// run 10 s): the latest `maxShownCues` cues started and still showing, at most
/// `maxShownLines` lines and `maxShownCharacters` characters of them, older text leaving first.
public struct CaptionTrack: Equatable, Sendable {
    /// The cues, in start order (cues starting together in the file's order).
    public private(set) var cues: [CaptionCue]
    /// For each cue, the latest end among it and the cues before it: where the search for the
    /// cues showing at a time can stop looking back.
    private var endsSoFar: [Int]

    /// The most cues on screen at once (a viewer reads two or three; the newest stay).
    public static let maxShownCues = 3
    /// The most lines of caption text on screen at once (before wrapping; the layout then drops
    /// the first lines that do not fit the window).
    public static let maxShownLines = 12
    /// The most characters of caption text on screen at once: three cues of the most one may hold.
    public static let maxShownCharacters = 1500

    /// A track of `cues`, put in start order.
    public init(_ cues: [CaptionCue]) {
        // Stable: cues starting together keep the file's order (top line first).
        self.cues = cues.enumerated().sorted { ($0.element.startMs, $0.offset) < ($1.element.startMs, $1.offset) }.map(\.element)
        var latest = Int.min
        endsSoFar = self.cues.map { cue in
            latest = max(latest, cue.endMs)
            return latest
        }
    }

    /// Whether the track has no cue.
    public var isEmpty: Bool { cues.isEmpty }
    /// When the last cue ends; nil for an empty track.
    public var lastEndMs: Int? { endsSoFar.last }

    /// The cues showing at `ms` (started, not yet ended), in start order: all of them up to
    /// `maxShownCues`, else the latest started.
    public func showing(atMs ms: Int) -> [Int] {
        // The first cue starting after `ms`, by halving: everything before it has started.
        var low = 0, high = cues.count
        while low < high {
            let mid = (low + high) / 2
            if cues[mid].startMs <= ms { low = mid + 1 } else { high = mid }
        }
        var out: [Int] = []
        var i = low - 1
        while i >= 0, out.count < Self.maxShownCues, endsSoFar[i] > ms {
            if ms < cues[i].endMs { out.append(i) }
            i -= 1
        }
        return out.reversed()
    }

    /// The text on screen at `ms` (nil: none): the showing cues' text, one above the other,
    /// bounded by `maxShownLines` and `maxShownCharacters` (the oldest lines go first).
    public func text(atMs ms: Int) -> String? {
        let shown = showing(atMs: ms)
        return shown.isEmpty ? nil : Self.bounded(shown.map { cues[$0].text }.joined(separator: "\n"))
    }

    /// `text` cut to what fits on screen at once: the last `maxShownLines` lines, then older lines
    /// dropped while over `maxShownCharacters`, then the last line's start if it alone is over.
    static func bounded(_ text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).suffix(maxShownLines)
        var total = lines.reduce(lines.count - 1) { $0 + $1.count }
        while total > maxShownCharacters, lines.count > 1 {
            total -= (lines.first?.count ?? 0) + 1
            lines = lines.dropFirst()
        }
        let joined = lines.joined(separator: "\n")
        return total > maxShownCharacters ? String(joined.prefix(maxShownCharacters)) : joined
    }

    /// Adds cues decoded while the ad plays (a text track, closed captions), keeping start order.
    public mutating func append(_ more: [CaptionCue]) {
        guard !more.isEmpty else { return }
        self = CaptionTrack(cues + more)
    }
}
