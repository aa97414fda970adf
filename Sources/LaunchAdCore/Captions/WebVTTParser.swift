import Foundation

/// WebVTT (the W3C format of HTML5 `<track>` and VAST's ClosedCaptionFile), read by the W3C
/// spec's "WebVTT parser algorithm", so a file gives the cues a browser gives: NUL becomes
/// U+FFFD, CR, LF and CRLF all end lines, the signature is `WEBVTT` then a space, a tab or the
/// line's end, a line holding `-->` starts a new cue even without a blank line before it, and
/// timings are as strict as `WebVTTTimings` says. Cue settings and regions are not followed
/// (every cue is drawn in the lower safe area). A cue that ends as or before it starts is kept
/// by the algorithm and never shown by a browser (a cue shows from its start up to its end):
/// here it is not shown either, and not a problem, only counted (`CaptionParse.neverShown`). What LaunchAd then does with the other cues
/// (plain text, no empty cue, none past 24 h) is `CaptionFormat.displayed`'s.
enum WebVTTParser {
    /// One cue as the algorithm gives it, before LaunchAd's display choices: what a browser's
    /// `VTTCue` holds as `id`, `startTime`, `endTime` and `text` (the raw cue text, markup and all).
    struct Cue: Equatable, Sendable {
        var id: String
        var startMs: Int
        var endMs: Int
        var text: String
    }

    /// A block the algorithm read that holds a timing line: a cue, or the line a browser could
    /// not read (that block is dropped, as browsers drop it).
    enum Block: Equatable, Sendable {
        case cue(Cue)
        case unreadableTiming(String)
    }

    /// The spec's "UTF-8 decode" of the file's bytes: one leading byte-order mark dropped,
    /// invalid sequences as U+FFFD (a browser reads such a file; it is not refused).
    static func decode(_ data: Data) -> String {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        return String(decoding: data.starts(with: bom) ? data.dropFirst(3) : data[...], as: UTF8.self)
    }

    /// Whether bytes are meant as WebVTT: `WEBVTT` in any case after byte-order marks and
    /// whitespace (so a near miss is refused for its signature, not read as SubRip).
    static func isMeant(_ data: Data) -> Bool {
        let head = data.prefix(64).drop { $0 == 0xEF || $0 == 0xBB || $0 == 0xBF || $0 == 0x20 || ($0 >= 0x09 && $0 <= 0x0D) }
        return head.prefix(6).map { $0 & 0xDF } == Array("WEBVTT".utf8)
    }

    /// The cues LaunchAd shows from WebVTT text (as `decode` made it): refused (thrown) when the
    /// signature is wrong, as a browser fires its track's error event, or `budget`'s time runs out.
    static func parse(_ text: String, budget: ParseBudget) throws -> CaptionParse {
        var cues: [CaptionCue] = []
        var problems = CueProblems()
        var neverShown = 0
        for (i, block) in try blocks(text, budget: budget).enumerated() {
            let number = i + 1
            try budget.checkTime(what: "the caption file")
            switch block {
            case .unreadableTiming(let line):
                problems.add("cue \(number): cannot read the timing '\(line.prefix(60))'")
            case .cue(let cue):
                // Never on screen, as in a browser: neither shown nor skipped, only counted.
                guard cue.endMs > cue.startMs else {
                    neverShown += 1
                    continue
                }
                guard cues.count < CaptionFormat.maxCues else {
                    problems.add("cue \(number): over \(CaptionFormat.maxCues) cues"); continue
                }
                switch CaptionFormat.displayed(
                    number, startMs: cue.startMs, endMs: cue.endMs, text: CaptionText.plain(cue.text, tags: .webVTT))
                {
                case .success(let c): cues.append(c)
                case .failure(let p): problems.add(p.message)
                }
            }
        }
        return CaptionParse(format: .webvtt, cues: cues, problems: problems, neverShown: neverShown)
    }

