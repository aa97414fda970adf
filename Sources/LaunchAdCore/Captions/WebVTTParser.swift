import Foundation

/// WebVTT (the W3C format of HTML5 `<track>` and VAST's ClosedCaptionFile): a `WEBVTT` header,
/// then blocks; a cue is an optional id line, `start --> end [settings]`, then its text. NOTE,
/// STYLE and REGION blocks are skipped; cue settings (position, line) are not followed: every
/// cue is drawn in the lower safe area.
enum WebVTTParser {
    static func parse(_ text: String, budget: ParseBudget) throws -> CaptionParse {
        var blocks = CaptionFormat.blocks(text)
        guard let header = blocks.first?.first, header == "WEBVTT" || header.hasPrefix("WEBVTT ") || header.hasPrefix("WEBVTT\t") else {
            throw CaptionError("the WebVTT file does not start with a WEBVTT line")
        }
        // The header's own lines (WEBVTT and any metadata under it) are not a cue, unless a
        // cue's timing line follows WEBVTT without a blank line (tolerated).
        // (The WEBVTT line itself is never a timing line, whatever it holds: found by the fuzz target.)
        let first = blocks.removeFirst()
        if let i = first.dropFirst().firstIndex(where: { $0.contains("-->") }) { blocks.insert(Array(first[max(1, i - 1)...]), at: 0) }
        var cues: [CaptionCue] = [], problems: [String] = []
        var number = 0
        for block in blocks {
            let head = block[0]
            if head.hasPrefix("NOTE") || head == "STYLE" || head == "REGION" { continue }
            number += 1
            try budget.checkTime(what: "the caption file")
            guard cues.count < CaptionFormat.maxCues else { problems.append("cue \(number): over \(CaptionFormat.maxCues) cues"); continue }
            // An id line comes before the timing line when the first line has no arrow.
            let timingAt = head.contains("-->") ? 0 : 1
            guard timingAt < block.count else { problems.append("cue \(number): no timing line"); continue }
            let line = block[timingAt]
            let payload = block[(timingAt + 1)...].joined(separator: "\n")
            switch CaptionFormat.cue(number, CaptionFormat.timing(line) { CaptionTime.clock($0) }, line, payload: payload) {
            case .success(let c): cues.append(c)
            case .failure(let p): problems.append(p.message)
            }
        }
        return CaptionParse(format: .webvtt, cues: cues, problems: problems)
    }
}
