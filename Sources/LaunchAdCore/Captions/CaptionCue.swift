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

/// The cues of one caption source, in a browser's order, and which of them show at a time. As
/// in a browser every cue showing is on screen, each placed as low as it fits in cue order: the
/// first at the bottom, each later one above it. What is on screen at once is still bounded
/// whatever the file holds (5,000 cues overlapping made a 3 s ad run 10 s): `maxShownLines`
/// lines and `maxShownCharacters` characters, filled with the newest cues that fit whole
/// (`showing(atMs:)` says exactly which), and finding them costs a few steps per cue shown
/// however many cues the track holds.
public struct CaptionTrack: Equatable, Sendable {
    /// The cues in a browser's text track cue order: by start, then the later end first, then
    /// the file's order (cues starting and ending together stack as the file lists them).
    public private(set) var cues: [CaptionCue]
    /// Each cue's lines and characters (its "\n"s counted as characters), as the bounds count them.
    private var sizes: [Size]
    /// The latest end among the cues of each node of a binary tree over the cues (node 1 is all
    /// of them, node n's children are 2n and 2n + 1, cue i is leaf `leaves + i`): the latest cue
    /// before a point that still shows is found in steps of the tree's height, past any number
    /// of cues that have ended.
    private var latestEnd: [Int]
    /// The index of the first leaf (a power of two, at least the number of cues).
    private var leaves: Int

    /// The most lines of caption text on screen at once (before wrapping; the layout then drops
    /// the last lines that do not fit the window).
    public static let maxShownLines = 12
    /// The most characters of caption text on screen at once (line breaks counted): about three
    /// cues of the most a caption file's cue may hold (500), the most a decoded track's cue may hold.
    public static let maxShownCharacters = 1500

    /// A track of `cues`, put in cue order.
    public init(_ cues: [CaptionCue]) {
        self.cues = cues.enumerated().sorted { a, b in
            if a.element.startMs != b.element.startMs { return a.element.startMs < b.element.startMs }
            if a.element.endMs != b.element.endMs { return a.element.endMs > b.element.endMs }
            return a.offset < b.offset
        }.map(\.element)
        sizes = self.cues.map { Size($0.text) }
        leaves = 1
        while leaves < self.cues.count { leaves *= 2 }
        latestEnd = Array(repeating: Int.min, count: 2 * leaves)
        for (i, cue) in self.cues.enumerated() { latestEnd[leaves + i] = cue.endMs }
        for node in stride(from: leaves - 1, through: 1, by: -1) { latestEnd[node] = max(latestEnd[2 * node], latestEnd[2 * node + 1]) }
    }

    /// Whether the track has no cue.
    public var isEmpty: Bool { cues.isEmpty }
    /// When the last cue ends; nil for an empty track.
    public var lastEndMs: Int? { cues.isEmpty ? nil : latestEnd[1] }

    /// The cues on screen at `ms`, in cue order (the first drawn lowest). Every cue showing
    /// (started, not yet ended) when they fit together in `maxShownLines` lines and
    /// `maxShownCharacters` characters (a "\n" between two cues counted as one); else they are
    /// taken newest first (the last in cue order first), each whole while it fits beside those
    /// taken, and the first that does not fit leaves out every cue before it too. The newest cue
    /// is always taken: alone over the bounds, `text(atMs:)` shows its first lines and characters.
    public func showing(atMs ms: Int) -> [Int] {
        // The first cue starting after `ms`, by halving: everything before it has started.
        var low = 0, high = cues.count
        while low < high {
            let mid = (low + high) / 2
            if cues[mid].startMs <= ms { low = mid + 1 } else { high = mid }
        }
        var out: [Int] = []
        var taken = Size(lines: 0, characters: -1)
        // Each cue taken holds a line at least: at most `maxShownLines` searches.
        while let i = latestShowing(atMs: ms, before: out.last ?? low) {
            let more = Size(lines: taken.lines + sizes[i].lines, characters: taken.characters + 1 + sizes[i].characters)
            guard out.isEmpty || more.fits else { break }
            out.append(i)
            taken = more
            guard taken.lines < Self.maxShownLines else { break }
        }
        return out.reversed()
    }

    /// The lines and characters of a text, as the bounds count them.
    private struct Size: Equatable, Sendable {
        var lines: Int
        var characters: Int

        init(lines: Int, characters: Int) { self.lines = lines; self.characters = characters }

        /// The size of one cue's text.
        init(_ text: String) {
            lines = 1
            characters = 0
            for c in text {
                characters += 1
                if c == "\n" { lines += 1 }
            }
        }

        /// Whether it fits on screen at once.
        var fits: Bool { lines <= CaptionTrack.maxShownLines && characters <= CaptionTrack.maxShownCharacters }
    }

    /// The last cue before index `before` still showing at `ms` (ending after it), if any: up
    /// the tree from that point to the first subtree on its left holding such a cue, then down it.
    private func latestShowing(atMs ms: Int, before: Int) -> Int? {
        guard before > 0 else { return nil }
        var node = leaves + before - 1
        if latestEnd[node] <= ms {
            // Up until a left sibling holds a cue ending after `ms`.
            while true {
                guard node > 1 else { return nil }
                if node % 2 == 1, latestEnd[node - 1] > ms { node -= 1; break }
                node /= 2
            }
            // Down it, keeping to the right.
            while node < leaves { node = latestEnd[2 * node + 1] > ms ? 2 * node + 1 : 2 * node }
        }
        return node - leaves
    }

    /// The text on screen at `ms` (nil: none): the cues `showing(atMs:)` gives, one above the
    /// other as drawn (the newest first), lines separated by "\n"; a newest cue alone over the
    /// bounds cut to its first `maxShownLines` lines and `maxShownCharacters` characters.
    public func text(atMs ms: Int) -> String? {
        let shown = showing(atMs: ms)
        guard let newest = shown.last else { return nil }
        guard shown.count == 1 else { return shown.reversed().map { cues[$0].text }.joined(separator: "\n") }
        let text = cues[newest].text
        guard !sizes[newest].fits else { return text }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).prefix(Self.maxShownLines).joined(separator: "\n")
        return String(lines.prefix(Self.maxShownCharacters))
    }

    /// Adds cues decoded while the ad plays (a text track, closed captions), keeping cue order.
    public mutating func append(_ more: [CaptionCue]) {
        guard !more.isEmpty else { return }
        self = CaptionTrack(cues + more)
    }
}
