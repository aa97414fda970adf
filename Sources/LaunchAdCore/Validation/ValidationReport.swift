/// The verdict on one creative: every rule's result, or why the file could not be read at all.
public struct CreativeReport: Equatable, Sendable {
    /// The creative's path (or URL), as reported.
    public var file: String
    /// The name of the spec or profile it was held to.
    public var spec: String
    /// One result per applied rule, in report order.
    public var results: [RuleResult]
    /// What probing and decoding found; nil when the file could not be read, and for a VAST tag's own report.
    public var facts: CreativeFacts?
    /// The limits the rules were held to, for reports that draw them (the HTML loudness plot).
    public var limits: [RuleName: Limit]
    /// A VAST tag's wrapper chain and media-file ladder, drawn by the HTML report only.
    public var vast: VASTReportFacts?

    /// A report with the given results; `limits` and `vast` default to none.
    public init(
        file: String, spec: String, results: [RuleResult], facts: CreativeFacts?, limits: [RuleName: Limit] = [:],
        vast: VASTReportFacts? = nil
    ) {
        self.file = file
        self.spec = spec
        self.results = results
        self.facts = facts
        self.limits = limits
        self.vast = vast
    }

    /// A file that is missing, empty, not media or too damaged to open: one failing `readable` rule.
    public static func unreadable(file: String, spec: String, reason: String) -> CreativeReport {
        CreativeReport(
            file: file, spec: spec,
            results: [RuleResult(rule: "readable", status: .fail, measured: .missing(reason), limit: "a media file FFmpeg can open")],
            facts: nil)
    }

    /// Holds `facts` to every rule of `spec`.
    public static func evaluate(_ facts: CreativeFacts, against spec: Spec) -> CreativeReport {
        CreativeReport(file: facts.probe.file, spec: spec.name, results: spec.evaluate(facts), facts: facts, limits: spec.rules)
    }

    /// The worst result; skipped rules count for nothing.
    public var status: RuleResult.Status { max(results.map(\.status).max() ?? .pass, .pass) }
    /// How many results have status `s`.
    public func count(_ s: RuleResult.Status) -> Int { results.filter { $0.status == s }.count }
}

/// All creatives of one run.
public struct ValidationReport: Equatable, Sendable {
    /// One report per creative, in the order given.
    public var creatives: [CreativeReport]
    /// A run's reports.
    public init(_ creatives: [CreativeReport]) { self.creatives = creatives }

    /// The HTML report's id for the section of `creatives[index]`.
    public static func anchor(_ index: Int) -> String { "creative-\(index + 1)" }

    /// 0 when nothing fails (warnings included), 1 when any rule fails.
    public var exitCode: Int32 { creatives.contains { $0.status == .fail } ? ExitCode.failure : ExitCode.success }
}

/// The `--format` a validation report is written in: plain text, JSON, JUnit XML or HTML.
public enum ReportFormat: String, CaseIterable, Sendable {
    case text, json, junit, html
}

extension ValidationReport {
    /// The whole report in `format`, ready to write to a file or stdout.
    public func render(_ format: ReportFormat) -> String {
        switch format {
        case .text: return textReport()
        case .json: return jsonReport().serialized() + "\n"
        case .junit: return junitReport()
        case .html: return htmlReport()
        }
    }
}
