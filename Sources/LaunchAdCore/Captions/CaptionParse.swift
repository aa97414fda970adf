import Foundation

/// What a caption file held: its cues, the cues skipped as malformed (with the first reason),
/// the WebVTT cues that can never be on screen, and which format it was read as.
public struct CaptionParse: Equatable, Sendable {
    /// The format the file was read as.
    public var format: CaptionFormat
    /// The cues kept.
    public var track: CaptionTrack
    /// How many cues were skipped as malformed.
    public var skipped = 0
    /// Why the first skipped cue was skipped.
    public var firstProblem: String?
    /// WebVTT cues that end as or before they start: the spec's parser keeps them and a browser
    /// never shows them, so they are neither in `track` nor skipped; counted so that a file of
    /// nothing else does not read as empty for no reason.
    public var neverShown = 0

    init(format: CaptionFormat, cues: [CaptionCue], problems: CueProblems, neverShown: Int = 0) {
        self.format = format
        track = CaptionTrack(cues)
        skipped = problems.count
        firstProblem = problems.first
        self.neverShown = neverShown
    }
}

/// The caption file formats LaunchAd reads.
public enum CaptionFormat: String, Sendable {
    case webvtt, srt, ttml

    /// The largest caption file read: a minute-long ad's captions are a few kilobytes.
    public static let maxBytes = 1_048_576

    /// Reads caption bytes: WebVTT (by its `WEBVTT` signature, decoded as browsers decode it),
    /// TTML (a `<tt>` root) or SRT (read as FFmpeg reads it). Refused (thrown) when too large for
    /// `budget` (or `maxBytes`), read past its deadline, not UTF-8 text (WebVTT excepted: invalid
    /// bytes become U+FFFD there), or none of them; cues that cannot be read are skipped and counted.
    public static func parse(_ data: Data, budget: ParseBudget) throws -> CaptionParse {
        guard data.count <= min(maxBytes, budget.maxBytes) else {
            throw CaptionError("the caption file is \(data.count) bytes, over the \(min(maxBytes, budget.maxBytes))-byte limit")
        }
        do {
            if WebVTTParser.isMeant(data) { return try WebVTTParser.parse(WebVTTParser.decode(data), budget: budget) }
            guard var text = String(validating: data, as: UTF8.self) else {
                throw CaptionError("the caption file is not UTF-8 text")
            }
            if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
            if text.drop(while: \.isWhitespace).hasPrefix("<") {
                guard !data.contains(0) else { throw CaptionError("the TTML file holds a NUL byte, which XML forbids") }
                return try TTMLParser.parse(Data(text.utf8), budget: budget)
            }
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
    /// A cue a parser read, as LaunchAd shows it, or why it is skipped: `text` is already plain;
    /// a cue with no text, or that ends before it starts (so is never on screen), or that starts
    /// after `CaptionTime.maxMs` (past any ad) is skipped; one starting before 0 shows from 0,
    /// one ending after `maxMs` is cut there. (WebVTT leaves out a cue ending as or before it
    /// starts before asking: a browser keeps it and never shows it, so it is no problem there.)
    static func displayed(_ number: Int, startMs: Int, endMs: Int, text: String) -> Result<CaptionCue, CueProblem> {
        guard startMs < CaptionTime.maxMs else {
            return .failure(CueProblem("cue \(number): it starts after 24 h (\(startMs) ms), past any ad"))
        }
        guard endMs > startMs else {
            return .failure(CueProblem("cue \(number): it ends (\(endMs) ms) before it starts (\(startMs) ms)"))
        }
        guard endMs > 0 else { return .failure(CueProblem("cue \(number): it ends before the ad starts (\(endMs) ms)")) }
        guard !text.isEmpty else { return .failure(CueProblem("cue \(number): no text")) }
        return .success(CaptionCue(startMs: max(0, startMs), endMs: min(endMs, CaptionTime.maxMs), text: text))
    }

    /// The most cues read from one file; the rest are counted as skipped.
    public static let maxCues = 5000
}

struct CueProblem: Error { let message: String; init(_ m: String) { message = m } }

/// The cues a parser skipped: how many, and the first reason (a file of a million bad lines
/// keeps one message, not a million).
struct CueProblems: Equatable, Sendable {
    private(set) var count = 0
    private(set) var first: String?

    mutating func add(_ message: @autoclosure () -> String) {
        if first == nil { first = message() }
        count += 1
    }
}
