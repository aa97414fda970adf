import Foundation

/// SubRip (.srt): numbered blocks, `hh:mm:ss,mmm --> hh:mm:ss,mmm`, then the text. The number
/// may be missing and a dot may stand for the comma (both seen in the wild).
enum SRTParser {
    static func parse(_ text: String, budget: ParseBudget) throws -> CaptionParse {
        var cues: [CaptionCue] = [], problems: [String] = []
        var number = 0
        for block in CaptionFormat.blocks(text) {
            number += 1
            try budget.checkTime(what: "the caption file")
            guard cues.count < CaptionFormat.maxCues else { problems.append("cue \(number): over \(CaptionFormat.maxCues) cues"); continue }
            let hasIndex = !block[0].contains("-->")
            let timingAt = hasIndex ? 1 : 0
            guard timingAt < block.count, block[timingAt].contains("-->") else {
                problems.append("cue \(number): no 'start --> end' line")
                continue
            }
            let line = block[timingAt]
            let payload = block[(timingAt + 1)...].joined(separator: "\n")
            switch CaptionFormat.cue(
                number, CaptionFormat.timing(line) { CaptionTime.clock($0, hoursRequired: true) }, line, payload: payload)
            {
            case .success(let c): cues.append(c)
            case .failure(let p): problems.append(p.message)
            }
        }
        // Text with no cue at all is not a caption file (a page of HTML, a binary's name...).
        guard !cues.isEmpty || problems.isEmpty else {
            throw CaptionError("not a caption file: neither WebVTT, TTML nor SRT (\(problems[0]))")
        }
        guard !cues.isEmpty else { throw CaptionError("the caption file holds no cue") }
        return CaptionParse(format: .srt, cues: cues, problems: problems)
    }
}
