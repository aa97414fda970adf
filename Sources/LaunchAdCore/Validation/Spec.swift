import Foundation

/// A set of rules and limits a creative is held to: a built-in profile or a team's spec file.
public struct Spec: Equatable, Sendable {
    /// The name reports show: the profile's, or the spec file's `name` (else its file name).
    public var name: String
    /// The limit each applied rule is held to; rules not in it are not checked.
    public var rules: [RuleName: Limit]

    /// A spec called `name` applying `rules`.
    public init(name: String, rules: [RuleName: Limit]) {
        self.name = name
        self.rules = rules
    }

    /// Every rule in report order.
    public func evaluate(_ facts: CreativeFacts) -> [RuleResult] {
        RuleName.allCases.compactMap { name in rules[name].map { name.evaluate($0, on: facts) } }
    }

    /// EBU R128's -23 LUFS +/-1 in place of the profile's loudness target (`--loudness ebu`).
    public func withEBULoudness() -> Spec {
        var s = self
        if s.rules[.loudnessIntegrated] != nil { s.rules[.loudnessIntegrated] = Limit(target: -23, tolerance: 1) }
        return s
    }

    /// Reads a spec file: `{"name": ..., "extends": PROFILE, "rules": {RULE: LIMIT or null}}`.
    /// With `extends`, the profile's rules are the start and `null` removes one.
    public static func parse(_ data: Data, defaultName: String) throws -> Spec {
        let file: SpecFile
        do {
            file = try JSONDecoder().decode(SpecFile.self, from: data)
        } catch let e as SpecError {
            throw e
        } catch DecodingError.dataCorrupted(let ctx) {
            throw SpecError(ctx.underlyingError.map { "not valid JSON: \($0.localizedDescription)" } ?? "not valid JSON")
        } catch DecodingError.typeMismatch(_, let ctx), DecodingError.valueNotFound(_, let ctx) {
            let path = ctx.codingPath.map(\.stringValue).joined(separator: ".")
            throw SpecError("wrong type at '\(path)': \(ctx.debugDescription)")
        } catch {
            throw SpecError("unreadable spec: \(error)")
        }
        var spec = Spec(name: file.name ?? defaultName, rules: [:])
        if let base = file.extends {
            guard let profile = Spec.profile(named: base) else {
                throw SpecError("'extends' names no profile: '\(base)' (profiles: \(Spec.profileNames.joined(separator: ", ")))")
            }
            spec.rules = profile.rules
        }
        for (key, limit) in file.rules {
            guard let rule = RuleName(rawValue: key) else {
                throw SpecError("unknown rule '\(key)' (rules: \(RuleName.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            try limit?.check(for: rule)
            spec.rules[rule] = limit
        }
        if spec.rules.isEmpty { throw SpecError("the spec has no rules") }
        return spec
    }
}

/// The file's shape; `rules` values may be null to drop an inherited rule.
struct SpecFile: Decodable {
    var name: String?
    var extends: String?
    var rules: [String: Limit?]

    static let keys = ["name", "extends", "rules"]

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Limit.Key.self)
        if let unknown = c.allKeys.first(where: { !SpecFile.keys.contains($0.stringValue) }) {
            throw SpecError("unknown key '\(unknown.stringValue)' (a spec has: \(SpecFile.keys.joined(separator: ", ")))")
        }
        name = try c.decodeIfPresent(String.self, forKey: .init(stringValue: "name"))
        extends = try c.decodeIfPresent(String.self, forKey: .init(stringValue: "extends"))
        guard c.contains(.init(stringValue: "rules")) else { throw SpecError("the spec has no 'rules' object") }
        rules = try c.decode([String: Limit?].self, forKey: .init(stringValue: "rules"))
    }
}