    /// The blocks holding a timing line, in file order, as the spec's algorithm reads them
    /// (`budget`'s deadline checked at every block).
    static func blocks(_ text: String, budget: ParseBudget) throws -> [Block] {
        var reader = Reader(text)
        return try reader.file(budget: budget)
    }

    /// The algorithm's `input` and `position`, over the text with NULs and line endings replaced.
    private struct Reader {
        let input: [Unicode.Scalar]
        var position = 0

        init(_ text: String) {
            var input: [Unicode.Scalar] = []
            input.reserveCapacity(text.utf8.count)
            var afterCR = false
            for c in text.unicodeScalars {
                if c == "\n" && afterCR {
                    afterCR = false
                    continue
                }
                afterCR = c == "\r"
                input.append(c == "\r" ? "\n" : c == "\0" ? "\u{FFFD}" : c)
            }
            self.input = input
        }

        mutating func file(budget: ParseBudget) throws -> [Block] {
            let signature = Array("WEBVTT".unicodeScalars)
            guard input.count >= 6, Array(input[0..<6]) == signature, input.count == 6 || [" ", "\t", "\n"].contains(input[6]) else {
                throw CaptionError("the WebVTT file does not start with its signature (WEBVTT, then a space, a tab or the line's end)")
            }
            _ = line()  // the signature line, whatever follows WEBVTT on it
            guard position < input.count else { return [] }
            position += 1
            guard position < input.count else { return [] }
            if input[position] != "\n" { _ = block(inHeader: true) } else { position += 1 }
            skipLineFeeds()
            var out: [Block] = []
            while position < input.count {
                try budget.checkTime(what: "the caption file")
                if let b = block(inHeader: false) { out.append(b) }
                skipLineFeeds()
            }
            return out
        }

        /// The characters up to the next LF (or the end), leaving `position` on that LF.
        private mutating func line() -> ArraySlice<Unicode.Scalar> {
            let from = position
            while position < input.count, input[position] != "\n" { position += 1 }
            return input[from..<position]
        }

        private mutating func skipLineFeeds() {
            while position < input.count, input[position] == "\n" { position += 1 }
        }

        /// "Collect a WebVTT block". STYLE and REGION blocks are read as the spec reads them but
        /// give nothing here: they can never turn into a cue (a timing line after their first
        /// line ends the block), and LaunchAd follows neither style sheets nor regions.
        private mutating func block(inHeader: Bool) -> Block? {
            var lineCount = 0
            var previousPosition = position
            var buffer: [Unicode.Scalar] = []
            var seenArrow = false
            var cue: Cue?
            var unreadable: String?
            while true {
                let current = line()
                lineCount += 1
                let seenEOF = position >= input.count
                if !seenEOF { position += 1 }
                if Self.containsArrow(current) {
                    guard !inHeader, lineCount == 1 || (lineCount == 2 && !seenArrow) else {
                        position = previousPosition  // the line starts the next block
                        break
                    }
                    seenArrow = true
                    previousPosition = position
                    if let (start, end) = WebVTTTimings.read(current) {
                        cue = Cue(id: Self.string(buffer), startMs: start, endMs: end, text: "")
                        buffer = []
                        unreadable = nil
                    } else {
                        cue = nil
                        unreadable = Self.string(current)
                    }
                } else if current.isEmpty {
                    break
                } else {
                    if !buffer.isEmpty { buffer.append("\n") }
                    buffer.append(contentsOf: current)
                    previousPosition = position
                }
                if seenEOF { break }
            }
            if var cue {
                cue.text = Self.string(buffer)
                return .cue(cue)
            }
            return unreadable.map { .unreadableTiming($0) }
        }

        private static func containsArrow(_ line: ArraySlice<Unicode.Scalar>) -> Bool {
            var i = line.startIndex
            while i + 2 < line.endIndex {
                if line[i] == "-", line[i + 1] == "-", line[i + 2] == ">" { return true }
                i += 1
            }
            return false
        }

        private static func string<C: Collection>(_ scalars: C) -> String where C.Element == Unicode.Scalar {
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars)
            return String(view)
        }
    }
}
