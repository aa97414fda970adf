import Foundation

/// SubRip (.srt), read as FFmpeg's srt demuxer (libavformat/srtdec.c) reads it, so a file gives
/// the cues an FFmpeg-based player shows: a line with `start --> end` starts a cue wherever it
/// is (blank lines between cues are not needed, blank lines inside one are dropped); a number
/// alone just before a timing line is the next cue's index, anywhere else it is text; times are
/// `h:m:s,ms` or `h:m:s.ms` with fields of any width (`0:0:1,5` is 1.005 s, as FFmpeg reads
/// it); text before the first timing line is ignored; a NUL byte ends the file where its line starts.
enum SRTParser {
    /// The cues LaunchAd shows from SubRip text, `budget`'s deadline checked at every line.
    static func parse(_ text: String, budget: ParseBudget) throws -> CaptionParse {
        var problems = CueProblems()
        var readable = Substring(text)
        if let nul = text.firstIndex(of: "\0") {
            // FFmpeg's line reader fails on the NUL's line: the file ends where that line starts.
            let lineStart = text[..<nul].lastIndex { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }.map { text.index(after: $0) }
            readable = text[..<(lineStart ?? text.startIndex)]
            problems.add("the file stops at the line holding a NUL byte, as FFmpeg stops there")
        }
        var events: [(times: (Int, Int), text: String)] = []
        var current: (Int, Int)?
        var payload: [Substring] = []
        var cached: Substring?  // a line starting with a number: an index or text, known at the next line
        func flush(keepCached: Bool) {
            if keepCached, let c = cached { payload.append(c) }
            cached = nil
            if let times = current, !payload.isEmpty { events.append((times, payload.joined(separator: "\n"))) }
            payload = []
        }
        for line in readable.split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) {
            try budget.checkTime(what: "the caption file")
            if let times = Self.timing(line) {
                if current != nil {
                    // The cached number is text only when the cue has none and it is not a lone number.
                    flush(keepCached: payload.isEmpty && !(cached.map(Self.isLoneNumber) ?? true))
                }
                current = times
            } else if current != nil {
                if let c = cached { payload.append(c) }
                cached = nil
                if Self.startsWithIndex(line) { cached = line } else { payload.append(line) }
            }
        }
        // A trailing number is text (a year in the credits), not the index of a cue to come.
        if current != nil { flush(keepCached: true) }
        var cues: [CaptionCue] = []
        for (i, e) in events.enumerated() {
            try budget.checkTime(what: "the caption file")
            guard cues.count < CaptionFormat.maxCues else { problems.add("cue \(i + 1): over \(CaptionFormat.maxCues) cues"); continue }
            switch CaptionFormat.displayed(i + 1, startMs: e.times.0, endMs: e.times.1, text: CaptionText.plain(e.text, tags: .subRip)) {
            case .success(let c): cues.append(c)
            case .failure(let p): problems.add(p.message)
            }
        }
        guard !cues.isEmpty else {
            // Text with no cue at all is not a caption file (a page of HTML, a binary's name...).
            throw CaptionError(
                events.isEmpty
                    ? "not a caption file: neither WebVTT, TTML nor SRT (no 'start --> end' line)"
                    : "the caption file holds no cue that shows (\(problems.first ?? "none"))")
        }
        return CaptionParse(format: .srt, cues: cues, problems: problems)
    }

    /// `%d:%d:%d%*1[,.]%d --> %d:%d:%d%*1[,.]%d` as C's sscanf matches it (each number may be
    /// preceded by whitespace and a sign; `-->` by any whitespace or none); what follows the end
    /// time (`X1:... Y2:...` positions) is not read.
    static func timing(_ line: Substring) -> (Int, Int)? {
        var scan = Scan(Array(line.unicodeScalars))
        guard let start = scan.time() else { return nil }
        scan.skipSpace()
        guard scan.take("-"), scan.take("-"), scan.take(">") else { return nil }
        guard let end = scan.time() else { return nil }
        return (start, end)
    }

    /// A line `strtol` reads a non-negative number at the start of: an index, or text starting
    /// with a number (FFmpeg keeps it aside until the next line says which).
    static func startsWithIndex(_ line: Substring) -> Bool {
        var scan = Scan(Array(line.unicodeScalars))
        guard let n = scan.integer() else { return false }
        return n >= 0
    }

    /// A line that is only a non-negative number.
    static func isLoneNumber(_ line: Substring) -> Bool {
        var scan = Scan(Array(line.unicodeScalars))
        guard let n = scan.integer(), n >= 0 else { return false }
        return scan.atEnd
    }

    /// sscanf's and strtol's reading of a line.
    private struct Scan {
        let s: [Unicode.Scalar]
        var p = 0
        init(_ s: [Unicode.Scalar]) { self.s = s }

        var atEnd: Bool { p >= s.count }

        /// C's isspace in the C locale.
        mutating func skipSpace() {
            while p < s.count, [" ", "\t", "\n", "\u{0B}", "\u{0C}", "\r"].contains(s[p]) { p += 1 }
        }

        mutating func take(_ c: Unicode.Scalar) -> Bool {
            guard p < s.count, s[p] == c else { return false }
            p += 1
            return true
        }

        /// `%d`: whitespace, a sign, at least one digit; the value saturated.
        mutating func integer() -> Int? {
            skipSpace()
            var negative = false
            if p < s.count, s[p] == "-" || s[p] == "+" {
                negative = s[p] == "-"
                p += 1
            }
            let from = p
            while p < s.count, s[p].isASCIIDigit { p += 1 }
            guard p > from else { return nil }
            let value = CaptionTime.digitsValue(s[from..<p])
            return negative ? -value : value
        }

        /// `%d:%d:%d%*1[,.]%d` in ms.
        mutating func time() -> Int? {
            guard let h = integer(), take(":"), let m = integer(), take(":"), let sec = integer(), take(",") || take("."),
                let ms = integer()
            else { return nil }
            return CaptionTime.ms(hours: h, minutes: m, seconds: sec, millis: ms)
        }
    }
}
