/// One caption track a creative carries (in the file, or a caption file beside it).
public struct CaptionFacts: Equatable, Sendable {
    /// The decoder or format: mov_text, webvtt, cc_dec (CEA-608), ttml, ...
    public var kind: String
    /// The track's language as the file says it, if it does.
    public var language: String?
    /// How many cues it holds.
    public var cues: Int
    /// When its last cue ends, in ms.
    public var lastEndMs: Int?
    /// The cues themselves, for the report's pictures (each shows the cue on screen at its time).
    public var track: CaptionTrack?

    /// A track's facts.
    public init(kind: String, language: String?, cues: Int, lastEndMs: Int?, track: CaptionTrack? = nil) {
        self.kind = kind; self.language = language; self.cues = cues; self.lastEndMs = lastEndMs; self.track = track
    }

    /// "mov_text eng, 2 cues".
    public var summary: String { "\(kind)\(language.map { " \($0)" } ?? ""), \(cues) cue\(cues == 1 ? "" : "s")" }
}

/// The `captions` rule: which caption tracks the creative has. `"allowed": ["any"]` in a spec
/// requires one; a list of languages or kinds (`"allowed": ["en", "fr"]`) requires one of them.
/// Without a limit it only reports what is there.
enum CaptionRule {
    static func evaluate(_ limit: Limit, on facts: CreativeFacts) -> RuleResult {
        let name = RuleName.captions.rawValue
        let text = describe(limit)
        let measured = measure(facts)
        guard let tracks = facts.captions else { return RuleResult(rule: name, status: .fail, measured: measured, limit: text) }
        let wanted = limit.allowed ?? []
        let required = wanted.contains(.bool(true)) || wanted.contains(.string("any"))
        let names = wanted.compactMap { v -> String? in if case .string(let s) = v, s != "any" { return s.lowercased() } else { return nil }
        }
        var ok = !required || !tracks.isEmpty
        if !names.isEmpty {
            ok = tracks.contains { t in
                names.contains(t.kind.lowercased())
                    || t.language.map { l in names.contains { CaptionLanguage.primaryTag($0) == CaptionLanguage.primaryTag(l) } } == true
            }
        }
        return RuleResult(rule: name, status: ok ? .pass : .fail, measured: measured, limit: text)
    }

    /// "mov_text eng, 2 cues", "none".
    static func measure(_ facts: CreativeFacts) -> Measured {
        guard let tracks = facts.captions else { return .missing("captions were not looked for") }
        return .value(.string(tracks.isEmpty ? "none" : tracks.map(\.summary).joined(separator: "; ")))
    }

    static func describe(_ limit: Limit) -> String {
        let allowed = limit.allowed ?? []
        let names = allowed.compactMap { v -> String? in if case .string(let s) = v, s != "any" { return s } else { return nil } }
        if !names.isEmpty { return "a caption track in one of \(names.joined(separator: ", "))" }
        return allowed.contains(.bool(true)) || allowed.contains(.string("any")) ? "a caption track" : "anything"
    }
}
