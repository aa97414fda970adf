/// One rule's verdict on one creative, with what was measured and the limit it was held to.
public struct RuleResult: Equatable, Sendable {
    /// A verdict, ordered by severity: skip < pass < warn < fail.
    public enum Status: String, Sendable, Comparable {
        /// `skip`: the creative gives the rule nothing to measure (no video, one picture, 8K); it counts for nothing.
        case pass, warn, fail, skip
        /// Orders by severity, so the worst of several results is their `max()`.
        public static func < (a: Status, b: Status) -> Bool { a.rank < b.rank }
        private var rank: Int {
            switch self {
            case .skip: return -1
            case .pass: return 0
            case .warn: return 1
            case .fail: return 2
            }
        }
    }

    /// A rule name, or `readable` when the file could not be read at all.
    public var rule: String
    /// The verdict.
    public var status: Status
    /// What was measured on the creative, or why nothing was.
    public var measured: Measured
    /// The limit as a reader reads it: "at most 10 s", "one of h264".
    public var limit: String
    /// The rule's unit for numbers ("s", "kbps", "LUFS"); empty when it has none.
    public var unit: String

    /// A result for the rule named `rule`; `unit` defaults to none.
    public init(rule: String, status: Status, measured: Measured, limit: String, unit: String = "") {
        self.rule = rule
        self.status = status
        self.measured = measured
        self.limit = limit
        self.unit = unit
    }

    /// The measured value with its unit, or the reason there is none.
    public var measuredText: String {
        switch measured {
        case .value(let v): return unit.isEmpty || !v.isNumber ? v.description : "\(v) \(unit)"
        case .missing(let why): return why
        }
    }
}

extension SpecValue {
    var isNumber: Bool { if case .number = self { return true } else { return false } }
}

extension RuleName {
    /// Holds what this rule measures on `facts` to `limit`.
    public func evaluate(_ limit: Limit, on facts: CreativeFacts) -> RuleResult {
        if self == .captions { return CaptionRule.evaluate(limit, on: facts) }  // CaptionRule.swift
        if facts.probe.stillImage && appliesOnlyToMotion {
            return RuleResult(
                rule: rawValue, status: .pass, measured: .missing("not applicable to a still image"),
                limit: describe(limit), unit: unit)
        }
        let measured = measure(facts)
        let soundUnanalysed = Self.soundRules.contains(self) && facts.analysis.signal.soundNotAnalysed != nil
        if case .missing = measured, Self.skippedWhenUnmeasured.contains(self) || soundUnanalysed {
            return RuleResult(rule: rawValue, status: .skip, measured: measured, limit: describe(limit), unit: unit)
        }
        var limit = limit
        var tier = ""
        // A bitrate tier depends on the picture size: pick the tier first, then check it.
        if let tiers = limit.byResolution {
            guard case .value(let size) = RuleName.resolution.measure(facts),
                let t = self == .videoBitrateFloor
                    ? Self.floorTier(tiers, size.description)
                    : tiers[size.description].map({ (name: size.description, limit: $0) })
            else {
                let sizes = tiers.keys.sorted { RuleName.area($0) > RuleName.area($1) }.joined(separator: ", ")
                return RuleResult(
                    rule: rawValue, status: .fail, measured: measured,
                    limit: "a tier for \(sizes)", unit: unit)
            }
            limit = t.limit
            tier = "for \(t.name): "
        }
        let text = tier + describe(limit)
        guard case .value(let value) = measured else {
            return RuleResult(rule: rawValue, status: .fail, measured: measured, limit: text, unit: unit)
        }
        return RuleResult(rule: rawValue, status: RuleName.verdict(value, limit), measured: measured, limit: text, unit: unit)
    }

    /// Rules about time and streaming, which a still image passes by having neither.
    var appliesOnlyToMotion: Bool {
        [
            .faststart, .duration, .frameRate, .variableFrameRate, .keyframeInterval, .freezeFrames, .flashes, .interlaced,
            .avDurationMatch, .videoBitrateFloor
        ].contains(self)
    }

    /// A floor tier for a picture: the tier with the largest short side not above the picture's (the
    /// smallest tier for a smaller picture), so portrait and odd sizes find their tier too.
    static func floorTier(_ tiers: [String: Limit], _ size: String) -> (name: String, limit: Limit)? {
        func short(_ s: String) -> Int { s.split(separator: "x").compactMap { Int($0) }.min() ?? 0 }
        let sorted = tiers.sorted { short($0.key) < short($1.key) }
        guard let smallest = sorted.first else { return nil }
        let pick = sorted.last { short($0.key) <= short(size) } ?? smallest
        return (pick.key == size ? size : "\(size) (tier \(pick.key))", pick.value)
    }

    /// Pixels in a "WxH" size, for listing the largest first.
    static func area(_ size: String) -> Int {
        size.split(separator: "x").compactMap { Int($0) }.reduce(1, *)
    }

    static func verdict(_ value: SpecValue, _ limit: Limit) -> RuleResult.Status {
        let warned = limit.warn.map { matches(value, $0, tolerance: limit.tolerance) } ?? false
        var failed = false
        if let allowed = limit.allowed, !matches(value, allowed, tolerance: limit.tolerance) { failed = true }
        if case .number(let d) = value {
            if let lo = limit.min, d < lo { failed = true }
            if let hi = limit.max, d > hi { failed = true }
            if let t = limit.target, abs(d - t) > (limit.tolerance ?? 0) + 1e-9 { failed = true }
        } else if limit.min != nil || limit.max != nil || limit.target != nil {
            failed = true
        }
        if warned { return .warn }
        if failed { return .fail }
        if let w = limit.warnAbove, case .number(let d) = value, d > w + 1e-9 { return .warn }
        return .pass
    }

    static func matches(_ value: SpecValue, _ list: [SpecValue], tolerance: Double?) -> Bool {
        list.contains { item in
            if case .number(let a) = value, case .number(let b) = item { return abs(a - b) <= (tolerance ?? 0) + 1e-9 }
            if case .string(let a) = value, case .string(let b) = item { return a.lowercased() == b.lowercased() }
            return value == item
        }
    }

    /// "one of 6, 15, 20, 30 s (+/-1)", "at most -6 dBTP", "-24 +/-2 LUFS", "between 320 and 1080".
    public func describe(_ limit: Limit) -> String {
        let u = unit.isEmpty ? "" : " \(unit)"
        let f = SpecValue.format
        var parts: [String] = []
        if let allowed = limit.allowed {
            let list = allowed.map(\.description).joined(separator: ", ")
            let tol = limit.target == nil ? limit.tolerance.map { " (+/-\(f($0)))" } ?? "" : ""
            let numeric = allowed.allSatisfy(\.isNumber)
            parts.append((allowed.count == 1 ? list : "one of \(list)") + (numeric ? u : "") + tol)
        }
        switch (limit.min, limit.max) {
        case let (lo?, hi?): parts.append("between \(f(lo)) and \(f(hi))\(u)")
        case let (lo?, nil): parts.append("at least \(f(lo))\(u)")
        case let (nil, hi?): parts.append("at most \(f(hi))\(u)")
        default: break
        }
        if let t = limit.target { parts.append("\(f(t)) +/-\(f(limit.tolerance ?? 0))\(u)") }
        if let warn = limit.warn { parts.append("warns: " + warn.map(\.description).joined(separator: ", ")) }
        if let w = limit.warnAbove { parts.append("warns above \(f(w))\(u)") }
        if limit.byResolution != nil { parts.append("a limit per resolution tier") }
        return parts.isEmpty ? "anything" : parts.joined(separator: "; ")
    }
}
