/// The report for people: one block per creative, a line per rule, the decode errors, a summary.
extension ValidationReport {
    /// Decode errors listed before the rest are summed up in one line.
    static let listedDecodeErrors = 10

    /// Every text from a file or a server (names, language tags, measured values, decoder
    /// messages) is escaped for the terminal: a subtitle track tagged with an escape sequence
    /// cannot move the cursor or retitle the window.
    func textReport() -> String {
        let t = TerminalText.escaped
        var out = ""
        for c in creatives {
            var counts = [RuleResult.Status.pass, .warn, .fail].map { "\(c.count($0)) \($0.rawValue)" }.joined(separator: ", ")
            if c.count(.skip) > 0 { counts += ", \(c.count(.skip)) skip" }
            out += "\(c.status.rawValue.uppercased())  \(t(c.file))  (\(t(c.spec)): \(counts))\n"
            let width = max(18, c.results.map(\.rule.count).max() ?? 0)
            for r in c.results {
                let rule = r.rule.padding(toLength: width, withPad: " ", startingAt: 0)
                let text = t(r.measuredText)
                let measured = text.padding(toLength: max(22, text.count), withPad: " ", startingAt: 0)
                out += "  \(r.status.rawValue)  \(t(rule))  \(measured)  limit: \(t(r.limit))\n"
            }
            if let errors = c.facts?.analysis.decodeErrors, !errors.isEmpty {
                out += "  decode errors: \(errors.count)\n"
                for e in errors.prefix(Self.listedDecodeErrors) {
                    let at = e.seconds.map { "at \(SpecValue.format($0)) s" } ?? "at an unknown time"
                    let stream = e.stream >= 0 ? " (stream \(e.stream))" : ""
                    out += "    \(at)\(stream): \(t(e.message))\n"
                }
                if errors.count > Self.listedDecodeErrors { out += "    ... and \(errors.count - Self.listedDecodeErrors) more\n" }
            }
        }
        let failed = creatives.filter { $0.status == .fail }.count
        let warned = creatives.filter { $0.status == .warn }.count
        let noun = creatives.count == 1 ? "creative" : "creatives"
        out += "\(creatives.count) \(noun): \(creatives.count - failed - warned) passed, \(warned) warned, \(failed) failed\n"
        return out
    }
}
