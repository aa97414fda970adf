/// A rule's limit as a spec file writes it. Every field is optional; a rule checks the ones given:
/// `allowed` (with `tolerance` for numbers) and `warn` lists, `min`/`max`, `target` ± `tolerance`,
/// and `by_resolution`, a limit per display size (bitrate tiers).
public struct Limit: Equatable, Sendable {
    /// Values that pass; numbers match within `tolerance`, words ignoring case.
    public var allowed: [SpecValue]?
    /// Values that warn instead of failing (checked before `allowed`).
    public var warn: [SpecValue]?
    /// The lowest passing number, in the rule's unit.
    public var min: Double?
    /// The highest passing number, in the rule's unit.
    public var max: Double?
    /// The number aimed at; passes within `tolerance` of it (a spec file must give both).
    public var target: Double?
    /// How far a number may be from `target` or from an `allowed` number, in the rule's unit.
    public var tolerance: Double?
    /// A limit per display size ("1920x1080"), for the bitrate rules; the creative's size picks the tier.
    public var byResolution: [String: Limit]?
    /// A number above this warns (when nothing fails): "none, warn; fail over 10 %".
    public var warnAbove: Double?

    /// A limit with the given fields; all default to none.
    public init(
        allowed: [SpecValue]? = nil, warn: [SpecValue]? = nil, min: Double? = nil, max: Double? = nil,
        target: Double? = nil, tolerance: Double? = nil, byResolution: [String: Limit]? = nil, warnAbove: Double? = nil
    ) {
        self.allowed = allowed
        self.warn = warn
        self.min = min
        self.max = max
        self.target = target
        self.tolerance = tolerance
        self.byResolution = byResolution
        self.warnAbove = warnAbove
    }

    /// A limit allowing exactly these values.
    public static func oneOf(_ values: SpecValue...) -> Limit { Limit(allowed: values) }
    /// A limit of at most `v`, in the rule's unit.
    public static func atMost(_ v: Double) -> Limit { Limit(max: v) }
    /// A limit from `lo` to `hi` inclusive, in the rule's unit.
    public static func between(_ lo: Double, _ hi: Double) -> Limit { Limit(min: lo, max: hi) }

    static let keys = ["allowed", "warn", "min", "max", "target", "tolerance", "by_resolution", "warn_above"]
}

extension Limit: Decodable {
    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Decodes a spec file's limit object; unknown keys, and `target` without `tolerance`, throw a `SpecError`.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        // A misspelt key would silently loosen the spec, so it is an error.
        if let unknown = c.allKeys.first(where: { !Limit.keys.contains($0.stringValue) }) {
            let at = decoder.codingPath.map(\.stringValue).joined(separator: ".")
            throw SpecError(
                "\(at.isEmpty ? "" : at + ": ")unknown limit '\(unknown.stringValue)' (limits: \(Limit.keys.joined(separator: ", ")))")
        }
        allowed = try c.decodeIfPresent([SpecValue].self, forKey: Key(stringValue: "allowed"))
        warn = try c.decodeIfPresent([SpecValue].self, forKey: Key(stringValue: "warn"))
        min = try c.decodeIfPresent(Double.self, forKey: Key(stringValue: "min"))
        max = try c.decodeIfPresent(Double.self, forKey: Key(stringValue: "max"))
        target = try c.decodeIfPresent(Double.self, forKey: Key(stringValue: "target"))
        tolerance = try c.decodeIfPresent(Double.self, forKey: Key(stringValue: "tolerance"))
        byResolution = try c.decodeIfPresent([String: Limit].self, forKey: Key(stringValue: "by_resolution"))
        warnAbove = try c.decodeIfPresent(Double.self, forKey: Key(stringValue: "warn_above"))
        if target != nil && tolerance == nil { throw SpecError("'target' needs a 'tolerance'") }
    }
}

extension Limit {
    /// Rejects a limit that cannot mean anything for `rule`: a number bound on a rule that measures words,
    /// words for one that measures numbers, min above max, resolution tiers on a rule without tiers.
    public func check(for rule: RuleName) throws {
        func bad(_ why: String) -> SpecError { SpecError("rules.\(rule.rawValue): \(why)") }
        let numeric = [("min", min), ("max", max), ("target", target), ("tolerance", tolerance), ("warn_above", warnAbove)]
        if let nan = numeric.first(where: { $0.1?.isFinite == false }) { throw bad("'\(nan.0)' must be a finite number") }
        if let lo = min, let hi = max, lo > hi { throw bad("'min' \(SpecValue.format(lo)) is above 'max' \(SpecValue.format(hi))") }
        if let t = tolerance, t < 0 { throw bad("'tolerance' cannot be negative") }
        if byResolution != nil && ![.videoBitrateKbps, .videoBitrateFloor].contains(rule) {
            throw bad("'by_resolution' is only for video_bitrate_kbps and video_bitrate_floor")
        }
        for (size, tier) in byResolution ?? [:] {
            guard size.split(separator: "x").compactMap({ Int($0) }).count == 2 else {
                throw bad("'by_resolution' key '\(size)' is not WIDTHxHEIGHT")
            }
            try tier.check(for: rule)
        }
        let kind = rule.valueKind
        if kind != .number, let used = numeric.first(where: { $0.1 != nil && $0.0 != "tolerance" }) {
            throw bad("'\(used.0)' needs a number, but \(rule.rawValue) measures \(kind == .bool ? "yes or no" : "words")")
        }
        for value in (allowed ?? []) + (warn ?? []) where !kind.accepts(value) {
            throw bad("'\(value)' is not a value \(rule.rawValue) can measure (\(kind.rawValue))")
        }
    }
}

/// A spec file that cannot be used: reported in one line, exit code 2.
public struct SpecError: Error, Equatable, CustomStringConvertible {
    /// What is wrong, in one line.
    public let message: String
    /// An error saying `message`.
    public init(_ message: String) { self.message = message }
    /// The message, as printed.
    public var description: String { message }
}
