import Foundation

/// What a caption file held: its cues, the cues skipped as malformed (with the first reason),
/// and which format it was read as.
public struct CaptionParse: Equatable, Sendable {
    /// The format the file was read as.
    public var format: CaptionFormat
    /// The cues kept.
    public var track: CaptionTrack
    /// How many cues were skipped as malformed.
    public var skipped = 0
    /// Why the first skipped cue was skipped.
    public var firstProblem: String?

    init(format: CaptionFormat, cues: [CaptionCue], problems: [String]) {
        self.format = format
        track = CaptionTrack(cues)
        skipped = problems.count
        firstProblem = problems.first
    }
}

/// The caption file formats LaunchAd reads.
public enum CaptionFormat: String, Sendable {
    case webvtt, srt, ttml

    /// The largest caption file read: a minute-long ad's captions are a few kilobytes.
    public static let maxBytes = 1_048_576

    /// Reads caption bytes: WebVTT (by its `WEBVTT` header), TTML (a `<tt>` root) or SRT.
    /// Refused (thrown) when too large for `budget` (or `maxBytes`), read past its deadline, not
    /// UTF-8 text, or not any of them; cues that cannot be read are skipped and counted.
    public static func parse(_ data: Data, budget: ParseBudget) throws -> CaptionParse {
        guard data.count <= min(maxBytes, budget.maxBytes) else {
            throw CaptionError("the caption file is \(data.count) bytes, over the \(min(maxBytes, budget.maxBytes))-byte limit")
        }
        guard var text = String(validating: data, as: UTF8.self), !data.contains(0) else {
            throw CaptionError("the caption file is not UTF-8 text")
        }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let start = text.drop { $0.isWhitespace }
        do {
            if start.hasPrefix("WEBVTT") { return try WebVTTParser.parse(text, budget: budget) }
            if start.hasPrefix("<") { return try TTMLParser.parse(Data(text.utf8), budget: budget) }
            return try SRTParser.parse(text, budget: budget)
        } catch let e as ParseBudgetExceeded { throw CaptionError(e.message) }
    }

    /// The budget of a caption file read within `seconds` (`limitName` names the option).
    public static func budget(seconds: Double, limitName: String) -> ParseBudget {
        ParseBudget(maxBytes: maxBytes, seconds: seconds, limitName: limitName)
    }

    /// The format a MIME type names (VAST's `<ClosedCaptionFile type=...>`), nil for others.
    public init?(mimeType: String) {
        switch mimeType.trimmingCharacters(in: .whitespaces).lowercased() {
        case "text/vtt", "text/webvtt": self = .webvtt
        case "application/ttml+xml", "application/xml+ttml", "text/ttml": self = .ttml
        case "application/x-subrip", "text/srt", "application/srt": self = .srt
        default: return nil
        }
    }
}

extension CaptionFormat {
    /// Text split into blank-line-separated blocks of lines, line endings normalised.
    static func blocks(_ text: String) -> [[Substring]] {
        var blocks: [[Substring]] = []
        var current: [Substring] = []
        let normal = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        for line in normal.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) {
                if !current.isEmpty { blocks.append(current); current = [] }
            } else {
                current.append(line)
            }
        }
        if !current.isEmpty { blocks.append(current) }
        return blocks
    }

    /// `START --> END [settings]` with the clock `read` accepts; nil when it is not a timing line.
    static func timing(_ line: Substring, _ read: (Substring) -> Int?) -> (Int, Int)? {
        guard let arrow = line.range(of: "-->") else { return nil }
        let start = line[..<arrow.lowerBound]
        let after = line[arrow.upperBound...].drop { $0 == " " || $0 == "\t" }
        let end = after.prefix { $0 != " " && $0 != "\t" }
        guard let s = read(start), let e = read(end) else { return nil }
        return (s, e)
    }

    /// A cue from its timing and payload, or why it is skipped.
    static func cue(_ number: Int, _ times: (Int, Int)?, _ timingLine: Substring, payload: String) -> Result<CaptionCue, CueProblem> {
        guard let (s, e) = times else { return .failure(CueProblem("cue \(number): cannot read the timing '\(timingLine.prefix(60))'")) }
        guard e > s else { return .failure(CueProblem("cue \(number): it ends (\(e) ms) before it starts (\(s) ms)")) }
        let text = CaptionText.plain(payload)
        guard !text.isEmpty else { return .failure(CueProblem("cue \(number): no text")) }
        return .success(CaptionCue(startMs: s, endMs: e, text: text))
    }

    /// The most cues read from one file; the rest are counted as skipped.
    public static let maxCues = 5000
}

struct CueProblem: Error { let message: String; init(_ m: String) { message = m } }
